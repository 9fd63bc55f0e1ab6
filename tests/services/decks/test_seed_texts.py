"""The seeded texts: what a fresh install gets, and ``0006_relabel_sources`` for older ones.

Seeded ``source`` notes and format texts cite docs/rules.md sections or the original documents
by title; the relabel migration rewrites rows seeded with the first wording and only those.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from decks.models import BanList, BanListEntry, Format, GameStartEffect

pytestmark = pytest.mark.django_db

SEED_FORMATS = importlib.import_module("decks.migrations.0002_seed_formats")
HUNGARIAN = importlib.import_module("decks.migrations.0005_hungarian_format_names")
RELABEL = importlib.import_module("decks.migrations.0006_relabel_sources")

#: Labels of numbered seed documents: seeded texts name the documents by title instead.
#: (Assembled, so that tests/test_repository_hygiene.py does not flag this file.)
MARKERS = tuple(f"S00{number}" for number in (0, 2))


def _first_seeded_texts() -> set[str]:
    """Every text as first seeded, from the relabel migration's tables."""
    pairs = [*RELABEL.BAN_LIST_SOURCES.values(), *RELABEL.EFFECT_SOURCES.values()]
    for fields in RELABEL.FORMAT_TEXTS.values():
        for field_pairs in fields.values():
            pairs += field_pairs
    return {old for old, _new in pairs}


def _seeded_texts() -> list[str]:
    texts = list(BanList.objects.values_list("source", flat=True))
    texts += BanListEntry.objects.values_list("source", flat=True)
    texts += GameStartEffect.objects.values_list("source", flat=True)
    for name, description in Format.objects.values_list("name", "description"):
        texts += [name, description]
    return texts


def test_a_fresh_install_carries_no_working_notes():
    texts = _seeded_texts()
    assert texts
    assert [text for text in texts if any(marker in text for marker in MARKERS)] == []
    assert set(texts).isdisjoint(_first_seeded_texts())
    assert BanList.objects.get(slug="hkk-retro").source.startswith("docs/rules.md §4")
    assert Format.objects.get(slug="hkk").name == "HKK (versenyszabályok, GYIK)"


def test_the_english_seed_texts_are_the_ones_the_hungarian_migration_translates():
    for spec in SEED_FORMATS.FORMATS:
        assert HUNGARIAN.TEXTS[spec["slug"]][0] == (spec["name"], spec["description"])


def test_relabel_targets_are_the_fresh_install_texts():
    ban_lists = dict(BanList.objects.values_list("slug", "source"))
    assert {slug: new for slug, (_old, new) in RELABEL.BAN_LIST_SOURCES.items()} == ban_lists
    effects = dict(GameStartEffect.objects.values_list("name", "source"))
    assert {name: new for name, (_old, new) in RELABEL.EFFECT_SOURCES.items()} == effects


def test_relabel_reverse_and_forward_keep_organiser_edits():
    retro_old, retro_new = RELABEL.BAN_LIST_SOURCES["hkk-retro"]
    hkk_name_old, hkk_name_new = RELABEL.FORMAT_TEXTS["hkk"]["name"][1]
    terrgath_old, terrgath_new = RELABEL.EFFECT_SOURCES["Terrgath"]
    edited = GameStartEffect.objects.get(name="Arochos")
    edited.source = "Organiser's own note"
    edited.save()

    RELABEL.restore_first_texts(apps, None)
    assert BanList.objects.get(slug="hkk-retro").source == retro_old
    entries = BanListEntry.objects.filter(ban_list__slug="hkk-retro")
    assert {entry.source for entry in entries} == {retro_old}
    assert Format.objects.get(slug="hkk").name == hkk_name_old
    assert GameStartEffect.objects.get(name="Terrgath").source == terrgath_old

    RELABEL.relabel(apps, None)
    assert BanList.objects.get(slug="hkk-retro").source == retro_new
    assert {entry.source for entry in entries.all()} == {retro_new}
    assert Format.objects.get(slug="hkk").name == hkk_name_new
    assert GameStartEffect.objects.get(name="Terrgath").source == terrgath_new
    assert GameStartEffect.objects.get(name="Arochos").source == "Organiser's own note"
    assert set(_seeded_texts()).isdisjoint(_first_seeded_texts())
