"""HKK game start through the database and ``POST /api/game-start/``.

The worked examples are those of the HKK FAQ on rule cards and first-player rights
(docs/rules.md §5 (HKK game start: opening hand and life points)): Életenergia (új) at the
opponent + Terrgath → 28 ÉP; Életenergia (új) + Sokszínűség → 30 ÉP; two A bőség zavara → 7
cards each; a pair with Sokszínűség → 27 ÉP each. The effect values come from the seeded,
organiser-editable rows.
"""

from __future__ import annotations

import csv
import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from decks.domain.game_start import Effect
from decks.errors import GameStartInputError
from decks.loaders.game_start import BUNDLED_EFFECTS_CSV, read_effects_csv
from decks.models import GameStartEffect
from decks.selectors.game_start_effects import effects_by_name
from decks.services.game_start import STEP_MESSAGES, WARNING_MESSAGES, game_start_compute

pytestmark = pytest.mark.django_db

URL = "/api/game-start/"
SEED = importlib.import_module("decks.migrations.0004_seed_game_start_effects")


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def side(*players):
    return {
        "players": [dict(zip(("name", "rule_card", "follower"), p, strict=False)) for p in players]
    }


def post(api, side_a, side_b, **extra):
    return api.post(URL, {"side_a": side_a, "side_b": side_b, **extra}, format="json")


def by_name(data):
    return {player["name"]: player for player in data["players"]}


# --- the FAQ's worked examples, through the API ------------------------------------------


def test_eletenergia_at_the_opponent_and_my_terrgath_give_28(api):
    response = post(api, side(("Anna", None, "Terrgath")), side(("Bence", "Életenergia (új)")))
    assert response.status_code == 200
    data = response.json()
    anna, bence = by_name(data)["Anna"], by_name(data)["Bence"]
    assert (anna["max_ep"], anna["start_ep"], anna["hand"]) == (28, 28, 4)
    assert (bence["max_ep"], bence["start_ep"], bence["hand"]) == (30, 30, 4)
    assert [line["code"] for line in anna["explanation"]] == [
        "base_hand",
        "follower_minus_one",
        "base_ep",
        "fixed_max_ep",
        "ep_change",
    ]
    texts = [line["text"] for line in anna["explanation"]]
    assert "“Életenergia (új)” sets the maximum ÉP to 30." in texts
    assert "“Terrgath”: -2 ÉP (maximum and starting)." in texts
    assert data["warnings"] == [] and data["complete"] is True


def test_eletenergia_and_sokszinuseg_give_30_the_larger_fixed_value(api):
    response = post(api, side(("Anna", "Életenergia (új)")), side(("Bence", "Sokszínűség")))
    assert response.status_code == 200
    players = by_name(response.json())
    assert players["Anna"]["max_ep"] == 30 and players["Anna"]["start_ep"] == 30
    assert players["Bence"]["max_ep"] == 30
    codes = [line["code"] for line in players["Bence"]["explanation"]]
    assert "fixed_max_ep_ignored" in codes


def test_two_a_boseg_zavara_give_7_cards_each_not_10(api):
    response = post(api, side(("Anna", "A bőség zavara")), side(("Bence", "A bőség zavara")))
    players = by_name(response.json())
    assert players["Anna"]["hand"] == 7
    assert players["Bence"]["hand"] == 7
    assert players["Anna"]["max_ep"] == 20


def test_pair_with_sokszinuseg_starts_at_27_each(api):
    response = post(
        api,
        side(("Anna", "Sokszínűség"), ("Anikó", "Sokszínűség")),
        side(("Bence", None, None), ("Bea", None, None)),
    )
    assert response.status_code == 200
    players = by_name(response.json())
    assert [players[n]["start_ep"] for n in ("Anna", "Anikó")] == [27, 27]
    assert [players[n]["max_ep"] for n in ("Bence", "Bea")] == [20, 20]
    assert [players[n]["hand"] for n in ("Anna", "Anikó", "Bence", "Bea")] == [4, 4, 5, 5]
    assert [p["side"] for p in response.json()["players"]] == ["a", "a", "b", "b"]


def test_arochos_starts_at_1_with_maximum_unchanged(api):
    response = post(api, side(("Anna", None, "Arochos")), side(("Bence",)))
    anna = by_name(response.json())["Anna"]
    assert (anna["start_ep"], anna["max_ep"]) == (1, 20)


