"""Forms of the organiser pages (labelled fields; the services do the real checks): the new
event, its options, the staff, entries and their deck lists, and swaps in a draft round.

The tiebreakers and first-player policies offered are the registered ones (docs/rules.md §15
(Match points and tiebreakers), §6 (HKK first-player rights)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.domain.first_player import POLICIES
from tournaments.domain.standings import TIEBREAKERS
from tournaments.models import StaffRole, Tournament
from tournaments.pages.common import set_choices

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class TournamentCreateForm(forms.Form):
    """The "new tournament" page (``organiser.tournament_create``): name, format (the active
    formats, passed in as ``format_choices``), kind, games per match (1–9), stop at two wins,
    planned rounds (1–50), late entries up to a round, up to four tiebreakers in order,
    first-player policy, public flag, deck-list publication and deck-check share (0–100 %).
    Empty fields mean the format's defaults.

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
        label=_("Stop when a player has won the match"),
        required=False,
        help_text=_("Unticked: as the format's match structure says."),
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
        set_choices(self, "format", format_choices)
        tiebreakers = [("", _("(none)")), *tiebreaker_choices()]
        for i in range(1, 5):
            set_choices(self, f"tiebreaker_{i}", tiebreakers)
        set_choices(
            self, "first_player_policy", [("", _("The format's default")), *policy_choices()]
        )

    def clean(self):
        cleaned = super().clean()
        codes = [cleaned.get(f"tiebreaker_{i}") for i in range(1, 5)]
        codes = [c for c in codes if c]
        if len(set(codes)) != len(codes):
            self.add_error("tiebreaker_1", _("Each tiebreaker may be chosen only once."))
        cleaned["tiebreakers"] = codes or None
        return cleaned


def tiebreaker_choices() -> list[tuple[str, StrOrPromise]]:
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


def policy_choices() -> list[tuple[str, StrOrPromise]]:
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
    """The organiser's deck-list entry for a member of an entry
    (``organiser_entries.entry_deck``): ``seat`` among the ``seat_choices`` passed in and the
    list ``text`` (kept unstripped).
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
        set_choices(self, "seat", seat_choices)


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
