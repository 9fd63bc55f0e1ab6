"""Meta statistics: recompute the stored statistics of an event and its format's month, and a
player's consent to count in them (docs/rules.md §20 (Meta statistics)).

``meta_recompute`` runs as the Celery job ``tournaments.meta_recompute`` (``jobs.enqueue_meta``)
when an event finishes or is reopened, when its lists' publication changes, and when a player
changes their consent. It is idempotent: it reads the committed state under the event's lock
and replaces what was stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from decks.domain.index import CardIndex
from decks.selectors.cards import get_card_index
from tournaments import selectors
from tournaments.domain import standings as standings_domain
from tournaments.domain.games import get_game
from tournaments.domain.meta import (
    CardFacts,
    ListLine,
    MetaList,
    Tally,
    hkkmeta_rows,
    tally_event,
    top_size,
)
from tournaments.models import DeckSubmission, ListConsent, MetaSnapshot, Player, Tournament
from tournaments.selectors.meta import MetaView, card_dict, published_submissions
from tournaments.services._common import lock_tournament, scoring_for
from tournaments.services.csv_files import csv_text
from tournaments.services.jobs import enqueue_meta
from tournaments.services.standings import standings_stored_rows

__all__ = ["consent_set", "meta_cards_csv", "meta_hkkmeta_csv", "meta_lists", "meta_recompute"]


def _facts(
    game: str, line: Mapping[str, Any], cache: dict[str, CardFacts], index: CardIndex
) -> CardFacts:
    card_id, name = str(line.get("id") or ""), str(line.get("name") or "")
    key = card_id or name
    facts = cache.get(key)
    if facts is None:
        card = index.by_id(game, card_id) if card_id else None
        if card is None:
            facts = CardFacts(name)
        else:
            facts = CardFacts(
                card.name,
                kind=str(card.kind),
                colours=tuple(card.colours or ()),
                traits={k: tuple(sorted(v)) for k, v in card.hero_traits.items()},
                people=str((card.attributes or {}).get("people") or ""),
            )
        cache[key] = facts
    return facts


def _lines(
    game: str, data: Any, cache: dict[str, CardFacts], index: CardIndex
) -> tuple[ListLine, ...]:
    if not isinstance(data, Mapping):
        return ()
    return tuple(
        ListLine(str(section), _facts(game, line, cache, index), int(line.get("count") or 1))
        for section, lines in data.items()
        if isinstance(lines, list)
        for line in lines
        if isinstance(line, Mapping)
    )


def meta_lists(
    *, tournament: Tournament, submissions: Sequence[DeckSubmission], ranks: Mapping[int, int]
) -> list[MetaList]:
    """The domain lists of ``submissions`` (of ``tournament``), each marked top when its
    entry's rank in ``ranks`` (entry id → final rank) is within ``domain.meta.top_size`` of the
    ranked field (``HKK_META_TOP_COUNT``, ``HKK_META_TOP_PERCENT``). Card facts come from the
    catalogue by the list's card ids; a card it lacks counts by name only."""
    game = tournament.format.game.slug
    top = top_size(
        len(ranks), count=settings.HKK_META_TOP_COUNT, percent=settings.HKK_META_TOP_PERCENT
    )
    cache: dict[str, CardFacts] = {}
    index = get_card_index()  # once: each call checks the catalogue's version
    return [
        MetaList(
            sub.member.entry_id,
            ranks.get(sub.member.entry_id, top + 1) <= top,
            _lines(game, sub.data, cache, index),
        )
        for sub in submissions
    ]


def _results(tournament: Tournament) -> dict[int, list[tuple[int, int]]]:
    scoring = scoring_for(tournament)
    stats = standings_domain.collect_stats(
        selectors.match_records(tournament),
        scoring=scoring,
        games_per_match=tournament.structure.games_per_match,
    )
    outcome = {scoring.match_win: 1, scoring.match_loss: -1}
    return {
        entry: [(opp, outcome.get(points, 0)) for opp, points in s.results]
        for entry, s in stats.items()
    }


