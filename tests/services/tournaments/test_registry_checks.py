"""The start-up system check reports drift between the registries and the stored data, and
the model and form choices derive from the registries (labels translated, no raw codes)."""

from __future__ import annotations

import pytest
from django.core.checks import Error
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.utils import translation

from decks.models import Format
from tests.factories import FormatFactory, GameFactory, make_tournament
from tournaments.checks import registry_drift
from tournaments.domain.first_player_policies import POLICIES
from tournaments.domain.games import GAMES
from tournaments.domain.standings import TIEBREAKERS
from tournaments.models import Tournament
from tournaments.pages.organiser_forms import TournamentCreateForm

pytestmark = pytest.mark.django_db


def _ids(errors: list) -> list[str]:
    return [str(e.id) for e in errors if isinstance(e, Error)]


def test_the_seeded_data_and_the_registries_agree():
    make_tournament(decks=False)
    assert registry_drift() == []
    call_command("check")  # does not raise


def test_a_tournament_naming_an_unregistered_policy_or_tiebreaker_fails_the_check():
    t, _ = make_tournament(decks=False)
    structure = t.match_structure
    Tournament.objects.filter(pk=t.pk).update(
        match_structure={**structure, "policy": "chess_clock"}
    )
    assert _ids(registry_drift()) == ["tournaments.E002"]
    Tournament.objects.filter(pk=t.pk).update(match_structure={})
    assert _ids(registry_drift()) == ["tournaments.E002"]
    Tournament.objects.filter(pk=t.pk).update(
        match_structure=structure, tiebreakers=["buchholz", "sonneborn_berger"]
    )
    errors = registry_drift()
    assert _ids(errors) == ["tournaments.E002"] and "sonneborn_berger" in errors[0].msg
    with pytest.raises(SystemCheckError, match="tournaments.E002"):
        call_command("check")


def test_a_format_of_a_game_without_an_entry_fails_the_check():
    FormatFactory(slug="chess-rapid", game=GameFactory(slug="chess", name="Chess"))
    errors = registry_drift()
    assert _ids(errors) == ["tournaments.E003"]
    assert "'chess-rapid'" in errors[0].msg and "'chess'" in errors[0].msg


def test_a_format_with_an_invalid_structure_or_policy_fails_the_check():
    Format.objects.filter(slug="hkk").update(
        match_structure={"policy": "hkk", "games_per_match": 7, "ends_when_decided": False}
    )
    assert _ids(registry_drift()) == ["tournaments.E003"]
    Format.objects.filter(slug="hkk").update(
        match_structure={"policy": "coin_flip", "games_per_match": 1, "ends_when_decided": True}
    )
    assert _ids(registry_drift()) == ["tournaments.E003"]


def test_an_entry_without_its_label_fails_the_check(monkeypatch):
    monkeypatch.setitem(
        POLICIES,
        "hkk",
        POLICIES["hkk"].__class__(
            **{**{f: getattr(POLICIES["hkk"], f) for f in POLICIES["hkk"].__slots__}, "label": ""}
        ),
    )
    assert "tournaments.E001" in _ids(registry_drift())


def test_a_game_naming_an_unknown_tiebreaker_fails_the_check(monkeypatch):
    game = GAMES["wow"]
    monkeypatch.setitem(
        GAMES, "wow", game.__class__(game.code, game.label, game.structure, ("nope",), 8)
    )
    assert "tournaments.E001" in _ids(registry_drift())


def test_the_create_form_shows_labels_not_codes():
    with translation.override("en"):
        form = TournamentCreateForm(format_choices=[("hkk", "HKK")])
        policies = dict(form.fields["first_player_policy"].choices)
        tiebreakers = dict(form.fields["tiebreaker_1"].choices)
    for code, policy in POLICIES.items():
        assert policies[code] == policy.label and policies[code] != code
    assert policies["wow"] == "WoW TCG: the die roll winner chooses"
    assert policies["blue_moon"] == "Blue Moon: the die roll winner chooses"
    for code, tb in TIEBREAKERS.items():
        assert tiebreakers[code] == tb.label
