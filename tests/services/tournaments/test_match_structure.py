"""The match structure as data: validated in the format admin, copied onto a new tournament
with the organiser's overrides, and folded from the former mirror columns by a migration
(docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player), §13 (Blue
Moon matches))."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from decks.models import Format
from hkk_tournament.errors import ValidationFailed
from tests.factories import ensure_format
from tournaments import services
from tournaments.admin import FormatMatchStructureForm
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SEED = importlib.import_module("decks.migrations.0008_seed_match_structures")
CRYSTALS = importlib.import_module("decks.migrations.0011_blue_moon_crystals_and_base_game_format")


def _admin_form(structure) -> FormatMatchStructureForm:
    fmt = Format.objects.get(slug="wow-constructed")
    data = {
        field: getattr(fmt, field)
        for field in (
            "slug",
            "name",
            "rule_set",
            "sideboard_mode",
            "sideboard_size",
            "min_main",
            "copy_limit",
        )
        if getattr(fmt, field) is not None
    }
    data.update(
        game=fmt.game_id,
        colours_not_counted="[]",
        params="{}",
        default_tiebreakers="[]",
        match_structure=structure,
        is_active=True,
    )
    return FormatMatchStructureForm(data, instance=fmt)


def test_admin_form_checks_the_structure_with_the_domain():
    form = _admin_form('{"policy": "hkk", "games_per_match": 5, "ends_when_decided": false}')
    with translation.override("hu"):
        assert not form.is_valid()
    assert form.errors["match_structure"][0].startswith("A(z) hkk szabály legfeljebb 3")
    form = _admin_form('{"policy": "wow", "games_per_match": 1, "ends_when_decided": true}')
    assert form.is_valid(), form.errors
    assert form.cleaned_data["match_structure"]["later_games"] is None
    assert not _admin_form('{"policy": "wow", "games": 3}').is_valid()


def test_seeded_formats_follow_the_sources():
    structures = dict(Format.objects.values_list("slug", "match_structure"))
    assert structures["hkk"] == SEED.HKK and structures["hkk-paros"] == SEED.HKK
    assert structures["wow-constructed"] == SEED.WOW_BEST_OF_THREE
    # Blue Moon: 7 crystals with Emissaries and Inquisitors, 4 in the base game.
    assert SEED.BLUE_MOON == CRYSTALS.SEEDED_BASE
    assert structures["bluemoon-advanced"] == structures["bluemoon-people"]
    assert structures["bluemoon-advanced"] == {**SEED.BLUE_MOON, "game_score_max": 7}
    assert structures["bluemoon-people-basic"] == SEED.BLUE_MOON
    params = Format.objects.get(slug="bluemoon-people-basic").params
    assert params["allow_emissary"] is False
    assert SEED.structure_for("wow", "wow-core") == SEED.WOW_BEST_OF_ONE


def _create(format_slug: str, **settings) -> Tournament:
    return services.tournament_create(
        owner=None,
        name="x",
        format_slug=format_slug,
        settings=services.TournamentSettings(**settings),
    )


def test_overrides_on_creation():
    t = _create("wow-constructed", first_player_policy="loser_chooses")
    assert t.match_structure["policy"] == "loser_chooses"
    assert t.match_structure["later_games"] is None
    t = _create("hkk", ends_when_decided=True)
    assert t.structure.ends_when_decided and t.structure.games_per_match == 3
    with pytest.raises(ValidationFailed) as exc:
        _create("hkk", games_per_match=5)
    assert exc.value.code == "invalid_value" and exc.value.params["max"] == 3


@pytest.mark.django_db(transaction=True)
def test_migration_folds_the_mirror_columns_into_the_structure_and_back():
    """0016 writes the structure of a tournament that stored none from the former mirror
    columns (a stored structure wins), 0017 drops them; the reverse writes them back."""
    try:
        _fold_and_back()
    finally:  # whatever failed, later tests get the current schema back
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def _fold_and_back() -> None:
    before = [("tournaments", "0015_game_details_reported")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tournaments", "Tournament")
    fmt = ensure_format("hkk")  # a transactional test before this one may have flushed the seed
    bare = old.objects.create(
        name="old",
        format_id=fmt.pk,
        first_player_policy="loser_chooses",
        games_per_match=3,
        stop_at_two_wins=True,
        match_structure={},
    )
    kept = old.objects.create(
        name="kept",
        format_id=fmt.pk,
        first_player_policy="wow",
        games_per_match=1,
        match_structure={"policy": "hkk", "games_per_match": 3, "ends_when_decided": False},
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    structure = Tournament.objects.get(pk=bare.pk).structure
    assert (structure.policy, structure.games_per_match, structure.ends_when_decided) == (
        "loser_chooses",
        3,
        True,
    )
    assert Tournament.objects.get(pk=kept.pk).structure.policy == "hkk"
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tournaments", "Tournament")
    back = old.objects.get(pk=kept.pk)
    assert (back.first_player_policy, back.games_per_match, back.stop_at_two_wins) == (
        "hkk",
        3,
        False,
    )
