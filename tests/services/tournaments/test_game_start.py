"""``tournaments.services.game_start.match_game_start``: the game start shown on a match page."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import timezone, translation

from decks.models import Format
from tournaments.domain.match_structure import get_preset
from tournaments.models import DeckSubmission, Entry, EntryMember, Match, Player, Round, Tournament
from tournaments.services.game_start import match_game_start

pytestmark = pytest.mark.django_db


def make_tournament(slug: str = "hkk", kind: str = "individual") -> Tournament:
    return Tournament.objects.create(
        name="Kupa",
        format=Format.objects.get(slug=slug),
        kind=kind,
        match_structure=get_preset("hkk").to_dict(),
    )


def make_entry(tournament: Tournament, name: str, *players: str) -> Entry:
    entry = Entry.objects.create(tournament=tournament, name=name)
    for seat, display_name in zip("AB", players, strict=False):
        EntryMember.objects.create(
            entry=entry,
            tournament=tournament,
            player=Player.objects.create(display_name=display_name),
            seat=seat,
        )
    return entry


def submit(
    entry: Entry,
    seat: str,
    *,
    rule_card: str = "",
    follower: str = "",
    version: int = 1,
    is_current: bool = True,
    locked: bool = False,
) -> DeckSubmission:
    return DeckSubmission.objects.create(
        member=entry.members.get(seat=seat),
        version=version,
        text="…",
        format_slug=entry.tournament.format.slug,
        validated_at=timezone.now(),
        validator_legal=True,
        legal=True,
        rule_card=rule_card,
        follower=follower,
        is_current=is_current,
        locked=locked,
    )


def make_match(tournament: Tournament, a: Entry, b: Entry | None) -> Match:
    rnd, _ = Round.objects.get_or_create(
        tournament=tournament, number=1, defaults={"seed": 1, "engine_version": "test"}
    )
    return Match.objects.create(round=rnd, table=rnd.matches.count() + 1, entry_a=a, entry_b=b)


def by_name(result):
    return {player["name"]: player for player in result["players"]}


def test_match_between_declared_decks_gives_the_seed_numbers():
    tournament = make_tournament()
    anna = make_entry(tournament, "Anna", "Anna")
    bence = make_entry(tournament, "Bence", "Bence")
    submit(anna, "A", rule_card="A bőség zavara", follower="Terrgath")
    submit(bence, "A", rule_card="Életenergia (új)")
    result = match_game_start(make_match(tournament, anna, bence))
    players = by_name(result)
    # Anna: 5 − 1 − 1 + 3 = 6 cards; 30 (Életenergia at the opponent) − 2 (Terrgath) = 28 ÉP.
    assert (players["Anna"]["hand"], players["Anna"]["start_ep"], players["Anna"]["max_ep"]) == (
        6,
        28,
        28,
    )
    # Bence: 5 − 1 + 3 (A bőség zavara affects everyone) = 7 cards, 30 ÉP.
    assert (players["Bence"]["hand"], players["Bence"]["max_ep"]) == (7, 30)
    assert players["Anna"]["entry_id"] == anna.pk and players["Anna"]["seat"] == "A"
    assert players["Bence"]["side"] == "b"
    assert result["complete"] is True


def test_locked_list_wins_over_a_later_current_version():
    tournament = make_tournament()
    anna = make_entry(tournament, "Anna", "Anna")
    bence = make_entry(tournament, "Bence", "Bence")
    submit(anna, "A", rule_card="Sokszínűség", version=1, is_current=False, locked=True)
    submit(anna, "A", rule_card="", version=2, is_current=True)
    submit(bence, "A")
    players = by_name(match_game_start(make_match(tournament, anna, bence)))
    assert players["Anna"]["max_ep"] == 27
    assert players["Anna"]["rule_card"] == "Sokszínűség"


def test_pair_match_shares_the_rule_card_and_warns_about_a_missing_list():
    tournament = make_tournament("hkk-paros", kind="pair")
    team_a = make_entry(tournament, "Csapat A", "Anna", "Anikó")
    team_b = make_entry(tournament, "Csapat B", "Bence", "Bea")
    submit(team_a, "A", rule_card="Sokszínűség")
    submit(team_a, "B", rule_card="Sokszínűség")
    submit(team_b, "A", rule_card="Ősi rúna")
    result = match_game_start(make_match(tournament, team_a, team_b))
    players = by_name(result)
    assert [players[n]["start_ep"] for n in ("Anna", "Anikó", "Bence", "Bea")] == [27, 27, 20, 20]
    assert [players[n]["hand"] for n in ("Anna", "Anikó", "Bence", "Bea")] == [4, 4, 4, 5]
    codes = [(w["code"], w["params"]) for w in result["warnings"]]
    assert ("no_deck_list", {"player": "Bea"}) in codes
    assert ("rule_card_not_in_effects", {"card": "Ősi rúna"}) in codes
    assert result["complete"] is False


def test_same_display_name_in_both_entries_is_disambiguated():
    tournament = make_tournament()
    one = make_entry(tournament, "Egyik", "Kiss Péter")
    other = make_entry(tournament, "Másik", "Kiss Péter")
    submit(one, "A", follower="Arochos")
    submit(other, "A")
    result = match_game_start(make_match(tournament, one, other))
    names = [player["name"] for player in result["players"]]
    assert names == ["Kiss Péter (Egyik, A)", "Kiss Péter (Másik, A)"]
    assert result["players"][0]["start_ep"] == 1


def test_bye_and_non_hkk_formats_have_no_game_start():
    tournament = make_tournament()
    anna = make_entry(tournament, "Anna", "Anna")
    assert match_game_start(make_match(tournament, anna, None)) is None
    wow = make_tournament("wow-constructed")
    a = make_entry(wow, "A", "Aladár")
    b = make_entry(wow, "B", "Béla")
    assert match_game_start(make_match(wow, a, b)) is None


def test_partial_renders_the_table_and_explanations():
    tournament = make_tournament()
    anna = make_entry(tournament, "Anna", "Anna")
    bence = make_entry(tournament, "Bence", "Bence")
    submit(anna, "A", follower="Terrgath")
    submit(bence, "A", rule_card="Életenergia (új)")
    with translation.override("en"):
        game_start = match_game_start(make_match(tournament, anna, bence))
        html = render_to_string("tournaments/includes/_game_start.html", {"game_start": game_start})
    assert "Game start" in html
    assert '<td class="num">28</td>' in html
    assert "“Terrgath”: -2 ÉP (maximum and starting)." in html
    empty = render_to_string("tournaments/includes/_game_start.html", {"game_start": None})
    assert empty.strip() == ""
