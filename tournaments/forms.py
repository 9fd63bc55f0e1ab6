"""Forms of the organiser pages (labelled fields; the services do the real checks)."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.domain.first_player import POLICIES
from tournaments.domain.standings import TIEBREAKERS
from tournaments.models import DeckCheck, StaffRole, Tournament


class TournamentCreateForm(forms.Form):
    """The "new tournament" page (``views.tournament_create``): name, format (the active formats,
    passed in as ``format_choices``), kind, games per match (1–9), stop at two wins, planned rounds
    (1–50), up to four tiebreakers in order, first-player policy, public flag, deck-list
    publication and deck-check share (0–100 %). Empty fields mean the format's defaults.

    ``clean`` refuses a tiebreaker chosen twice and adds ``tiebreakers`` (codes, or ``None``).
    """

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
    late_entry_cutoff_round = forms.IntegerField(
        label=_("Late entries up to round"),
        min_value=1,
        max_value=50,
        required=False,
        help_text=_(
            "Players may still join, with zero points, before this round is paired. "
            "Empty: no late entries once the event has started."
        ),
    )

    tiebreaker_1 = forms.ChoiceField(label=_("1st tiebreaker"), required=False)
    tiebreaker_2 = forms.ChoiceField(label=_("2nd tiebreaker"), required=False)
    tiebreaker_3 = forms.ChoiceField(label=_("3rd tiebreaker"), required=False)
    tiebreaker_4 = forms.ChoiceField(
        label=_("4th tiebreaker"),
        required=False,
        help_text=_("Applied in this order after match points. All empty: the format's default."),
    )
    first_player_policy = forms.ChoiceField(label=_("First-player policy"), required=False)
    is_public = forms.BooleanField(
        label=_("Public: anyone may see the published pairings and standings"),
        required=False,
        initial=True,
    )
    decklists_published = forms.BooleanField(
        label=_("Publish the deck lists to the players"), required=False
    )
    deck_check_percent = forms.IntegerField(
        label=_("Deck checks per round (%)"),
        min_value=0,
        max_value=100,
        initial=10,
        required=False,
        help_text=_("Share of the entries picked at random for a deck check; empty: 10."),
    )

    def __init__(self, *args, format_choices: Sequence[tuple[str, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = list(format_choices)
        tiebreakers = [("", _("(none)"))] + tiebreaker_choices()
        for i in range(1, 5):
            self.fields[f"tiebreaker_{i}"].choices = tiebreakers
        self.fields["first_player_policy"].choices = [
            ("", _("The format's default"))
        ] + policy_choices()

    def clean(self):
        cleaned = super().clean()
        codes = [cleaned.get(f"tiebreaker_{i}") for i in range(1, 5)]
        codes = [c for c in codes if c]
        if len(set(codes)) != len(codes):
            self.add_error("tiebreaker_1", _("Each tiebreaker may be chosen only once."))
        cleaned["tiebreakers"] = codes or None
        return cleaned


def tiebreaker_choices() -> list[tuple[str, str]]:
    """The registered tiebreakers with translated names."""
    labels = {
        "buchholz": _("Buchholz (sum of the opponents' match points)"),
        "median_buchholz": _("Median Buchholz"),
        "omw": _("Opponents' match-win %"),
        "gw": _("Game-win %"),
        "ogw": _("Opponents' game-win %"),
        "game_points": _("Game points"),
        "head_to_head": _("Head-to-head"),
    }
    return [(code, labels.get(code, code)) for code in TIEBREAKERS]


def policy_choices() -> list[tuple[str, str]]:
    """The registered first-player policies with translated names."""
    labels = {
        "hkk": _("HKK: die roll for game 1, then player 2, then player 1"),
        "loser_chooses": _("The loser of the previous game chooses"),
    }
    return [(code, labels.get(code, code)) for code in POLICIES]


class TournamentOptionsForm(forms.Form):
    """Options the organiser may change at any time."""

    is_public = forms.BooleanField(
        label=_("Public: anyone may see the published pairings and standings"), required=False
    )
    decklists_published = forms.BooleanField(
        label=_("Publish the deck lists to the players"), required=False
    )
    deck_check_percent = forms.IntegerField(
        label=_("Deck checks per round (%)"), min_value=0, max_value=100
    )


class StaffAppointForm(forms.Form):
    """The owner's "appoint staff" form on the staff page: ``username`` and ``role`` (co-organiser
    or judge); the view looks the user up and ``services.staff_appoint`` checks the rest.
    """

    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices)


class StaffRemoveForm(forms.Form):
    """The owner's "remove from staff" form: the ``username`` whose staff role ends."""

    username = forms.CharField(label=_("Username"), max_length=150)


