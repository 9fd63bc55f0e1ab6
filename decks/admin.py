"""Admin for the card catalogue, formats and ban lists (organiser-editable data)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from decks.models import (
    BanList,
    BanListEntry,
    Card,
    CatalogueVersion,
    Edition,
    Format,
    Game,
    GameStartEffect,
)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Card games (slug and name); search by either."""

    list_display = ["slug", "name"]
    search_fields = ["slug", "name"]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    """Editions / sets of a game (source code and name); filter by game, search by code or name."""

    list_display = ["code", "name", "game"]
    list_filter = ["game"]
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
    """Formats: rule set, deck-size, sideboard, copy and colour limits, defaults for tournaments and
    the active flag; ban lists are attached in :class:`FormatBanListInline`.
    """

    list_display = ["name", "slug", "game", "rule_set", "min_main", "copy_limit", "is_active"]
    list_filter = ["game", "rule_set", "is_active"]
    search_fields = ["name", "slug"]
    exclude = ["ban_lists"]
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
