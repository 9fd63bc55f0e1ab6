"""Seed the formats' edition policies and the HKK catalogue's coverage.

- ``hkk-retro``: cards released before April 2000 plus the Túlélők Földje retro reprints
  (``decks.domain.editions.HKK_RETRO``; docs/rules.md §4 (HKK formats and ban lists (Retró,
  TM, Páros))).
- WoW TCG Classic (every set), Core (the last three blocks, counted back from Scourgewar, the
  newest block of the bundled card data) and Block (Scourgewar), as the domain presets
  ``WOW_CLASSIC``, ``wow_core`` and ``wow_block`` (docs/rules.md §10 (WoW TCG formats and ban
  lists)); each copies the deck rules of ``wow-constructed`` and gets the seeded match
  structure (Core: best of one).
- The bundled HKK catalogue is a sample: coverage ``partial`` (docs/rules.md §17 (Card data
  sources and coverage)).
"""

import importlib

from django.db import migrations

#: The match structure seeded per format (WoW TCG Core is best of one, docs/rules.md §11).
structure_for = importlib.import_module("decks.migrations.0008_seed_match_structures").structure_for

RETRO_PARAMS = {"editions_released_before": "2000-04-01", "extra_legal_editions": ["247"]}

WOW_FORMATS = [
    ("wow-classic", "WoW TCG Classic", "Every set (docs/rules.md §10).", {}),
    (
        "wow-core",
        "WoW TCG Core",
        "The last three blocks (docs/rules.md §10).",
        {"last_blocks": 3, "last_blocks_as_of": "Scourgewar"},
    ),
    (
        "wow-block",
        "WoW TCG Block (Scourgewar)",
        "The sets of one block (docs/rules.md §10).",
        {"legal_blocks": ["Scourgewar"]},
    ),
]

COPIED = (
    "rule_set",
    "min_main",
    "max_main",
    "sideboard_mode",
    "sideboard_size",
    "copy_limit",
    "colour_limit",
    "colours_not_counted",
    "first_player_policy",
    "games_per_match",
    "default_tiebreakers",
)

HKK_SOURCE = "bundled sample + tournament usage statistics (decks/data/hkk)"


def seed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    Game = apps.get_model("decks", "Game")
    retro = Format.objects.filter(slug="hkk-retro").first()
    if retro is not None:
        retro.params = {**(retro.params or {}), **RETRO_PARAMS}
        retro.save(update_fields=["params"])
    base = Format.objects.filter(slug="wow-constructed").first()
    if base is not None:
        for slug, name, description, params in WOW_FORMATS:
            # Run against a later model state (the browser tests replay this seed), the columns
            # dropped since (0014_drop_format_structure_mirror_columns) are left out.
            known = {f.name for f in Format._meta.get_fields()}
            values = {field: getattr(base, field) for field in COPIED if field in known}
            structure = structure_for("wow", slug)
            if structure is not None:
                values["match_structure"] = dict(structure)
                if "games_per_match" in known:
                    values["games_per_match"] = structure["games_per_match"]
            Format.objects.get_or_create(
                slug=slug,
                defaults={
                    **values,
                    "game_id": base.game_id,
                    "name": name,
                    "description": description,
                    "params": params,
                },
            )
    Game.objects.filter(slug="hkk").update(coverage="partial", catalogue_source=HKK_SOURCE)


def unseed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    Game = apps.get_model("decks", "Game")
    Format.objects.filter(slug__in=[slug for slug, *_rest in WOW_FORMATS]).delete()
    retro = Format.objects.filter(slug="hkk-retro").first()
    if retro is not None:
        retro.params = {k: v for k, v in (retro.params or {}).items() if k not in RETRO_PARAMS}
        retro.save(update_fields=["params"])
    Game.objects.filter(slug="hkk").update(coverage="complete", catalogue_source="")


class Migration(migrations.Migration):
    dependencies = [("decks", "0009_edition_dates_coverage_sync_runs")]

    operations = [migrations.RunPython(seed, unseed)]
