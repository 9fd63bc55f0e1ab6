"""Event-day pages: the round clock on the round, live, player and judge pages and the
projector view; the fast result row of the round page; a judge's entry closing the players'
report (docs/rules.md §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory, make_tournament
from tests.pages.tournaments.role_world import World
from tournaments import selectors, services
from tournaments.models import Player, ResultReport
from tournaments.pages.projector import qr_svg
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def round_url(w: World, suffix: str = "") -> str:
    return f"/tournaments/{w.tournament.pk}/rounds/{w.round.number}/{suffix}"


def test_organiser_starts_the_clock_and_every_page_shows_it(world):
    org = world.client("organiser")
    page = org.get(round_url(world)).content.decode()
    assert 'data-testid="clock-start"' in page and "clock.js" in page
    r = org.post(round_url(world, "clock/"), {"action": "start", "minutes": "45"})
    assert r.status_code == 302
    world.round.refresh_from_db()
    assert world.round.clock_started_at is not None and world.round.clock_minutes == 45
    for client, url in (
        (world.client("anonymous"), f"/tournaments/{world.tournament.pk}/live/"),
        (world.client("player"), f"/tournaments/{world.tournament.pk}/my-match/"),
        (world.client("judge"), f"/tournaments/{world.tournament.pk}/judge/"),
        (world.client("judge"), round_url(world, f"tables/{world.match.table}/")),
        (world.client("anonymous"), round_url(world, "projector/")),
    ):
        body = client.get(url).content.decode()
        assert 'data-testid="round-clock"' in body, url
        assert 'data-testid="clock-end"' in body, url  # the no-JS fallback: the end time
        assert "<script>" not in body, url


def test_projector_is_hungarian_by_default_and_lists_pairings_by_name(world):
    body = world.client("anonymous", lang="hu").get(round_url(world, "projector/")).content
    text = body.decode()
    assert 'data-testid="projector-pairings"' in text
    assert "Teljes képernyő" in text and "Ellenfél" in text


def test_only_organisers_run_the_clock_and_judges_extend_a_table(world):
    judge = world.client("judge")
    assert judge.post(round_url(world, "clock/"), {"action": "start"}).status_code == 403
    services.round_clock_start(actor=SYSTEM, round=world.round)
    r = judge.post(
        round_url(world, "clock/"),
        {"action": "extend", "minutes": "4", "table": str(world.match.table)},
    )
    assert r.status_code == 302
    world.match.refresh_from_db()
    assert world.match.extension_seconds == 240
    assert (
        world.client("outsider").post(round_url(world, "clock/"), {"action": "pause"}).status_code
        == 403
    )


def test_fast_result_row_records_the_match_and_supersedes_the_report(world):
    m = world.match
    a, b = m.entry_a_id, m.entry_b_id
    player_user = world.users["player"] if world.player_entry.pk in (a, b) else None
    judge = world.client("judge")
    page = judge.get(round_url(world)).content.decode()
    assert f'data-testid="fast-row-{m.table}"' in page
    assert f'data-testid="roll-a-{m.table}"' in page
    report = None
    if player_user is not None:
        mine = world.player_entry.pk
        theirs = b if mine == a else a
        services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=mine)
        report = services.result_report_submit(
            match=m,
            entry=mine,
            actor=player_user,
            games=[
                {"number": 1, "winner": mine, "first": mine},
                {"number": 2, "winner": mine, "first": theirs},
                {"number": 3, "winner": mine, "first": mine},
            ],
        )
    # The die roll is missing (when nobody recorded it): the page says so.
    data = {"result": "2-1-0"}
    if m.die_roll_winner_id is None and report is None:
        r = judge.post(round_url(world, f"tables/{m.table}/result/"), data, follow=True)
        assert "die roll" in r.content.decode()
        assert "die_roll_winner:" not in r.content.decode()  # the error is in words
        data["die_roll_winner"] = str(a)
    r = judge.post(round_url(world, f"tables/{m.table}/result/"), data)
    following = selectors.next_open_table(round=m.round, after=m.table)
    assert following != m.table
    anchor = f"#fast-{following}" if following is not None else "#fast-results"
    assert r.status_code == 302 and r["Location"].endswith(anchor)
    m.refresh_from_db()
    score = selectors.match_score(m)
    assert (score.a_wins, score.b_wins, score.complete) == (2, 1, True)
    if report is not None:
        report.refresh_from_db()
        assert report.status == ResultReport.Status.SUPERSEDED


def test_no_show_button_and_outsiders(world):
    m = world.match
    assert (
        world.client("player")
        .post(round_url(world, f"tables/{m.table}/result/"), {"result": "no_show_a"})
        .status_code
        == 403
    )
    r = world.client("organiser").post(
        round_url(world, f"tables/{m.table}/result/"), {"result": "no_show_a"}
    )
    assert r.status_code == 302
    m.refresh_from_db()
    assert selectors.match_score(m).points[m.entry_b_id] == world.tournament.match_win_points


def test_penalty_page_records_and_lists(world):
    judge = world.client("judge")
    url = f"/tournaments/{world.tournament.pk}/penalties/"
    assert world.client("player").get(url).status_code == 403
    r = judge.post(
        url,
        {
            "entry": str(world.match.entry_a_id),
            "round": "1",
            "category": "tardiness",
            "kind": "game_loss",
            "notes": "10 minutes late",
        },
    )
    assert r.status_code == 302
    page = judge.get(url).content.decode()
    assert "10 minutes late" in page and 'data-testid="penalty-log"' in page
    assert judge.get(url + "?format=csv")["Content-Type"].startswith("text/csv")


def test_top_cut_page_start_and_bracket(world):
    for m in world.round.matches.filter(entry_b__isnull=False):
        services.match_result_record(
            actor=SYSTEM, match=m, result="3-0-0", die_roll_winner=m.entry_a_id
        )
    services.round_finish(actor=SYSTEM, round=world.round)
    org = world.client("organiser", lang="hu")
    url = f"/tournaments/{world.tournament.pk}/top-cut/"
    page = org.get(url).content.decode()
    assert 'data-testid="top-cut-form"' in page and "Top cut" not in page.split("<main")[1]
    assert world.client("player").post(url + "start/", {"size": "4"}).status_code == 403
    r = org.post(url + "start/", {"size": "4", "higher_seed_chooses": "on"})
    assert r.status_code == 302
    page = world.client("anonymous").get(url).content.decode()
    assert 'data-testid="bracket-round-1"' in page and "(1)" in page and "(4)" in page


def test_player_reports_with_one_choice(world):
    mine = world.player_entry.pk
    m = selectors.match_of_entry(round=world.round, entry=world.player_entry)
    assert m is not None and m.entry_b_id is not None
    theirs = m.entry_b_id if m.entry_a_id == mine else m.entry_a_id
    rival = UserFactory(username="rival")
    Player.objects.filter(memberships__entry_id=theirs).update(user=rival)
    url = f"/tournaments/{world.tournament.pk}/my-match/"
    me = world.client("player")
    them = Client()
    them.force_login(rival)
    page = me.get(url).content.decode()
    assert 'data-testid="report-summary"' in page and "die_roll" in page
    a_code = "2-1-0" if m.entry_a_id == mine else "1-2-0"  # I won 2–1 (values from seat A)
    r = me.post(url, {"summary": a_code, "die_roll": "mine"})
    assert r.status_code == 302
    assert ResultReport.objects.get(match=m, entry_id=mine).status == ResultReport.Status.PENDING
    r = them.post(url, {"summary": a_code, "die_roll": "theirs"})
    assert r.status_code == 302
    m.refresh_from_db()
    score = selectors.match_score(m)
    wins = (score.a_wins, score.b_wins) if m.entry_a_id == mine else (score.b_wins, score.a_wins)
    assert wins == (2, 1) and score.complete
    assert m.die_roll_winner_id == mine
    report = ResultReport.objects.get(match=m, entry_id=mine)
    assert report.status == ResultReport.Status.ACCEPTED


def test_fast_result_buttons_carry_a_legend_and_names_in_words(world):
    """Each outcome button is named in words ("2–1: az A nevező 2 játszmát nyert, …"), the
    legend explains the three numbers, and a slip's games show "details not reported" on the
    table's page."""
    m = world.match
    page = world.client("judge", lang="hu").get(round_url(world)).content.decode()
    assert 'data-testid="fast-results-legend"' in page and "Jelmagyarázat" in page
    assert (
        'aria-label="2–1: az A nevező 2 játszmát nyert, 1 játszmát vesztett, 0 döntetlen"' in page
    )
    english = world.client("judge", lang="en").get(round_url(world)).content.decode()
    assert 'aria-label="2–1: A won 2, lost 1, 0 draws"' in english
    services.match_result_record(
        actor=SYSTEM, match=m, result="2-1-0", die_roll_winner=m.entry_a_id
    )
    table = world.client("judge", lang="hu").get(round_url(world, f"tables/{m.table}/"))
    body = table.content.decode()
    assert 'data-testid="details-not-reported-1"' in body
    assert "a részletek nincsenek megadva" in body