def _event_tally(tournament: Tournament) -> Tally | None:
    submissions = list(published_submissions(tournament=tournament, counted_only=True))
    if not submissions:
        return None
    snapshot = selectors.standings_snapshot(tournament)
    if snapshot is not None and snapshot.recompute_requested_at is not None:
        snapshot = None  # a recompute is pending: the stored rows may be behind
    rows = standings_stored_rows(tournament=tournament, snapshot=snapshot)
    ranks = {int(r["entry"]): int(r["rank"]) for r in rows}
    rules = get_game(tournament.format.game.slug)
    return tally_event(
        meta_lists(tournament=tournament, submissions=submissions, ranks=ranks),
        dimensions=rules.meta_features,
        win_dimension=rules.meta_win_feature,
        results=_results(tournament),
    )


def _event_date(tournament: Tournament) -> Any:
    moment = tournament.starts_at or tournament.finished_at or tournament.created_at
    return timezone.localdate(moment)


def _month_update(
    format_id: int, day: Any, *, remove: Mapping[str, Any] | None, add: Mapping[str, Any] | None
) -> None:
    """Take one event's old tally out of its format's month and put its new one in (the
    month's row locked); a month left without lists is deleted."""
    period = f"{day.year:04d}-{day.month:02d}"
    row = (
        MetaSnapshot.objects.select_for_update()
        .filter(format_id=format_id, tournament__isnull=True, period=period)
        .first()
    )
    tally = Tally.from_json(row.tally) if row is not None else Tally()
    if remove is not None and row is not None:
        tally.merge_json(remove, sign=-1)
    if add is not None:
        tally.merge_json(add)
    if tally.lists <= 0:
        if row is not None:
            row.delete()
        return
    if row is None:
        row = MetaSnapshot(format_id=format_id, period=period, event_date=day.replace(day=1))
    row.lists, row.tally = tally.lists, tally.to_json()
    row.save()


@transaction.atomic
def meta_recompute(*, tournament_id: int) -> MetaSnapshot | None:
    """Recompute the stored meta statistics of event ``tournament_id`` and update its format's
    month (the sum of the month's events: the event's old counts out, its new ones in), under
    the event's lock (its status and publication
    live on its row). An event that is not finished, public and publishing its lists, or has
    no list that counts, keeps no statistics (its stored row is deleted). Returns the event's
    row or ``None``. Raises ``Tournament.DoesNotExist`` for an unknown id."""
    tournament = lock_tournament(tournament_id)
    old = MetaSnapshot.objects.filter(tournament=tournament).first()
    if old is not None:
        old.delete()
        _month_update(old.format_id, old.event_date, remove=old.tally, add=None)
    tally = _event_tally(tournament)
    if tally is None:
        return None
    snapshot = MetaSnapshot.objects.create(
        format=tournament.format,
        tournament=tournament,
        event_date=_event_date(tournament),
        lists=tally.lists,
        tally=tally.to_json(),
    )
    _month_update(snapshot.format_id, snapshot.event_date, remove=None, add=snapshot.tally)
    return snapshot


@transaction.atomic
def consent_set(*, user: Any, share_lists: bool) -> int:
    """Set whether ``user``'s published lists count in the meta statistics (and show as public
    lists), for every player linked to the account; recomputes the statistics of their
    finished events after the commit. Returns the number of players changed."""
    players = list(Player.objects.filter(user=user).select_for_update())
    changed = 0
    for player in players:
        consent, created = ListConsent.objects.get_or_create(
            player=player, defaults={"share_lists": share_lists}
        )
        if created or consent.share_lists != share_lists:
            consent.share_lists = share_lists
            consent.save(update_fields=["share_lists", "changed_at"])
            changed += 1
    events = Tournament.objects.filter(
        entries__members__player__in=players, status=Tournament.Status.FINISHED
    ).distinct()
    if changed:
        for pk in events.values_list("pk", flat=True):
            enqueue_meta(pk)
    return changed


def meta_cards_csv(*, view: MetaView) -> str:
    """Every card row of ``view`` as CSV (``SafeCsvWriter``): the columns of
    ``selectors.meta.card_dict``, shares as exact fractions."""
    rows = [card_dict(r) for r in view.report.cards]
    header = list(card_dict(view.report.cards[0])) if rows else ["name"]
    return csv_text([header, *([row[k] for k in header] for row in rows)])


def meta_hkkmeta_csv(*, view: MetaView, signature: bool) -> str:
    """HKKmeta's CSV of ``view`` (``domain.meta.hkkmeta_rows``): its "narancslapok" table
    (``signature``: the game's signature card kinds) or its top cards (every other card)."""
    rows = view.signature_cards if signature else view.other_cards
    return csv_text(hkkmeta_rows(rows))
