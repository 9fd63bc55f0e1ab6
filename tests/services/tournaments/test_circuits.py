"""Circuits through the services on the database: three real events give the season
standings of a hand count; a league gate refuses an over-qualified player at registration;
join requests and decisions; ratings; the profile setting (tournaments/services/circuits.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from hkk_tournament.errors import ApplicationError
from tests.factories import UserFactory, ensure_format
from tests.services.tournaments.circuit_helpers import make_circuit, play_event
from tournaments import services
from tournaments.models import CircuitEvent, CircuitRating, Player
from tournaments.permissions import SYSTEM
from tournaments.selectors.profiles import players_of_person
from tournaments.services import circuits as cs

pytestmark = pytest.mark.django_db

E1 = ["Anna", "Bence", "Csaba", "Dóra"]
E2 = ["Bence", "Anna", "Emese", "Csaba"]
E3 = ["Csaba", "Anna", "Bence", "Emese"]


@pytest.fixture
def season():
    owner = UserFactory(username="korrendezo")
    game = ensure_format("hkk").game
    circuit = make_circuit(owner, game, ratings_enabled=True)
    for names, tier in ((E1, "local"), (E2, "national"), (E3, "local")):
        t = play_event(owner, names, name=f"Verseny {tier}")
        cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier=tier)
    return owner, circuit


def test_three_events_give_the_hand_counted_season(season) -> None:
    # By hand (table 10/6/4/2 for places 1-4, E2 national ×2, best 2, at least 2 events):
    # Bence 6 + 20 + 4 -> 20 + 6 = 26; Anna 10 + 12 + 6 -> 12 + 10 = 22;
    # Csaba 4 + 4 + 10 -> 10 + 4 = 14 (wins 1); Emese 8 + 2 -> 10; Dóra 2, one event: unranked.
    _owner, circuit = season
    data = cs.circuit_season(circuit=circuit)
    table = [(r.rank, data.names[r.person], int(r.points), r.events_played) for r in data.rows]
    assert table == [
        (1, "Bence", 26, 3),
        (2, "Anna", 22, 3),
        (3, "Csaba", 14, 3),
        (4, "Emese", 10, 2),
        (None, "Dóra", 2, 1),
    ]
    csv = cs.circuit_standings_csv(circuit=circuit)
    assert csv.splitlines()[1].split(",")[:4] == ["1", "Bence", "26", "3"]
    assert "(4)" in csv.splitlines()[1]  # Bence's third result is not among the best two


def test_ratings_follow_the_matches(season) -> None:
    _owner, circuit = season
    assert cs.circuit_ratings_refresh(circuit_id=circuit.pk) == 5  # the job's service
    ratings = {r.name: r for r in CircuitRating.objects.filter(circuit=circuit)}
    assert set(ratings) == {"Anna", "Bence", "Csaba", "Dóra", "Emese"}
    assert ratings["Bence"].matches == 9 and ratings["Dóra"].matches == 3
    assert ratings["Dóra"].ordinal < ratings["Emese"].ordinal


def test_a_league_gate_refuses_the_over_qualified(season) -> None:
    owner, circuit = season
    league = cs.league_save(
        circuit=circuit,
        actor=owner,
        data=cs.LeagueData(name="Kezdő Liga", max_points=Decimal(20), max_events=3),
    )
    t = services.tournament_create(owner=owner, name="Kezdő verseny", format_slug="hkk")
    t = services.tournament_open_registration(actor=SYSTEM, tournament=t)
    cs.circuit_event_request(
        circuit=circuit, tournament=t, actor=owner, tier="local", league=league
    )
    with pytest.raises(ApplicationError) as err:
        services.entry_register_player(tournament=t, player_name="Bence")
    assert err.value.code == "league_gate_refused"
    assert err.value.params["reason"] == "league_points_above"
    assert err.value.params["value"] == "26" and err.value.params["limit"] == "20"
    assert "Kezdő Liga" in str(err.value.message)
    services.entry_register_player(tournament=t, player_name="Dóra")  # 2 points: welcome
    services.entry_register_player(tournament=t, player_name="Új Játékos")  # no results yet
    assert t.entries.count() == 2
    # the explicit list admits a listed player regardless of points
    cs.league_save(
        circuit=circuit,
        actor=owner,
        league=league,
        data=cs.LeagueData(name="Kezdő Liga", max_points=Decimal(20), listed_names=["bence"]),
    )
    services.entry_register_player(tournament=t, player_name="Bence")


def test_join_requests_need_the_owner(season) -> None:
    owner, circuit = season
    other = UserFactory(username="masik")
    t = services.tournament_create(owner=other, name="Más verseny", format_slug="hkk")
    with pytest.raises(ApplicationError) as err:
        cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier="local")
    assert err.value.code == "not_organiser"
    with pytest.raises(ApplicationError) as err:
        cs.circuit_event_request(circuit=circuit, tournament=t, actor=other, tier="nope")
    assert err.value.code == "unknown_tier"
    link = cs.circuit_event_request(circuit=circuit, tournament=t, actor=other, tier="local")
    assert link.status == CircuitEvent.Status.REQUESTED
    with pytest.raises(ApplicationError) as err:
        cs.circuit_event_request(circuit=circuit, tournament=t, actor=other, tier="local")
    assert err.value.code == "already_in_circuit"
    with pytest.raises(ApplicationError) as err:
        cs.circuit_event_decide(link=link, actor=other, accept=True)
    assert err.value.code == "not_circuit_owner"
    link = cs.circuit_event_decide(link=link, actor=owner, accept=False)
    assert link.status == CircuitEvent.Status.REFUSED
    link = cs.circuit_event_request(circuit=circuit, tournament=t, actor=other, tier="national")
    assert cs.circuit_event_decide(link=link, actor=owner, accept=True).status == "accepted"


def test_bad_settings_are_refused_with_the_field(season) -> None:
    owner, circuit = season
    bad = cs.CircuitSettings(name="X", points_text="négy: 1 2")
    with pytest.raises(ApplicationError) as err:
        cs.circuit_update(circuit=circuit, actor=owner, data=bad)
    assert err.value.code == "points_line" and "points_text" in err.value.fields
    circuit.refresh_from_db()
    assert circuit.name == "Szezon 2026"  # nothing changed


def test_hkk_preset_and_history(season) -> None:
    owner, _circuit = season
    hsz, profi = cs.circuit_create_hkk_preset(owner=owner, game=_circuit.game, season="2026")
    assert hsz.formulas_unpublished and profi.formulas_unpublished
    assert [lg.measured_on_id for lg in hsz.leagues.order_by("id")] == [hsz.pk, profi.pk, profi.pk]
    player = Player.objects.filter(display_name="Csaba").order_by("id")[0]
    history = cs.person_history(players=players_of_person(player))
    assert [(h.placement, h.field_size, h.record) for h in history] == [
        (1, 4, "3–0–0"),  # E3, newest first
        (4, 4, "0–3–0"),
        (3, 4, "1–2–0"),
    ]
    profile = cs.profile_set_public(actor=owner, user=owner, is_public=True)
    assert profile.is_public
