"""Admin for the card catalogue, formats and ban lists (organiser-editable data)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from decks.admin_forms import FormatAdminForm
from decks.models import (
    BanList,
    BanListEntry,
    Card,
    CatalogueSyncRun,
    CatalogueVersion,
    Edition,
    Format,
    Game,
    GameStartEffect,
)
from decks.services.publisher_sync import catalogue_sync_run_start
from hkk_tournament.errors import ApplicationError, error_message


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Card games with their catalogue coverage; the action "Sync the card catalogue from the
    publisher" starts a background sync (progress under "Catalogue syncs"). docs/rules.md §17
    (Card data sources and coverage)."""

    list_display = ["slug", "name", "coverage", "last_synced_at"]
    search_fields = ["slug", "name"]
    readonly_fields = ["last_synced_at"]
    actions = ["sync_from_publisher"]

    @admin.action(
        description=_("Sync the card catalogue from the publisher"),
        permissions=["change"],
    )
    def sync_from_publisher(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            try:
                run = catalogue_sync_run_start(game=game, requested_by=request.user)
            except ApplicationError as exc:
                self.message_user(request, error_message(exc), messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Sync of %(game)s started (run %(run)s).") % {"game": game, "run": run.pk},
                    messages.SUCCESS,
                )


@admin.register(CatalogueSyncRun)
class CatalogueSyncRunAdmin(admin.ModelAdmin):
    """Publisher syncs and their progress (requests done / planned, status, message);
    read-only: start one with the action on the games list."""

    list_display = [
        "game",
        "status",
        "requests_done",
        "requests_total",
        "created_at",
        "finished_at",
        "requested_by",
    ]
    list_filter = ["game", "status"]
    readonly_fields = [
        "game",
        "status",
        "requests_done",
        "requests_total",
        "message",
        "requested_by",
        "created_at",
        "finished_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    """Editions / sets of a game: code, name, release date (or bounds) and WoW block, which
    formats' edition policies read; filter by game, search by code or name."""

    list_display = ["code", "name", "game", "released", "block"]
    list_filter = ["game", "block"]
    search_fields = ["code", "name"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    """The card catalogue: identity, kind and rarity, the deck-building facts and the editions
    (``normalized_name`` and the timestamps are read-only); filter by game, kind, rarity,
    unlimited and unknown colours.
    """

    list_display = ["name", "external_id", "game", "kind", "rarity", "unlimited"]
    list_filter = ["game", "kind", "rarity", "unlimited", "colours_unknown"]
    search_fields = ["name", "normalized_name", "external_id", "copy_group"]
    readonly_fields = ["normalized_name", "created_at", "updated_at"]
    autocomplete_fields = ["editions"]
    list_select_related = ["game"]
    fieldsets = [
        (None, {"fields": ["game", "external_id", "name", "normalized_name", "kind", "rarity"]}),
        (
            _("Deck-building facts"),
            {
                "fields": [
                    "types",
                    "colours",
                    "colours_unknown",
                    "class_icons",
                    "faction",
                    "hero_traits",
                    "requires",
                    "unlimited",
                    "copy_group",
                    "attributes",
                ]
            },
        ),
        (_("Editions"), {"fields": ["editions"]}),
        (_("History"), {"fields": ["created_at", "updated_at"]}),
    ]


class BanListEntryInline(admin.TabularInline):
    """The cards of a ban list on its page: printed name, kind (banned or sideboard only), the
    effective dates, the matched card (raw id) and the source.
    """

    model = BanListEntry
    extra = 1
    fields = ["card_name", "kind", "effective_from", "effective_until", "card", "source"]
    raw_id_fields = ["card"]


@admin.register(BanList)
class BanListAdmin(admin.ModelAdmin):
    """Ban lists of a game with their entries inline (slug filled from the name); search by name,
    slug or a listed card name.
    """

    list_display = ["name", "slug", "game", "updated_at"]
    list_filter = ["game"]
    search_fields = ["name", "slug", "entries__card_name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [BanListEntryInline]


class FormatBanListInline(admin.TabularInline):
    """The ban lists a format uses (the ``Format.ban_lists`` link rows), on the format's page."""

    model = Format.ban_lists.through
    extra = 1
    verbose_name = _("ban list")
    verbose_name_plural = _("ban lists")


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin):
    """Formats: rule set, deck-size, sideboard, copy and colour limits, defaults for tournaments,
    the active flag and the legal editions (:class:`decks.admin_forms.FormatAdminForm`); ban
    lists are attached in :class:`FormatBanListInline`.
    """

    form = FormatAdminForm
    list_display = ["name", "slug", "game", "rule_set", "min_main", "copy_limit", "is_active"]
    list_filter = ["game", "rule_set", "is_active"]
    search_fields = ["name", "slug"]
    inlines = [FormatBanListInline]


@admin.register(CatalogueVersion)
class CatalogueVersionAdmin(admin.ModelAdmin):
    """The catalogue version counter, read-only (bumped by every catalogue change); it cannot be
    added or deleted here.
    """

    list_display = ["version", "changed_at"]
    readonly_fields = ["version", "changed_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameStartEffect)
class GameStartEffectAdmin(admin.ModelAdmin):
    """Organiser-editable rule card / follower effects used by the game-start calculator."""

    list_display = [
        "name",
        "kind",
        "scope",
        "fixed_max_ep",
        "ep_change",
        "hand_change",
        "start_ep",
        "horde_hand",
        "works_at_start",
        "values_known",
    ]
    list_filter = ["kind", "scope", "values_known", "works_at_start"]
    search_fields = ["name", "normalized_name", "source"]
    readonly_fields = ["normalized_name", "updated_at"]