def test_start_rule_hand_change_applies_to_every_player(api):
    response = post(api, side(("Anna",)), side(("Bence",)), start_rule_hand_change=-1)
    assert [p["hand"] for p in response.json()["players"]] == [4, 4]
    codes = [line["code"] for line in response.json()["players"][0]["explanation"]]
    assert "start_rule_hand_change" in codes


def test_pair_with_different_rule_cards_is_explained(api):
    response = post(
        api, side(("Anna", "Sokszínűség"), ("Anikó", "Életenergia (új)")), side(("Bence",))
    )
    codes = [line["code"] for line in response.json()["players"][0]["explanation"]]
    assert codes[0] == "pair_rule_cards_differ"


# --- organiser-editable data ---------------------------------------------------------------


def test_editing_an_effect_row_changes_the_result(api):
    row = GameStartEffect.objects.get(name="Terrgath")
    row.ep_change = -5
    row.save()
    response = post(api, side(("Anna", None, "Terrgath")), side(("Bence", "Életenergia (új)")))
    assert by_name(response.json())["Anna"]["max_ep"] == 25


def test_a_new_epic_follower_row_draws_5_and_loses_2_max_ep(api):
    GameStartEffect.objects.create(name="Próba Epikus", kind="epic_follower", scope="user")
    response = post(api, side(("Anna", "A bőség zavara", "próba  EPIKUS")), side(("Bence",)))
    anna = by_name(response.json())["Anna"]
    assert anna["hand"] == 8  # 5 (epic: no −1) + 3
    assert anna["max_ep"] == 18
    assert response.json()["warnings"] == []


def test_seeded_rows_match_the_bundled_csv():
    assert effects_by_name() == read_effects_csv()
    with open(BUNDLED_EFFECTS_CSV, encoding="utf-8", newline="") as handle:
        csv_sources = {row["name"]: row["source"] for row in csv.DictReader(handle)}
    # Values and source notes agree: the migrated rows, the seed migration and the CSV.
    assert dict(GameStartEffect.objects.values_list("name", "source")) == csv_sources
    assert {row[0]: row[-1] for row in SEED.ROWS} == csv_sources
    unknown = set(GameStartEffect.objects.filter(values_known=False).values_list("name", flat=True))
    assert unknown == {"Együgyű", "A fájdalom szépsége", "Lassan járj!", "Lépéselőny"}


def test_seed_migration_is_reversible():
    SEED.unseed(django_apps, None)
    assert not GameStartEffect.objects.exists()
    SEED.seed(django_apps, None)
    assert GameStartEffect.objects.count() == len(SEED.ROWS)
    assert effects_by_name()["terrgath"] == Effect(name="Terrgath", ep_change=-2, kind="follower")


def test_model_normalises_name_and_refuses_horde_hand_on_a_rule_card():
    row = GameStartEffect(name="  Új  Lap ", kind="rule_card", horde_hand=6)
    with pytest.raises(ValidationError):
        row.full_clean()
    row.horde_hand = None
    row.save()
    assert row.normalized_name == "új lap" and row.name == "Új  Lap"


def test_admin_lists_the_effects(client):
    admin = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(admin)
    url = reverse("admin:decks_gamestarteffect_changelist")
    response = client.get(url)
    assert response.status_code == 200
    assert "Életenergia (új)" in response.content.decode()


# --- warnings: never a silent pass ----------------------------------------------------------


def test_unknown_rule_card_and_follower_produce_warnings(api):
    response = post(api, side(("Anna", "Ősi rúna", "Valami ismeretlen")), side(("Bence",)))
    assert response.status_code == 200
    data = response.json()
    anna = by_name(data)["Anna"]
    assert anna["hand"] == 3 and anna["max_ep"] == 20
    assert [(w["code"], w["params"]["card"]) for w in data["warnings"]] == [
        ("rule_card_not_in_effects", "Ősi rúna"),
        ("follower_not_in_effects", "Valami ismeretlen"),
    ]
    assert data["warnings"][1]["params"]["kind"] == "follower"
    assert "is not in the game-start effects table" in data["warnings"][0]["text"]
    assert data["complete"] is False


