"""Forms of the judge pages: the die roll and the games of one table (docs/rules.md §6 (HKK
first-player rights)), and the deck checks of a round (§16 (Deck checks, penalties and result
reporting)). The services do the real checks.
"""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import DeckCheck
from tournaments.pages.common import set_choices


class QuickGameForm(forms.Form):
    """The judge's one-tap game entry: the result button pressed and the waive toggle; who went
    first follows from the right holder shown on the screen."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=9)
    result = forms.ChoiceField(
        label=_("Result"), choices=[("a", "A"), ("b", "B"), ("draw", _("Draw"))]
    )
    waived = forms.BooleanField(label=_("Waived: the other player went first"), required=False)
    score = forms.IntegerField(label=_("Winner's score"), min_value=0, required=False)


class DeckCheckAddForm(forms.Form):
    """A judge picks one entry of the round for a deck check: ``entry``, one of the ``entries``
    passed in as ``(id, name)``, cleaned to the int id.
    """

    entry = forms.TypedChoiceField(label=_("Entry"), coerce=int)

    def __init__(self, *args, entries: Sequence[tuple[int, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        set_choices(self, "entry", entries)


class DeckCheckRecordForm(forms.Form):
    """A deck check's result: ``outcome`` and ``penalty`` (the ``DeckCheck`` choices) and optional
    ``notes`` (at most 4000 characters). ``pending`` is not offered: recording means the check
    was done; ``services.deck_check_record`` also refuses a penalty without a problem.
    """

    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=[c for c in DeckCheck.Outcome.choices if c[0] != DeckCheck.Outcome.PENDING],
    )
    penalty = forms.ChoiceField(label=_("Penalty"), choices=DeckCheck.Penalty.choices)
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


def _entry_choices(a: tuple[int, str], b: tuple[int, str]) -> list[tuple[str, str]]:
    return [(str(a[0]), f"{a[1]} (A)"), (str(b[0]), f"{b[1]} (B)")]


class DieRollForm(forms.Form):
    """The judge's die roll at a table: ``winner`` (player 1; one of the two entries ``a``, ``b``
    passed in as ``(id, name)``) and whether both agreed to roll again for game 3.
    """

    winner = forms.TypedChoiceField(
        label=_("Die roll winner (player 1)"), coerce=int, widget=forms.RadioSelect
    )
    reroll_game3_agreed = forms.BooleanField(
        label=_("Both agreed before the roll to roll again for game 3"), required=False
    )

    def __init__(
        self,
        *args,
        a: tuple[int, str],
        b: tuple[int, str],
        reroll_available: bool = True,
        chooses: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        set_choices(self, "winner", _entry_choices(a, b))
        if chooses:
            self.fields["winner"].label = _("Die roll winner (chooses who starts)")
        if not reroll_available:
            del self.fields["reroll_game3_agreed"]


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
    score = forms.IntegerField(
        label=_("Winner's score"),
        min_value=0,
        required=False,
        help_text=_("Only where the format keeps a score (Blue Moon: crystals)."),
    )
    correction = forms.BooleanField(label=_("Correct an already recorded game"), required=False)
    reason = forms.CharField(label=_("Reason of the correction"), max_length=2000, required=False)

    def __init__(
        self,
        *args,
        a: tuple[int, str],
        b: tuple[int, str],
        scored: bool = False,
        chooses: bool = False,
        score_max: int | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not scored:
            del self.fields["score"]
        elif score_max is not None:
            # The format's range (Blue Moon: 4 crystals, 7 with Emissaries and Inquisitors);
            # recording checks it (tournaments.domain.first_player).
            self.fields["score"].help_text = _("From 1 to %(max)s (the format's maximum).") % {
                "max": score_max
            }
            self.fields["score"].widget.attrs.update(min=1, max=score_max)
        if chooses:
            self.fields["waived"].label = _("The chooser let the other player start")
            self.fields["right_holder"].label = _("Who chose (when a die roll decided it)")
        set_choices(
            self,
            "result",
            [
                (str(a[0]), _("%(name)s won") % {"name": f"{a[1]} (A)"}),
                (str(b[0]), _("%(name)s won") % {"name": f"{b[1]} (B)"}),
                ("draw", _("Draw")),
            ],
        )
        set_choices(self, "first", _entry_choices(a, b))
        set_choices(self, "right_holder", _entry_choices(a, b))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("correction") and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("A correction needs a reason."))
        result = cleaned.get("result")
        cleaned["winner"] = None if result == "draw" else (int(result) if result else None)
        cleaned.setdefault("score", None)
        return cleaned
