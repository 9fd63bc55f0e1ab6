"""Admin: read-mostly views of tournaments for staff. Changes to rounds and results belong in
the services (they keep history and check the rules), so those models are read-only here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from decks.admin import FormatAdmin as DecksFormatAdmin
from decks.admin_forms import FormatAdminForm
from decks.models import Format
from tournaments.domain.match_structure import InvalidStructure, MatchStructure
from tournaments.models import (
    DeckCheck,
    DeckSubmission,
    Entry,
    EntryMember,
    Game,
    GameCorrection,
    Match,
    PairingChange,
    Player,
    ResultReport,
    Round,
    StaffRole,
    StandingsSnapshot,
    Tournament,
)
from tournaments.selectors.match_structure import structure_error_message


class ReadOnlyAdmin(admin.ModelAdmin):
    """No add/change/delete: history must only be written through the services."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Players: edit the display name, the linked user account (raw id) and the e-mail; search by
    name or e-mail.
    """

    list_display = ["display_name", "user", "email", "created_at"]
    search_fields = ["display_name", "email"]
    raw_id_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Tournaments: edit the settings (name, format, kind, scoring, owner …); ``status`` and the
    start, lock and finish times are read-only, since only the services change the state.
    """

    list_display = ["name", "format", "kind", "status", "planned_rounds", "created_at"]
    list_filter = ["status", "kind", "format"]
    search_fields = ["name"]
    raw_id_fields = ["owner"]
    readonly_fields = ["status", "lists_locked_at", "started_at", "finished_at"]


class EntryMemberInline(admin.TabularInline):
    """The seats (A/B) of an entry with their players, shown on the entry page (read-only there,
    as :class:`EntryAdmin` allows no changes).
    """

    model = EntryMember
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["tournament"]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    """Entries of every tournament with their members, read-only (registrations, drops and
    overrides go through the services); filter by tournament, search by name.
    """

    list_display = ["name", "tournament", "registered_round", "dropped_after_round"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    inlines = [EntryMemberInline]


@admin.register(DeckSubmission)
class DeckSubmissionAdmin(ReadOnlyAdmin):
    """Every stored deck-list version, read-only; filter by legality, lock and current version."""

    list_display = ["member", "version", "legal", "rule_card", "is_current", "locked"]
    list_filter = ["legal", "locked", "is_current"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    """Rounds with status, seed and pair-down count, read-only (pairing, publishing and finishing go
    through the services).
    """

    list_display = ["tournament", "number", "status", "seed", "pair_downs"]
    list_filter = ["status"]


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    """Matches (round, table, both entries), read-only."""

    list_display = ["round", "table", "entry_a", "entry_b"]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    """Recorded games with right holder, waiver, first player, winner and version, read-only
    (corrections go through ``services.game_record`` and keep their history).
    """

    list_display = [
        "match",
        "number",
        "right_holder",
        "waived",
        "first",
        "winner",
        "is_draw",
        "version",
    ]


admin.site.register(GameCorrection, ReadOnlyAdmin)
admin.site.register(PairingChange, ReadOnlyAdmin)
admin.site.register(StandingsSnapshot, ReadOnlyAdmin)


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    """Co-organisers and judges (the owner appoints them in the app; a superuser may fix a
    mistake here)."""

    list_display = ["tournament", "user", "role", "appointed_by", "appointed_at"]
    list_filter = ["role"]
    search_fields = ["tournament__name", "user__username"]
    raw_id_fields = ["tournament", "user", "appointed_by"]


@admin.register(ResultReport)
class ResultReportAdmin(ReadOnlyAdmin):
    """Players' result reports with status, reporter and resolver, read-only; filter by status."""

    list_display = ["match", "entry", "reported_by", "status", "created_at", "resolved_by"]
    list_filter = ["status"]


@admin.register(DeckCheck)
class DeckCheckAdmin(ReadOnlyAdmin):
    """Deck checks with outcome, penalty and checker, read-only; filter by outcome, penalty and
    random pick.
    """

    list_display = ["round", "entry", "random_pick", "outcome", "penalty", "checked_by"]
    list_filter = ["outcome", "penalty", "random_pick"]


class FormatMatchStructureForm(FormatAdminForm):
    """The decks format form (with its edition policy fields) plus the ``match_structure`` JSON
    checked by ``MatchStructure.from_dict`` (docs/rules.md §6 (HKK first-player rights), §11
    (WoW TCG matches and first player), §13 (Blue Moon matches)); ``{}`` keeps the game's
    default."""

    def clean_match_structure(self) -> Any:
        data = self.cleaned_data.get("match_structure")
        if not data:
            return {}
        if not isinstance(data, dict):
            raise forms.ValidationError(_("Enter an object describing the match structure."))
        try:
            return MatchStructure.from_dict(data).to_dict()
        except InvalidStructure as exc:
            raise forms.ValidationError(structure_error_message(exc), code=exc.code) from None


# The format admin lives in decks (decks never imports tournaments); the match structure it
# stores is a tournaments concept, so its check is added here.
admin.site.unregister(Format)


@admin.register(Format)
class FormatAdmin(DecksFormatAdmin):
    """:class:`decks.admin.FormatAdmin` with the match structure validated."""

    form = FormatMatchStructureForm
