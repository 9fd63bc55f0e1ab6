"""Full matches of each format through the REST API: the die roll, the HKK game-3 re-roll
agreement before and after the roll, waivers and choices of who starts, the early end of a
best-of-three at 2–0, drawn games and the Blue Moon crystal score (docs/rules.md §6 (HKK
first-player rights), §11 (WoW TCG matches and first player), §13 (Blue Moon matches))."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.tournaments.helpers import url
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Game, Match, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def _event(owner, format_slug: str) -> tuple[Tournament, Match]:
    t, _ = make_tournament(entries=2, decks=False, owner=owner, format_slug=format_slug)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    )
    return t, rnd.matches.get()


def _post(api, t, m, suffix: str, body: dict[str, Any]):
    return api.post(url(t, f"matches/{m.pk}/{suffix}"), body, content_type="application/json")


def _error(r, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.json()
    body = r.json()["error"]
    assert set(body) == {"code", "message", "fields", "params"}
    assert body["code"] == code
    return body


def _game(api, t, m, **body: Any):
    return _post(api, t, m, "games/", body)


# --- HKK -----------------------------------------------------------------------------------


def test_hkk_match_with_the_reroll_agreed_before_the_roll(api, owner):
    t, m = _event(owner, "hkk")
    a, b = m.entry_a_id, m.entry_b_id
    r = _post(api, t, m, "reroll-agreement/", {"agreed": True})
    assert r.status_code == 200 and r.json()["reroll_game3_agreed"] is True
    body = _post(api, t, m, "die-roll/", {"winner": b}).json()
    assert body["die_roll_winner"] == b and body["reroll_game3_agreed"] is True
    assert body["policy"]["code"] == "hkk"
    assert (body["policy"]["source"], body["policy"]["section"]) == ("HKK GYIK", 6)
    assert body["next_right"] == {**body["next_right"], "holder": b, "mode": "holds_right"}
    # Game 1: player 1 (B) waives, A goes first and wins.
    r = _game(api, t, m, number=1, winner=a, first=a, waived=True)
    assert r.status_code == 201, r.json()
    g1 = r.json()["game"]
    assert (g1["right_holder"], g1["waived"], g1["chosen_by"]) == (b, True, None)
    # Game 2 belongs to player 2 (A) even though B waived game 1; a drawn game.
    assert r.json()["match"]["next_right"]["holder"] == a
    r = _game(api, t, m, number=2, winner=None, first=a)
    assert r.status_code == 201 and r.json()["game"]["is_draw"]
    # Game 3: the agreed new roll decides.
    assert r.json()["match"]["next_right"]["needs_roll"] is True
    _error(_game(api, t, m, number=3, winner=a, first=a), 400, "roll_not_recorded")
    r = _post(api, t, m, "game3-roll/", {"winner": a})
    assert r.status_code == 200 and r.json()["next_right"]["holder"] == a
    r = _game(api, t, m, number=3, winner=b, first=a)
    assert r.status_code == 201, r.json()
    match = r.json()["match"]
    assert (match["a_wins"], match["b_wins"], match["draws"], match["complete"]) == (1, 1, 1, True)


def test_hkk_agreement_after_the_roll_is_refused_with_409(api, owner):
    t, m = _event(owner, "hkk")
    a, b = m.entry_a_id, m.entry_b_id
    assert _post(api, t, m, "die-roll/", {"winner": a}).status_code == 200
    body = _error(
        _post(api, t, m, "reroll-agreement/", {"agreed": True}), 409, "reroll_agreement_too_late"
    )
    # Hungarian is the default language.
    assert body["message"] == (
        "A 3. játszma újradobásáról az 1. játszma kockadobása előtt kell megállapodni."
    )
    r = api.post(
        url(t, f"matches/{m.pk}/reroll-agreement/"),
        {"agreed": True},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert r.json()["error"]["message"] == (
        "A new roll for game 3 must be agreed before the game-1 die roll."
    )
    # Nor may a corrected roll smuggle the agreement in.
    _error(
        _post(api, t, m, "die-roll/", {"winner": b, "reroll_game3_agreed": True}),
        409,
        "reroll_agreement_too_late",
    )
    m.refresh_from_db()
    assert (m.die_roll_winner_id, m.reroll_game3_agreed) == (a, False)
    # A plain correction of the roll is still possible before game 1.
    assert _post(api, t, m, "die-roll/", {"winner": b}).json()["die_roll_winner"] == b


def test_hkk_plays_game_three_at_two_nil(api, owner):
    t, m = _event(owner, "hkk")
    a, b = m.entry_a_id, m.entry_b_id
    _post(api, t, m, "die-roll/", {"winner": a})
    assert _game(api, t, m, number=1, winner=a, first=a).status_code == 201
    assert _game(api, t, m, number=2, winner=a, first=b).status_code == 201
    r = _game(api, t, m, number=3, winner=b, first=a)
    assert r.status_code == 201, r.json()
    assert r.json()["match"]["match_points"] == {str(a): 3, str(b): 0}
    _error(_game(api, t, m, number=4, winner=b, first=a), 409, "match_complete")


def test_hkk_correction_keeps_history_with_its_reason(api, owner):
    t, m = _event(owner, "hkk")
    a, b = m.entry_a_id, m.entry_b_id
    _post(api, t, m, "die-roll/", {"winner": a})
    _game(api, t, m, number=1, winner=a, first=a)
    r = _game(
        api, t, m, number=1, winner=b, first=b, waived=True, correction=True, reason="slip misread"
    )
    assert r.status_code == 200 and r.json()["game"]["version"] == 2
    correction = Game.objects.get(match=m, number=1).corrections.get()
    assert correction.reason == "slip misread"
    assert correction.old["winner"] == a and correction.new["winner"] == b


# --- WoW TCG -------------------------------------------------------------------------------


def test_wow_best_of_three_choices_and_early_end(api, owner):
    t, m = _event(owner, "wow-constructed")
    a, b = m.entry_a_id, m.entry_b_id
    _error(_post(api, t, m, "reroll-agreement/", {"agreed": True}), 400, "reroll_not_available")
    body = _post(api, t, m, "die-roll/", {"winner": b}).json()
    assert body["policy"]["code"] == "wow"
    assert body["policy"]["section"] == 11 and "docs/" not in body["policy"]["source"]
    assert body["next_right"]["mode"] == "chooses" and body["next_right"]["holder"] == b
    # Game 1: the roll winner B chooses that A starts; A wins.
    r = _game(api, t, m, number=1, winner=a, first=a, choice="opponent")
    assert r.status_code == 201, r.json()
    g1 = r.json()["game"]
    assert (g1["chosen_by"], g1["choice"], g1["first"]) == (b, "opponent", a)
    # Game 2: the loser of game 1 (B) chooses; B starts itself and loses.
    nxt = r.json()["match"]["next_right"]
    assert (nxt["holder"], nxt["reason"]) == (b, "loser_of_previous")
    r = _game(api, t, m, number=2, winner=a, first=b, choice="self")
    assert r.status_code == 201, r.json()
    match = r.json()["match"]
    assert match["complete"] and match["next_right"] is None
    assert match["match_points"] == {str(a): 3, str(b): 0}
    # 2–0: the best of three is decided, no game 3.
    body = _error(_game(api, t, m, number=3, winner=b, first=b), 409, "match_already_decided")
    assert body["message"] == "A mérkőzés már eldőlt, további játszma nem játszható."
    assert Game.objects.get(match=m, number=1).chosen_by_id == b


def test_wow_draw_leaves_the_choice_with_the_same_player(api, owner):
    t, m = _event(owner, "wow-constructed")
    a, b = m.entry_a_id, m.entry_b_id
    _post(api, t, m, "die-roll/", {"winner": a})
    r = _game(api, t, m, number=1, winner=None, first=a)
    assert r.status_code == 201, r.json()
    nxt = r.json()["match"]["next_right"]
    assert (nxt["holder"], nxt["reason"]) == (a, "same_after_draw")
    # The wrong chooser is refused.
    _error(
        _game(api, t, m, number=2, winner=b, first=b, right_holder=b), 400, "first_player_mismatch"
    )
    assert _game(api, t, m, number=2, winner=b, first=b, choice="opponent").status_code == 201
    r = _game(api, t, m, number=3, winner=b, first=a, choice="self")
    assert r.status_code == 201, r.json()
    match = r.json()["match"]
    assert (match["a_wins"], match["b_wins"], match["draws"]) == (0, 2, 1)
    assert match["complete"]


# --- Blue Moon -----------------------------------------------------------------------------


def test_bluemoon_one_game_with_its_crystal_score(api, owner):
    t, m = _event(owner, "bluemoon-advanced")
    a, b = m.entry_a_id, m.entry_b_id
    body = _post(api, t, m, "die-roll/", {"winner": a}).json()
    assert body["policy"]["code"] == "blue_moon"
    assert body["policy"]["structure"]["game_score_unit"] == "crystals"
    # Inquisitors are used: up to 7 crystals (Blue Moon FAQ, "End of Game").
    assert body["policy"]["structure"]["game_score_max"] == 7
    assert "1–7" in body["policy"]["rule"]
    assert body["next_right"]["mode"] == "chooses"
    _error(_game(api, t, m, number=1, winner=b, first=a), 400, "score_missing")
    _error(_game(api, t, m, number=1, winner=b, first=a, score=8), 400, "score_out_of_range")
    _error(_game(api, t, m, number=1, winner=None, first=a), 400, "draw_not_allowed")
    r = _game(api, t, m, number=1, winner=b, first=a, score=3)
    assert r.status_code == 201, r.json()
    assert (r.json()["game"]["score"], r.json()["game"]["chosen_by"]) == (3, a)
    match = r.json()["match"]
    assert (match["a_score"], match["b_score"], match["complete"]) == (0, 3, True)
    assert match["match_points"] == {str(a): 0, str(b): 3}
    _error(_game(api, t, m, number=2, winner=a, first=a, score=1), 409, "match_complete")


def test_five_crystals_record_with_inquisitors_and_are_refused_without(api, owner):
    t, m = _event(owner, "bluemoon-advanced")
    a, b = m.entry_a_id, m.entry_b_id
    _post(api, t, m, "die-roll/", {"winner": a})
    r = _game(api, t, m, number=1, winner=b, first=a, score=5)
    assert r.status_code == 201, r.json()
    assert (r.json()["game"]["score"], r.json()["match"]["b_score"]) == (5, 5)
    # The base game, without Emissaries and Inquisitors: at most 4.
    t, m = _event(owner, "bluemoon-people-basic")
    a, b = m.entry_a_id, m.entry_b_id
    body = _post(api, t, m, "die-roll/", {"winner": a}).json()
    assert body["policy"]["structure"]["game_score_max"] == 4
    error = _error(
        _game(api, t, m, number=1, winner=b, first=a, score=5), 400, "score_out_of_range"
    )
    assert error["message"] == "A(z) 1. játszma pontszáma 1 és 4 között lehet."
    assert not Game.objects.filter(match=m).exists()
    assert _game(api, t, m, number=1, winner=b, first=a, score=4).status_code == 201


def test_score_is_refused_where_the_format_keeps_none(api, owner):
    t, m = _event(owner, "hkk")
    _post(api, t, m, "die-roll/", {"winner": m.entry_a_id})
    _error(
        _game(api, t, m, number=1, winner=m.entry_a_id, first=m.entry_a_id, score=2),
        400,
        "score_not_allowed",
    )
