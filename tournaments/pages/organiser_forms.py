"""Forms of the organiser pages (labelled fields; the services do the real checks): the new
event, its options, the staff, entries and their deck lists, and swaps in a draft round.

The tiebreakers and first-player policies offered are the registered ones (docs/rules.md §15
(Match points and tiebreakers), §6 (HKK first-player rights)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.models import StaffRole, Tournament
from tournaments.pages.common import set_choices
from tournaments.services import IMPORT_MAX_BYTES


class TournamentCreateForm(forms.Form):
    """The "new tournament" page (``organiser.tournament_create``): name, format (the active
    formats, passed in as ``format_choices``; it decides the kind), date and time, venue,
    description, player cap, games per match (1–9), stop at two wins,
    planned rounds (1–50), late entries up to a round, up to four tiebreakers in order,
    first-player policy, public flag, deck-list publication and deck-check share (0–100 %).
    Empty fields mean the format's defaults.

    ``clean`` refuses a tiebreaker chosen twice and adds ``tiebreakers`` (codes, or ``None``).
    """

    name = forms.CharField(label=_("Name"), max_length=200)
    format = forms.ChoiceField(
        label=_("Format"),
        help_text=_("The format decides the kind: HKK Páros is played by pair teams."),
    )
    starts_at = forms.DateTimeField(
        label=_("Date and time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    max_entries = forms.IntegerField(
        label=_("Player cap"),
        min_value=2,
        max_value=4096,
        required=False,
        help_text=_("Empty: no cap."),
    )
    games_per_match = forms.IntegerField(
        label=_("Games per match"),
        min_value=1,
        max_value=9,
        required=False,
        help_text=_("Empty: the format's default."),
    )
    ends_when_decided = forms.BooleanField(
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


def tiebreaker_choices() -> list[tuple[str, str]]:
    """The registered tiebreakers with their translated labels (the registry's)."""
    return selectors.tiebreaker_choices()


def policy_choices() -> list[tuple[str, str]]:
    """The registered first-player policies with their translated labels (the registry's)."""
    return selectors.policy_choices()


class TournamentOptionsForm(forms.Form):
    """Options the organiser may change at any time."""

    is_public = forms.BooleanField(
        label=_("Public: anyone may see the published pairings and standings"), required=False
    )
    decklists_published = forms.BooleanField(
        label=_("Publish the deck lists to the players"), required=False
    )
    decklists_published_at = forms.ChoiceField(
        label=_("Lists become public"),
        choices=Tournament.ListsPublished.choices,
        required=False,
        help_text=_(
            "Published lists become public and count in the meta statistics once the event is "
            "finished, or already when its top cut begins."
        ),
    )
    deck_check_percent = forms.IntegerField(
        label=_("Deck checks per round (%)"), min_value=0, max_value=100
    )


class DetailsForm(forms.Form):
    """The event's date and time, venue, description and player cap (``tournament_set_details``)."""

    starts_at = TournamentCreateForm.base_fields["starts_at"]
    venue = TournamentCreateForm.base_fields["venue"]
    description = TournamentCreateForm.base_fields["description"]
    max_entries = TournamentCreateForm.base_fields["max_entries"]


class ConfirmForm(forms.Form):
    """The second step of an irreversible action: an optional or required ``reason`` (the view
    says which: ``reason_required``) that is recorded."""

    reason = forms.CharField(
        label=_("Reason (recorded)"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, reason_required: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = reason_required


class DropForm(ConfirmForm):
    """Dropping an entry that is paired in the current round: re-pair the round (a draft round,
    or one without results) or give the opponent a bye."""

    fix = forms.ChoiceField(
        label=_("The round this entry is paired in"),
        choices=[
            ("bye", _("Give the opponent a bye")),
            ("repair", _("Pair the round again without this entry")),
        ],
        widget=forms.RadioSelect,
        initial="bye",
    )


class UnpublishForm(ConfirmForm):
    """Unpublish a round; a round with results needs ``delete_results`` ticked."""

    delete_results = forms.BooleanField(
        label=_("Delete the results recorded in this round"),
        required=False,
        help_text=_("They are kept in the round's history and can be restored."),
    )


#: The desk's choices for the rounds a re-added or late entry missed (``round_fixes``).
MISSED_CHOICES = [
    ("loss", _("A match loss for each missed round")),
    ("bye", _("A bye for each missed round")),
    ("pair", _("A seat against the bye of the round in progress (earlier rounds lost)")),
]


class ReaddForm(ConfirmForm):
    """Adding a dropped entry back after rounds were paired without it: what those rounds
    count as, with a required reason."""

    missed = forms.ChoiceField(
        label=_("The rounds this entry missed"),
        choices=MISSED_CHOICES,
        widget=forms.RadioSelect,
        initial="loss",
    )


class DiscardForm(UnpublishForm):
    """Discard a draft round, optionally pairing it again at once."""

    pair_again = forms.BooleanField(label=_("Pair the round again"), required=False, initial=True)


class ImportForm(forms.Form):
    """A list of players to import: pasted text or an uploaded CSV file (name, e-mail, deck
    list). An uploaded file is refused by its size before it is read (at most
    ``services.IMPORT_MAX_BYTES``); its bytes go to ``cleaned_data["data"]`` undecoded (the
    service detects the encoding)."""

    text = forms.CharField(
        label=_("Players (one per line: name, e-mail, deck list)"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text=_(
            "CSV with comma, semicolon or tab; the e-mail and the deck list may be empty; a deck "
            "list of several lines goes in quotes."
        ),
    )
    file = forms.FileField(label=_("Or upload a CSV file"), required=False)

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        cleaned["data"] = None
        if upload:
            if upload.size > IMPORT_MAX_BYTES:
                raise forms.ValidationError(
                    _("The file is too large: at most %(kib)s KiB.")
                    % {"kib": IMPORT_MAX_BYTES // 1024}
                )
            cleaned["data"] = upload.read()
        elif not (cleaned.get("text") or "").strip():
            raise forms.ValidationError(_("Paste the list or choose a file."))
        return cleaned

    def __init__(self, *args: Any, pair: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if pair:  # a pair event imports teams
            self.fields["text"].label = _(
                "Teams (one per line: team name, player A, A's e-mail, player B, B's e-mail, "
                "A's deck list, B's deck list)"
            )
            self.fields["text"].help_text = _(
                "CSV with comma, semicolon or tab; the team name, the e-mails and the deck lists "
                "may be empty; a deck list of several lines goes in quotes."
            )


class ClaimForm(forms.Form):
    """A player's one-time claim code."""

    code = forms.CharField(label=_("Code"), max_length=32)


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

    player_a = forms.CharField(
        label=_("Player (seat A)"),
        max_length=120,
        help_text=_("Given name and family name, in this order."),
    )
    player_b = forms.CharField(
        label=_("Partner (seat B, pair tournaments only)"), max_length=120, required=False
    )
    name = forms.CharField(
        label=_("Team name"), max_length=200, required=False, help_text=_("Pair teams only.")
    )

    missed = forms.ChoiceField(
        label=_("A late entry: the rounds already paired"),
        choices=[("", _("None (only up to the late entry cut-off round)")), *MISSED_CHOICES],
        required=False,
    )
    reason = forms.CharField(label=_("Reason (recorded)"), max_length=2000, required=False)

    def __init__(self, *args, pair: bool = True, late: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not pair:  # an individual event: no partner, team name nor seat
            self.fields["player_a"].label = _("Player")
            del self.fields["player_b"]
            del self.fields["name"]
        if not late:  # before the start nothing was missed
            del self.fields["missed"]
            del self.fields["reason"]

    def clean(self):
        cleaned = super().clean()
        cleaned.setdefault("player_b", "")
        cleaned.setdefault("name", "")
        cleaned.setdefault("missed", "")
        cleaned.setdefault("reason", "")
        return cleaned


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
