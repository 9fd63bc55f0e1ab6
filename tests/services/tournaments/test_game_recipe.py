"""The CONTRIBUTING recipes "A new game" (its tournament side, step 8) and "A new format" (on one
installation: data only), run: a toy game entry added through ``register_game`` alone and a
format row of that game get the game's match structure, tiebreakers and top cut on a new
event, and the event page, the result slips, the API and the standings follow them; the
start-up system check passes with the entry and fails without it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from decks.models import Format, Game
from hkk_tournament.errors import InvalidState, ValidationFailed
from tests.factories import UserFactory, make_tournament
from tests.pages.tournaments.test_printouts import pdf_text
from tournaments import services
from tournaments.checks import registry_drift
from tournaments.domain.games import GAMES, GameRules, register_game
from tournaments.domain.match_structure import MatchStructure
from tournaments.domain.standings import MTR_TIEBREAKERS
from tournaments.pages import printouts
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

#: The toy game: best of five, the die roll winner chooses, no drawn games; MTR tiebreakers,
#: a top 4.
TOY_STRUCTURE = MatchStructure(
    policy="wow", games_per_match=5, ends_when_decided=True, game_draws=False
)


@pytest.fixture
def toy_game() -> Iterator[Format]:
    """The toy game registered as the recipe says, its catalogue row and one format (data only,
    as an organiser adds it in the admin: no match structure of its own); the registry
    restored afterwards."""
    games = dict(GAMES)
    register_game(GameRules("toy", "Toy card game", TOY_STRUCTURE, MTR_TIEBREAKERS, top_cut=4))
    game = Game.objects.create(slug="toy", name="Toy card game")
    fmt = Format.objects.create(
        slug="toy-open", game=game, name="Toy open", rule_set="hkk", copy_limit=3
    )
    yield fmt
    GAMES.clear()
    GAMES.update(games)


def test_a_toy_game_and_format_through_the_registry_and_data_alone(toy_game):
    owner = UserFactory(username="owner")
    t, (e1, e2) = make_tournament(entries=2, decks=False, owner=owner, format_slug="toy-open")
    assert t.structure == TOY_STRUCTURE
    assert t.tiebreakers == list(MTR_TIEBREAKERS)
    assert services.top_cut_default_size(tournament=t) == 4
    assert registry_drift() == []

    # The API shows the game's structure under its names.
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    body = client.get(f"/api/tournaments/{t.pk}/").json()
    assert (body["first_player_policy"], body["games_per_match"], body["ends_when_decided"]) == (
        "wow",
        5,
        True,
    )
    assert body["match_structure"] == TOY_STRUCTURE.to_dict()

    # The event page states five games; the slips print one line per game and the policy.
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Games per match" in page and "<dd>5</dd>" in page
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    with translation.override("en"):
        slips = pdf_text(printouts.result_slips_pdf(round=rnd))
    assert "WoW TCG: the die roll winner chooses" in slips
    assert "5" in slips

    # Best of five: three wins decide the match; a fourth game is refused.
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=a)
    for number in (1, 2, 3):
        holder = services.match_next_right(match=m).holder  # chooses to start
        services.game_record(
            actor=SYSTEM, match=m, number=number, winner_entry=a, first_entry=holder
        )
    with pytest.raises(InvalidState) as exc:
        services.game_record(actor=SYSTEM, match=m, number=4, winner_entry=b, first_entry=b)
    assert exc.value.code == "match_already_decided"

    # The standings: the winner first, with the game's tiebreaker columns.
    rows = services.standings_compute(tournament=t)
    assert [r.entry for r in rows] == [a, b]
    assert set(rows[0].tiebreakers) == set(MTR_TIEBREAKERS)
    winner, loser = (e1, e2) if e1.pk == a else (e2, e1)
    standings = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert names_in_order(standings, winner.name, loser.name)
    assert "OMW" in standings


def names_in_order(page: str, first: str, second: str) -> bool:
    """``first`` appears before ``second`` in ``page``'s standings table (from its
    ``data-testid``: the page's head carries a random CSRF token, which may hold "P1")."""
    table = page[page.find('data-testid="standings"') :]
    return 'data-testid="standings"' in page and 0 <= table.find(first) < table.find(second)


def test_without_its_entry_the_toy_format_fails_the_check_and_creation(toy_game):
    del GAMES["toy"]
    assert {e.id for e in registry_drift()} == {"tournaments.E003"}
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(owner=None, name="x", format_slug="toy-open")
    assert exc.value.code == "unknown_game"