class SelfRegisterForm(forms.Form):
    """A signed-in player enters an event; pair events name the partner's username."""

    partner = forms.CharField(
        label=_("Partner's username"),
        max_length=150,
        required=False,
        help_text=_("Pair events only: your partner needs an account too."),
    )
    name = forms.CharField(
        label=_("Team name"), max_length=200, required=False, help_text=_("Pair events only.")
    )


class OwnDeckForm(forms.Form):
    """A player's own deck list on the "my deck" page: ``text`` (at most 20 000 characters, kept
    unstripped), one card per line with the number of copies first; ``deck_submit`` validates it.
    """

    text = forms.CharField(
        label=_("Deck list"),
        strip=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_("One card per line with the number of copies first (paste the list)."),
    )


class ResultReportForm(forms.Form):
    """A player's report of their own match: per game the winner, who went first, and whether
    the holder of the right waived it. Games left empty were not played."""

    def __init__(
        self, *args, games: int, mine: tuple[int, str], theirs: tuple[int, str], **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.games = games
        self.mine, self.theirs = mine, theirs
        for n in range(1, games + 1):
            self.fields[f"g{n}_result"] = forms.ChoiceField(
                label=_("Game %(game)s: result") % {"game": n},
                required=False,
                choices=[
                    ("", _("not played")),
                    ("mine", _("I won")),
                    ("theirs", _("%(name)s won") % {"name": theirs[1]}),
                    ("draw", _("Draw")),
                ],
            )
            self.fields[f"g{n}_first"] = forms.ChoiceField(
                label=_("Game %(game)s: went first") % {"game": n},
                required=False,
                choices=[("", "–"), ("mine", _("I did")), ("theirs", theirs[1])],
            )
            self.fields[f"g{n}_waived"] = forms.BooleanField(
                label=_("Game %(game)s: the right to go first was waived") % {"game": n},
                required=False,
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"g{n}_result"], self[f"g{n}_first"], self[f"g{n}_waived"])
            for n in range(1, self.games + 1)
        ]

    def clean(self):
        cleaned = super().clean()
        ids = {"mine": self.mine[0], "theirs": self.theirs[0]}
        games = []
        ended = False
        for n in range(1, self.games + 1):
            result = cleaned.get(f"g{n}_result")
            first = cleaned.get(f"g{n}_first")
            if not result:
                ended = True
                continue
            if ended:
                self.add_error(f"g{n}_result", _("Report the games in order, without gaps."))
                continue
            if not first:
                self.add_error(f"g{n}_first", _("Tell who went first."))
                continue
            games.append(
                {
                    "number": n,
                    "winner": None if result == "draw" else ids[result],
                    "first": ids[first],
                    "waived": bool(cleaned.get(f"g{n}_waived")),
                }
            )
        if not games and not self.errors:
            raise forms.ValidationError(_("Report at least one game."))
        cleaned["games"] = games
        return cleaned


class QuickGameForm(forms.Form):
    """The judge's one-tap game entry: the result button pressed and the waive toggle; who went
    first follows from the right holder shown on the screen."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=9)
    result = forms.ChoiceField(
        label=_("Result"), choices=[("a", "A"), ("b", "B"), ("draw", _("Draw"))]
    )
    waived = forms.BooleanField(label=_("Waived: the other player went first"), required=False)


class DeckCheckAddForm(forms.Form):
    """A judge picks one entry of the round for a deck check: ``entry``, one of the ``entries``
    passed in as ``(id, name)``, cleaned to the int id.
    """

    entry = forms.TypedChoiceField(label=_("Entry"), coerce=int)

    def __init__(self, *args, entries: Sequence[tuple[int, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = list(entries)


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
    """The organiser's deck-list entry for a member of an entry (``views.entry_deck``): ``seat``
    among the ``seat_choices`` passed in and the list ``text`` (kept unstripped).
    """

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
    """A required ``reason`` (at most 2000 characters) for the organiser's deck-list override."""

    reason = forms.CharField(label=_("Reason"), max_length=2000)


class SwapForm(forms.Form):
    """Swap pairings in a draft round: two table numbers (≥ 1), the seat to swap (A or B, default B)
    and an optional reason (at most 2000 characters); ``round_swap_pairings`` checks the tables.
    """

    table_x = forms.IntegerField(label=_("Table"), min_value=1)
    table_y = forms.IntegerField(label=_("Other table"), min_value=1)
    swap = forms.ChoiceField(
        label=_("Seat to swap"), choices=[("a", _("Seat A")), ("b", _("Seat B"))], initial="b"
    )
    reason = forms.CharField(label=_("Reason"), max_length=2000, required=False)


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
