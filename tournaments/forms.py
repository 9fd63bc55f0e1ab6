"""Forms of the organiser pages (labelled fields; the services do the real checks)."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    format = forms.ChoiceField(label=_("Format"))
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Tournament.Kind.choices, initial=Tournament.Kind.INDIVIDUAL
    )
    games_per_match = forms.IntegerField(
        label=_("Games per match"),
        min_value=1,
        max_value=9,
        required=False,
        help_text=_("Empty: the format's default."),
    )
    stop_at_two_wins = forms.BooleanField(
        label=_("Stop when a player has won the match"), required=False
    )
    planned_rounds = forms.IntegerField(
        label=_("Planned rounds"),
        min_value=1,
        max_value=50,
        required=False,
        help_text=_("Empty: suggested from the number of entries at the start."),
    )

    def __init__(self, *args, format_choices: Sequence[tuple[str, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = list(format_choices)


class EntryAddForm(forms.Form):
    """A player (name in seat A only) or a pair team (both seats)."""

    player_a = forms.CharField(label=_("Player (seat A)"), max_length=120)
    player_b = forms.CharField(
        label=_("Partner (seat B, pair tournaments only)"), max_length=120, required=False
    )
    name = forms.CharField(
        label=_("Team name"), max_length=200, required=False, help_text=_("Pair teams only.")
    )


class DeckSubmitForm(forms.Form):
    seat = forms.ChoiceField(label=_("Player"))
    text = forms.CharField(
        label=_("Deck list"),
        strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text=_("One card per line with the number of copies first (paste the list)."),
    )

    def __init__(self, *args, seat_choices: Sequence[tuple[str, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = list(seat_choices)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=2000)


class SwapForm(forms.Form):
    table_x = forms.IntegerField(label=_("Table"), min_value=1)
    table_y = forms.IntegerField(label=_("Other table"), min_value=1)
    swap = forms.ChoiceField(
        label=_("Seat to swap"), choices=[("a", _("Seat A")), ("b", _("Seat B"))], initial="b"
    )
    reason = forms.CharField(label=_("Reason"), max_length=2000, required=False)


def _entry_choices(a: tuple[int, str], b: tuple[int, str]) -> list[tuple[str, str]]:
    return [(str(a[0]), f"{a[1]} (A)"), (str(b[0]), f"{b[1]} (B)")]


class DieRollForm(forms.Form):
    winner = forms.TypedChoiceField(
        label=_("Die roll winner (player 1)"), coerce=int, widget=forms.RadioSelect
    )
    reroll_game3_agreed = forms.BooleanField(
        label=_("Both agreed before the roll to roll again for game 3"), required=False
    )

    def __init__(self, *args, a: tuple[int, str], b: tuple[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = _entry_choices(a, b)


class GameForm(forms.Form):
    """One game: result (a win or a draw), who went first, whether the holder waived."""

    number = forms.IntegerField(label=_("Game"), min_value=1, max_value=9)
    result = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect)
    first = forms.TypedChoiceField(label=_("Went first"), coerce=int, widget=forms.RadioSelect)
    waived = forms.BooleanField(
        label=_("The right holder waived the right to go first"), required=False
    )
    right_holder = forms.TypedChoiceField(
        label=_("Holder of the right (when a die roll decided it)"),
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    correction = forms.BooleanField(label=_("Correct an already recorded game"), required=False)
    reason = forms.CharField(label=_("Reason of the correction"), max_length=2000, required=False)

    def __init__(self, *args, a: tuple[int, str], b: tuple[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [
            (str(a[0]), _("%(name)s won") % {"name": f"{a[1]} (A)"}),
            (str(b[0]), _("%(name)s won") % {"name": f"{b[1]} (B)"}),
            ("draw", _("Draw")),
        ]
        self.fields["first"].choices = _entry_choices(a, b)
        self.fields["right_holder"].choices = _entry_choices(a, b)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("correction") and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("A correction needs a reason."))
        result = cleaned.get("result")
        cleaned["winner"] = None if result == "draw" else (int(result) if result else None)
        return cleaned
