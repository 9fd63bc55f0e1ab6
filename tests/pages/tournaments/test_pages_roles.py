"""The tournaments pages by role: the permission matrix (every page × anonymous, outsider,
player, other player, judge, judge of another event, organiser), private events, draft rounds,
the negative cases (another organiser's event, a player changing someone else's list, a judge
of a different event), the next step, the options form and labelled form controls."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, hkk_catalogue
from tests.pages.tournaments.role_world import ROLES, World, build_world
from tournaments import services
from tournaments.models import DeckCheck, DeckSubmission, Game, ResultReport, Round, StaffRole
from tournaments.permissions import SYSTEM
from tournaments.selectors import next_action

pytestmark = pytest.mark.django_db

__all__ = ["hkk_catalogue"]


def page_urls(w: World) -> dict[str, str]:
    t, n = w.tournament.pk, w.round.number
    return {
        "dashboard": reverse("tournaments:dashboard"),
        "my-events": reverse("tournaments:my-events"),
        "detail": reverse("tournaments:detail", args=[t]),
        "live": reverse("tournaments:live", args=[t]),
        "standings": reverse("tournaments:standings", args=[t]),
        "round": reverse("tournaments:round", args=[t, n]),
        "staff": reverse("tournaments:staff", args=[t]),
        "judge": reverse("tournaments:judge", args=[t]),
        "match": reverse("tournaments:match", args=[t, n, w.match.table]),
        "deck-checks": reverse("tournaments:deck-checks", args=[t, n]),
        "print-pairings": reverse("tournaments:print-pairings", args=[t, n]),
        "print-slips": reverse("tournaments:print-slips", args=[t, n]),
        "print-standings": reverse("tournaments:print-standings", args=[t]),
        "my-deck": reverse("tournaments:my-deck", args=[t]),
        "my-match": reverse("tournaments:my-match", args=[t]),
        "entry-lists": reverse("tournaments:entry-lists", args=[t, w.player_entry.pk]),
        "entry-deck": reverse("tournaments:entry-deck", args=[t, w.player_entry.pk]),
        "register": reverse("tournaments:register", args=[t]),
    }


LOGIN = 302
#: Expected status per page for the roles in ``ROLES`` order.
MATRIX: dict[str, tuple[int, ...]] = {
    #                anon  outs  play  othr  judge ojdg  org
    "dashboard": (LOGIN, 200, 200, 200, 200, 200, 200),
    "my-events": (LOGIN, 200, 200, 200, 200, 200, 200),
    "detail": (200, 200, 200, 200, 200, 200, 200),
    "live": (200, 200, 200, 200, 200, 200, 200),
    "standings": (200, 200, 200, 200, 200, 200, 200),
    "round": (200, 200, 200, 200, 200, 200, 200),
    "staff": (LOGIN, 403, 403, 403, 403, 403, 200),
    "judge": (LOGIN, 403, 403, 403, 200, 403, 200),
    "match": (LOGIN, 403, 403, 403, 200, 403, 200),
    "deck-checks": (LOGIN, 403, 403, 403, 200, 403, 200),
    "print-pairings": (LOGIN, 403, 403, 403, 200, 403, 200),
    "print-slips": (LOGIN, 403, 403, 403, 200, 403, 200),
    "print-standings": (LOGIN, 403, 403, 403, 200, 403, 200),
    "my-deck": (LOGIN, 404, 200, 200, 404, 404, 404),
    "my-match": (LOGIN, 404, 200, 200, 404, 404, 404),
    "entry-lists": (LOGIN, 403, 200, 403, 200, 403, 200),
    "entry-deck": (LOGIN, 403, 403, 403, 403, 403, 200),
    "register": (LOGIN, 200, 200, 200, 200, 200, 200),
}


def test_permission_matrix_of_every_page(world):
    urls = page_urls(world)
    assert set(urls) == set(MATRIX)
    failures = []
    for page, expected in MATRIX.items():
        for role, status in zip(ROLES, expected, strict=True):
            response = world.client(role).get(urls[page])
            if response.status_code != status:
                failures.append((page, role, status, response.status_code))
            if status == LOGIN:
                assert reverse("login") in response["Location"]
    assert failures == []


PRIVATE: dict[str, tuple[int, ...]] = {
    #           anon  outs  play  othr  judge ojdg  org
    "detail": (404, 404, 200, 200, 200, 404, 200),
    "live": (404, 404, 200, 200, 200, 404, 200),
    "standings": (404, 404, 200, 200, 200, 404, 200),
    "round": (404, 404, 200, 200, 200, 404, 200),
    "judge": (LOGIN, 404, 403, 403, 200, 404, 200),
    "my-deck": (LOGIN, 404, 200, 200, 404, 404, 404),
}


def test_private_event_is_hidden_from_outsiders_and_other_judges():
    w = build_world(public=False)
    urls = page_urls(w)
    for page, expected in PRIVATE.items():
        got = tuple(w.client(role).get(urls[page]).status_code for role in ROLES)
        assert got == expected, page
    listing = w.client("outsider").get(reverse("tournaments:list"))
    assert w.tournament.pk not in [x.pk for x in listing.context["tournaments"]]
    mine = w.client("player").get(reverse("tournaments:list"))
    assert w.tournament.pk in [x.pk for x in mine.context["tournaments"]]


def test_draft_round_is_shown_to_organisers_only(world):
    t = world.tournament
    for m in world.round.matches.all():
        if m.entry_b_id is None:
            continue
        services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_a_id)
        for number, first in ((1, m.entry_a_id), (2, m.entry_b_id), (3, m.entry_a_id)):
            services.game_record(
                actor=SYSTEM, match=m, number=number, winner_entry=m.entry_a_id, first_entry=first
            )
    services.round_finish(actor=SYSTEM, round=world.round)
    services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    draft = reverse("tournaments:round", args=[t.pk, 2])
    for role in ROLES:
        status = world.client(role).get(draft).status_code
        assert status == (200 if role == "organiser" else 404), role
    # Not on the live page either, not even for the organiser, and not in "my pairing".
    live = world.client("organiser").get(reverse("tournaments:live", args=[t.pk]))
    assert live.context["round"].number == 1
    mine = world.client("player").get(reverse("tournaments:my-match", args=[t.pk]))
    assert mine.context["round"].number == 1
    pdf = world.client("judge").get(reverse("tournaments:print-pairings", args=[t.pk, 2]))
    assert pdf.status_code == 404


# --- negative cases ---------------------------------------------------------------------------


def test_another_organisers_event_cannot_be_changed(world):
    other_org = Client()
    other_org.force_login(UserFactory(username="org2"))
    t = world.tournament
    assert other_org.post(reverse("tournaments:round-finish", args=[t.pk, 1])).status_code == 403
    assert other_org.get(reverse("tournaments:staff", args=[t.pk])).status_code == 403
    r = other_org.post(
        reverse("tournaments:options", args=[t.pk]),
        {"is_public": "", "deck_check_percent": 50},
    )
    assert r.status_code == 403
    t.refresh_from_db()
    assert t.is_public and t.deck_check_percent == 10
    assert Round.objects.get(pk=world.round.pk).status == "published"


def test_a_player_cannot_change_someone_elses_list(world):
    c = world.client("player")
    url = reverse("tournaments:entry-deck", args=[world.tournament.pk, world.other_entry.pk])
    r = c.post(url, {"seat": "A", "text": "Pakli:\n3 Gigaököl\n"})
    assert r.status_code == 403
    assert not DeckSubmission.objects.filter(member__entry=world.other_entry).exists()


def test_judge_of_another_event_cannot_record_results(world):
    m = world.match
    url = reverse("tournaments:match", args=[world.tournament.pk, 1, m.table])
    c = world.client("other_judge")
    assert c.post(url, {"roll-winner": str(m.entry_a_id)}).status_code == 403
    assert c.post(url, {"quick-number": 1, "quick-result": "a"}).status_code == 403
    m.refresh_from_db()
    assert m.die_roll_winner_id is None and not Game.objects.filter(match=m).exists()
    picks = reverse("tournaments:deck-checks-pick", args=[world.tournament.pk, 1])
    assert c.post(picks).status_code == 403
    assert not DeckCheck.objects.exists()


def test_only_the_owner_appoints_staff(world):
    t = world.tournament
    services.staff_appoint(
        tournament=t, user=world.users["outsider"], role="organiser", actor=world.users["organiser"]
    )
    co = world.client("outsider")  # now a co-organiser: may look, may not appoint
    assert co.get(reverse("tournaments:staff", args=[t.pk])).status_code == 200
    r = co.post(
        reverse("tournaments:staff-appoint", args=[t.pk]), {"username": "player", "role": "judge"}
    )
    assert r.status_code == 403
    r = co.post(reverse("tournaments:staff-remove", args=[t.pk]), {"username": "judge"})
    assert r.status_code == 403
    assert StaffRole.objects.filter(tournament=t, user=world.users["judge"]).exists()
    assert not StaffRole.objects.filter(tournament=t, user=world.users["player"]).exists()


def test_judge_and_players_cannot_report_for_others(world):
    """A judge with no entry has no "my pairing"; a player's report is always for their own
    entry (the form has no entry field)."""
    url = reverse("tournaments:my-match", args=[world.tournament.pk])
    assert world.client("judge").post(url, {"g1_result": "mine"}).status_code == 404
    assert not ResultReport.objects.exists()


def test_other_players_see_lists_once_published(world, hkk_catalogue):
    t = world.tournament
    url = reverse("tournaments:entry-lists", args=[t.pk, world.player_entry.pk])
    assert world.client("other_player").get(url).status_code == 403
    owner = world.client("organiser")
    owner.post(
        reverse("tournaments:options", args=[t.pk]),
        {"is_public": "on", "decklists_published": "on", "deck_check_percent": 10},
    )
    t.refresh_from_db()
    assert t.decklists_published
    assert world.client("other_player").get(url).status_code == 200
    assert world.client("outsider").get(url).status_code == 403  # not a player of the event


# --- next step, options, labels -----------------------------------------------------------


def test_next_step_follows_the_event_and_its_last_round(world):
    t = world.tournament
    assert next_action(t, world.round).code == "results"
    draft = Round(tournament=t, number=2, status=Round.Status.DRAFT)
    assert next_action(t, draft).code == "publish"
    done = Round(tournament=t, number=2, status=Round.Status.FINISHED)
    assert next_action(t, done).code == "pair"
    t.planned_rounds = 2
    assert next_action(t, done).code == "finish"
    assert next_action(t, None).code == "pair"
    for status, code in (("draft", "open_registration"), ("registration", "start")):
        t.status = status
        assert next_action(t, None).code == code
    t.status = "finished"
    assert next_action(t, done).code == "none"


def test_options_form_refuses_a_bad_share_and_changes_nothing(world):
    t = world.tournament
    r = world.client("organiser").post(
        reverse("tournaments:options", args=[t.pk]),
        {"is_public": "on", "deck_check_percent": 150},
        follow=True,
    )
    assert any("0–100" in str(m) for m in r.context["messages"])
    t.refresh_from_db()
    assert t.deck_check_percent == 10


class _Controls(HTMLParser):
    """Collects form controls and the ids that labels point at (or wrap)."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str]] = []
        self.label_for: set[str] = set()
        self.in_label = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "label":
            self.in_label += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        elif tag in ("input", "select", "textarea"):
            if a.get("type") in ("hidden", "submit", "button"):
                return
            self.controls.append({**a, "_wrapped": "1" if self.in_label else ""})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label -= 1