def test_projector_shows_a_qr_code_of_the_event_page_and_follows_the_current_round(world):
    t = world.tournament
    anonymous = world.client("anonymous", lang="hu")
    text = anonymous.get(round_url(world, "projector/")).content.decode()
    event_url = f"http://testserver/tournaments/{t.pk}/"
    qr = str(qr_svg(event_url))
    assert qr.startswith("<svg") and "style=" not in qr and "<script" not in qr  # CSP-safe
    assert qr in text and event_url in text and "A verseny oldala" in text
    follow = f'data-follow-url="/tournaments/{t.pk}/projector/"'
    assert 'data-round="1"' in text and follow in text

    current = anonymous.get(f"/tournaments/{t.pk}/projector/")
    assert current.status_code == 200 and 'data-round="1"' in current.content.decode()
    for m in world.round.matches.filter(entry_b__isnull=False):
        services.match_result_record(
            actor=SYSTEM, match=m, result="3-0-0", die_roll_winner=m.entry_a_id
        )
    services.round_finish(actor=SYSTEM, round=world.round)
    services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=8)
    )
    # The page the old projector asks now shows round 2; round 1's own page no longer follows.
    moved = anonymous.get(f"/tournaments/{t.pk}/projector/").content.decode()
    assert 'data-round="2"' in moved and follow in moved
    assert follow not in anonymous.get(round_url(world, "projector/")).content.decode()


def test_projector_of_an_event_without_rounds_is_not_found():
    owner = UserFactory()
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    client = Client()
    client.force_login(owner)
    assert client.get(f"/tournaments/{t.pk}/").status_code == 200  # the event itself is there
    assert client.get(f"/tournaments/{t.pk}/projector/").status_code == 404
