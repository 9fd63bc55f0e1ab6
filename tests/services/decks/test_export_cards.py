"""``export_cards`` → empty database → ``import_cards`` gives the same catalogue."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from decks import models

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

CARD_FIELDS = (
    "external_id",
    "name",
    "normalized_name",
    "kind",
    "types",
    "colours",
    "colours_unknown",
    "class_icons",
    "faction",
    "hero_traits",
    "requires",
    "unlimited",
    "rarity",
    "copy_group",
    "attributes",
)
EDITION_FIELDS = (
    "code",
    "name",
    "released",
    "released_after",
    "released_before",
    "block",
    "block_order",
    "group",
    "kind",
)


def snapshot(game: str) -> tuple[dict, dict, tuple]:
    cards = {
        c.external_id: (
            tuple(getattr(c, f) for f in CARD_FIELDS),
            tuple(sorted(c.editions.values_list("code", flat=True))),
        )
        for c in models.Card.objects.filter(game__slug=game).prefetch_related("editions")
    }
    editions = {
        e.code: tuple(getattr(e, f) for f in EDITION_FIELDS)
        for e in models.Edition.objects.filter(game__slug=game)
    }
    g = models.Game.objects.get(slug=game)
    return cards, editions, (g.coverage, g.catalogue_source)


@pytest.mark.parametrize("game", ["hkk", "wow", "bluemoon"])
def test_export_then_import_into_an_empty_database_is_lossless(game, tmp_path):
    card = models.Card.objects.filter(game__slug=game).first()
    card.copy_group = "organiser group"  # a judge's edit survives the round trip
    card.unlimited = True
    card.save()
    before = snapshot(game)
    path = tmp_path / f"{game}.json"
    call_command("export_cards", game, str(path), stdout=io.StringIO())

    models.Card.objects.filter(game__slug=game).delete()
    models.Edition.objects.filter(game__slug=game).delete()
    models.Game.objects.filter(slug=game).update(coverage="complete", catalogue_source="")
    assert snapshot(game)[0] == {}

    out = io.StringIO()
    with translation.override("en"):
        call_command("import_cards", game, str(path), stdout=out)
    assert f"{len(before[0])} created" in out.getvalue()
    assert snapshot(game) == before


def test_an_export_of_another_game_is_refused(tmp_path):
    path = tmp_path / "wow.json"
    call_command("export_cards", "wow", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError) as caught:
        call_command("import_cards", "hkk", str(path), stdout=io.StringIO())
    assert caught.value.returncode == 2
    assert "not 'hkk'" in str(caught.value)


def test_export_of_an_unknown_game_exits_2(tmp_path):
    with pytest.raises(CommandError) as caught:
        call_command("export_cards", "nope", str(tmp_path / "x.json"), stdout=io.StringIO())
    assert caught.value.returncode == 2
