"""Meta statistics from finished events (services.meta, selectors.meta): an independent count
of three simulated events, publication and consent, the job on finishing an event."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.factories import make_tournament
from tests.services.tournaments.helpers import start_and_pair
from tests.services.tournaments.meta_helpers import RULE_CARDS, play_event
from tournaments import services
from tournaments.domain.meta import top_size
from tournaments.models import DeckSubmission, MetaSnapshot, Tournament
from tournaments.permissions import SYSTEM
from tournaments.selectors.meta import MetaQuery, meta_view, published_submissions
from tournaments.services.meta import consent_set, meta_recompute
from tournaments.services.standings import standings_rows

pytestmark = pytest.mark.django_db


def independent_count(events: list[Tournament]) -> dict[str, tuple[int, int, int, int, int]]:
    """Per card name: (main lists, main copies, main top lists, sideboard lists, sideboard
    copies), counted straight from the stored lists and standings."""
    out: dict[str, list[int]] = {}
    for t in events:
        ranks = {r["entry"]: r["rank"] for r in standings_rows(tournament=t)}
        top = top_size(len(ranks), count=8, percent=25)
        for sub in DeckSubmission.objects.filter(member__tournament=t, locked=True):
            main: Counter[str] = Counter()
            side: Counter[str] = Counter()
            for section, lines in (sub.data or {}).items():
                for line in lines:
                    (side if section == "sideboard" else main)[line["name"]] += line["count"]
            is_top = ranks[sub.member.entry_id] <= top
            for name, copies in main.items():
                row = out.setdefault(name, [0] * 5)
                row[0] += 1
                row[1] += copies
                row[2] += int(is_top)
            for name, copies in side.items():
                row = out.setdefault(name, [0] * 5)
                row[3] += 1
                row[4] += copies
    return {name: (r[0], r[1], r[2], r[3], r[4]) for name, r in out.items()}


def test_three_events_equal_an_independent_count(catalogue, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        events = [play_event(n, seed=s) for s, n in enumerate((6, 5, 8))]
    assert MetaSnapshot.objects.filter(tournament__in=events).count() == 3  # the finish job
    view = meta_view(MetaQuery(game="hkk"))
    assert (view.report.events, view.report.lists) == (3, 19)
    # Top 25 % of 6, 5 and 8 rounded up (2 each), with the entries tied at the cut.
    assert view.report.top_lists == sum(
        sum(1 for r in standings_rows(tournament=t) if r["rank"] <= 2) for t in events
    )
    counted = {
        r.name: (r.counts[0], r.counts[1], r.counts[2], r.counts[4], r.counts[5])
        for r in view.report.cards
    }
    assert counted == independent_count(events)
    rule_cards = {
        r.key: r.lists for r in dict((c, rows) for c, _l, rows in view.features)["rule_card"]
    }
    assert sum(rule_cards.values()) == 19 - sum(
        1 for i, n in enumerate((6, 5, 8)) for j in range(n) if RULE_CARDS[(j + i) % 4] is None
    )
    month = MetaSnapshot.objects.get(tournament__isnull=True)
    assert month.lists == 19


def test_unpublished_lists_never_count(catalogue):
    hidden = play_event(4, publish=False, seed=1)
    shown = play_event(4, seed=2)
    meta_recompute(tournament_id=hidden.pk)
    meta_recompute(tournament_id=shown.pk)
    assert not MetaSnapshot.objects.filter(tournament=hidden).exists()
    assert set(published_submissions().values_list("member__tournament", flat=True)) == {shown.pk}
    whole = meta_view(MetaQuery(game="hkk"))
    assert whole.report.lists == 4
    assert meta_view(MetaQuery(game="hkk", tournament_id=hidden.pk)).report.lists == 0
    # Unpublishing afterwards hides the stored statistics at once, before any recompute.
    Tournament.objects.filter(pk=shown.pk).update(decklists_published=False)
    assert meta_view(MetaQuery(game="hkk")).report.lists == 0
    assert not published_submissions().exists()


def test_a_player_who_opts_out_is_not_counted(catalogue, django_user_model):
    t = play_event(4, seed=3)
    meta_recompute(tournament_id=t.pk)
    player = DeckSubmission.objects.filter(member__tournament=t, locked=True).first().member.player
    user = django_user_model.objects.create_user("optout", password="x" * 12)
    player.user = user
    player.save()
    assert consent_set(user=user, share_lists=False) == 1
    meta_recompute(tournament_id=t.pk)
    assert meta_view(MetaQuery(game="hkk")).report.lists == 3
    assert not published_submissions(player=player).exists()
    consent_set(user=user, share_lists=True)
    meta_recompute(tournament_id=t.pk)
    assert meta_view(MetaQuery(game="hkk")).report.lists == 4
    assert published_submissions(player=player).count() == 1


def test_lists_public_at_the_cut_only_once_a_cut_began(catalogue):
    t, _ = make_tournament(entries=4)
    services.tournament_set_options(
        actor=SYSTEM, tournament=t, decklists_published=True, decklists_published_at="at_cut"
    )
    start_and_pair(t)
    assert not published_submissions(tournament=t).exists()


def test_reopening_an_event_removes_its_statistics(catalogue):
    t = play_event(4, seed=4)
    meta_recompute(tournament_id=t.pk)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    assert meta_recompute(tournament_id=t.pk) is None
    assert not MetaSnapshot.objects.exists()