def _unlabelled(html: str) -> list[str]:
    parser = _Controls()
    parser.feed(html)
    return [
        c.get("name", "?")
        for c in parser.controls
        if not c["_wrapped"] and c.get("id") not in parser.label_for
    ]


def test_every_form_control_of_the_pages_is_labelled(world):
    t, n = world.tournament, world.round.number
    m = world.match
    pages = [
        ("organiser", reverse("tournaments:create")),
        ("organiser", reverse("tournaments:detail", args=[t.pk])),
        ("organiser", reverse("tournaments:staff", args=[t.pk])),
        ("organiser", reverse("tournaments:entry-deck", args=[t.pk, world.player_entry.pk])),
        ("judge", reverse("tournaments:match", args=[t.pk, n, m.table])),
        ("judge", reverse("tournaments:deck-checks", args=[t.pk, n])),
        ("player", reverse("tournaments:my-match", args=[t.pk])),
        ("player", reverse("tournaments:my-deck", args=[t.pk])),
        ("anonymous", reverse("tournaments:live", args=[t.pk])),
    ]
    world.client("judge").post(reverse("tournaments:deck-checks-pick", args=[t.pk, n]))
    for role, url in pages:
        html = world.client(role).get(url).content.decode()
        assert _unlabelled(html) == [], url