def test_catalogue_horde_commander_without_effect_row_keeps_the_base_hand(catalogue, api):
    response = post(api, side(("Anna", "Ősi rúna", "Arochos (2020)")), side(("Bence",)))
    data = response.json()
    anna = by_name(data)["Anna"]
    assert anna["hand"] == 5
    assert "horde_hand_unknown" in [line["code"] for line in anna["explanation"]]
    warning = data["warnings"][1]
    assert warning["code"] == "follower_not_in_effects"
    assert warning["params"]["kind"] == "horde_commander"
    assert "horde commander" in warning["text"]


def test_effect_with_unknown_values_says_which_values(api):
    response = post(api, side(("Anna", "Együgyű")), side(("Bence", "Együgyű")))
    data = response.json()
    assert len(data["warnings"]) == 1  # the same card of two players is reported once
    warning = data["warnings"][0]
    assert warning["code"] == "values_unknown"
    assert warning["params"] == {
        "card": "Együgyű",
        "values": ["fixed_max_ep", "ep_change", "hand_change", "start_ep"],
    }
    assert "fixed maximum ÉP, ÉP change, hand change, starting ÉP" in warning["text"]
    assert data["complete"] is False


def test_card_declared_in_the_wrong_slot_is_reported(api):
    response = post(api, side(("Anna", "Terrgath")), side(("Bence",)))
    warning = response.json()["warnings"][0]
    assert warning["code"] == "kind_mismatch"
    assert warning["text"] == (
        "“Terrgath” is a follower in the game-start effects table, but it was declared as "
        "the rule card."
    )


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"side_b": {"players": [{"name": "B"}]}}, "side_a"),
        ({"side_a": {"players": []}, "side_b": {"players": [{"name": "B"}]}}, "side_a"),
        (
            {
                "side_a": {"players": [{"name": "A"}, {"name": "A2"}, {"name": "A3"}]},
                "side_b": {"players": [{"name": "B"}]},
            },
            "side_a",
        ),
        (
            {"side_a": {"players": [{"rule_card": "X"}]}, "side_b": {"players": [{"name": "B"}]}},
            "side_a",
        ),
        (
            {
                "side_a": {"players": [{"name": "A"}]},
                "side_b": {"players": [{"name": "B"}]},
                "start_rule_hand_change": 50,
            },
            "start_rule_hand_change",
        ),
        ({"side_a": "Anna", "side_b": {"players": [{"name": "B"}]}}, "side_a"),
    ],
)
def test_bad_shape_is_400_naming_the_field(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert field in {name.split(".")[0] for name in response.json()["error"]["fields"]}


def test_duplicate_player_name_is_400_with_a_clear_message(api):
    response = post(api, side(("Anna",)), side(("Anna",)))
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "duplicate_player_name",
        "message": "Player name used twice: Anna.",
        "fields": {},
        "params": {"names": ["Anna"]},
    }


def test_not_json_is_400(api):
    response = api.post(URL, "not json", content_type="application/json")
    assert response.status_code == 400


def test_service_rejects_bad_input_without_the_api():
    with pytest.raises(GameStartInputError) as caught:
        game_start_compute(side_a=[], side_b=[{"name": "B"}])
    assert caught.value.code == "bad_side_size"
    with pytest.raises(GameStartInputError):
        game_start_compute(side_a=[{"name": " "}], side_b=[{"name": "B"}])
    with pytest.raises(GameStartInputError):
        game_start_compute(
            side_a=[{"name": "A"}], side_b=[{"name": "B"}], start_rule_hand_change=11
        )


def test_schema_lists_the_endpoint(api):
    response = api.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    operation = schema["paths"]["/api/game-start/"]["post"]
    assert operation["operationId"] == "game_start_compute"


def test_every_calculator_step_code_has_a_message():
    documented = {
        "base_hand", "rule_card_minus_one", "follower_minus_one", "epic_follower_hand",
        "horde_commander_hand", "horde_hand_unknown", "not_working_at_start", "hand_change",
        "start_rule_hand_change", "base_ep", "fixed_max_ep", "fixed_max_ep_ignored", "ep_change",
        "epic_follower_max_ep", "start_ep", "pair_rule_cards_differ",
    }  # fmt: skip
    assert set(STEP_MESSAGES) == documented
    assert set(WARNING_MESSAGES) == {
        "rule_card_not_in_effects",
        "follower_not_in_effects",
        "values_unknown",
        "kind_mismatch",
    }
