"""Reads of the meta statistics and of what is public: the published lists (event published +
player's consent), the stored statistics summed over a filter, and their rows for the pages,
the exports and the API (docs/rules.md §20 (Meta statistics)).

Public lists: :func:`published_submissions` is the one definition every reader uses (the
statistics, and the player profiles): the locked list of an entry member whose event is
public, publishes its lists (``Tournament.decklists_published``) and has reached the moment
its ``decklists_published_at`` names (finished, or its top cut begun), and whose player has not
opted out (``ListConsent.share_lists``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext

from decks.models import Format
from hkk_tournament.errors import ValidationFailed
from tournaments.domain.games import GAMES, GameRules
from tournaments.domain.meta import DIMENSIONS, CardRow, GroupRow, MetaReport, Tally, report
from tournaments.models import DeckSubmission, ListConsent, MetaSnapshot, Player, Round, Tournament

__all__ = [
    "MetaQuery",
    "MetaView",
    "consent_of",
    "meta_formats",
    "meta_games",
    "meta_query_check",
    "meta_view",
    "percent_text",
    "public_events",
    "published_submissions",
]

S = Tournament.Status
P = Tournament.ListsPublished


def public_events(*, counted_only: bool = False) -> QuerySet[Tournament]:
    """Events whose published lists are public now: public, lists published, and finished
    (or, with ``decklists_published_at`` "at the top cut", a top-cut round exists).
    ``counted_only``: finished events only (the statistics need final ranks)."""
    published = Tournament.objects.filter(is_public=True, decklists_published=True)
    finished = Q(status=S.FINISHED)
    if counted_only:
        return published.filter(finished)
    cut = Exists(Round.objects.filter(tournament=OuterRef("pk"), stage=Round.Stage.TOP_CUT))
    return published.filter(finished | Q(Q(decklists_published_at=P.AT_CUT), cut))


def published_submissions(
    *,
    player: Player | None = None,
    tournament: Tournament | None = None,
    counted_only: bool = False,
) -> QuerySet[DeckSubmission]:
    """The public lists: each entry member's locked list in a :func:`public_events` event,
    unless the member's player opted out of publication (``ListConsent``). Filtered to one
    ``player`` or one ``tournament`` when given; ``counted_only`` as in :func:`public_events`.
    Ordered by event then member."""
    opted_out = ListConsent.objects.filter(player=OuterRef("member__player"), share_lists=False)
    qs = DeckSubmission.objects.filter(
        locked=True,
        member__tournament__in=public_events(counted_only=counted_only),
    ).exclude(Exists(opted_out))
    if player is not None:
        qs = qs.filter(member__player=player)
    if tournament is not None:
        qs = qs.filter(member__tournament=tournament)
    return qs.select_related("member", "member__entry", "member__player").order_by(
        "member__tournament_id", "member_id"
    )


def consent_of(user: Any) -> bool:
    """Whether ``user``'s lists count in the meta statistics: ``False`` once any of their
    players opted out (``ListConsent.share_lists``), else ``True`` (the default)."""
    return not ListConsent.objects.filter(player__user=user, share_lists=False).exists()


def meta_games() -> list[GameRules]:
    """The registered games (``tournaments.domain.games.GAMES``) that have a format."""
    slugs = set(Format.objects.values_list("game__slug", flat=True))
    return [game for code, game in GAMES.items() if code in slugs]


def meta_formats(game: str) -> QuerySet[Format]:
    """The formats of ``game`` (its ``decks.Game`` slug), by name."""
    return Format.objects.filter(game__slug=game).order_by("name")


@dataclass(frozen=True, slots=True)
class MetaQuery:
    """A filter of the statistics: a game (slug), optionally one format (slug), an inclusive
    date range of the events, or one event."""

    game: str
    format: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    tournament_id: int | None = None


def meta_query_check(query: MetaQuery) -> MetaQuery:
    """``query`` when it names a game with statistics and, if any, a format of that game, and
    its date range does not end before it starts.

    Raises:
        ValidationFailed: ``invalid_filter`` with the field at fault in ``fields``.
    """
    fields: dict[str, list[str]] = {}
    if query.game not in {g.code for g in meta_games()}:
        fields["game"] = [gettext("There are no statistics of this game.")]
    elif query.format and not meta_formats(query.game).filter(slug=query.format).exists():
        fields["format"] = [gettext("This game has no such format.")]
    if query.date_from and query.date_to and query.date_from > query.date_to:
        fields["date_to"] = [gettext("The end of the date range is before its start.")]
    if fields:
        raise ValidationFailed(
            "invalid_filter", gettext("Check the filter of the statistics."), {}, fields=fields
        )
    return query


def _snapshots(query: MetaQuery) -> QuerySet[MetaSnapshot]:
    qs = MetaSnapshot.objects.filter(
        tournament__in=public_events(counted_only=True), format__game__slug=query.game
    )
    if query.format:
        qs = qs.filter(format__slug=query.format)
    if query.date_from:
        qs = qs.filter(event_date__gte=query.date_from)
    if query.date_to:
        qs = qs.filter(event_date__lte=query.date_to)
    if query.tournament_id is not None:
        qs = qs.filter(tournament_id=query.tournament_id)
    return qs


def percent_text(share: Fraction) -> str:
    """A share as a per cent with two decimals in the active language's number format
    (Hungarian: ``"23,68 %"``), rounded half up."""
    value = (Decimal(share.numerator) * 100 / Decimal(share.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    return f"{number_format(value, 2)} %"


def decimal_text(value: Fraction) -> str:
    """A number with two decimals in the active language's format (``"1,50"``)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return number_format(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), 2)


def _exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value)


@dataclass(frozen=True, slots=True)
class MetaView:
    """The statistics of a :class:`MetaQuery`: the report and its rows, ready for a page, a
    CSV or JSON. ``features``: ``[(code, translated label, rows)]`` in the game's order;
    ``win_feature``: the feature win rates are kept by."""

    query: MetaQuery
    report: MetaReport
    game: GameRules
    features: list[tuple[str, str, tuple[GroupRow, ...]]]
    win_feature: str | None
    min_matches: int

    @property
    def signature_cards(self) -> list[CardRow]:
        """Rows of the game's separate card table (HKK narancslapok)."""
        return [r for r in self.report.cards if r.kind in self.game.meta_signature_kinds]

    @property
    def other_cards(self) -> list[CardRow]:
        """Rows of every other card (HKKmeta's "TOP lapok")."""
        return [r for r in self.report.cards if r.kind not in self.game.meta_signature_kinds]


def meta_view(query: MetaQuery) -> MetaView:
    """The statistics of ``query``: the stored tallies of the matching events summed
    (``MetaSnapshot``, only of events public and finished now), read out exactly.

    Raises ``KeyError`` for a game with no ``GAMES`` entry (the pages offer only those)."""
    game = GAMES[query.game]
    tally = Tally()
    for data in _snapshots(query).values_list("tally", flat=True).iterator(chunk_size=200):
        tally.merge_json(data)
    min_matches = settings.HKK_META_MIN_MATCHES
    rep = report(tally, min_matches=min_matches)
    features = [
        (code, gettext(DIMENSIONS[code].label), rep.groups.get(code, ()))
        for code in game.meta_features
    ]
    return MetaView(query, rep, game, features, game.meta_win_feature, min_matches)


def card_dict(row: CardRow) -> dict[str, Any]:
    """A card row as JSON: counts, exact shares (``"9/38"``) and HKKmeta's four columns."""
    n = row.counts
    return {
        "name": row.name,
        "kind": row.kind,
        "main_lists": n[0],
        "main_copies": n[1],
        "main_top_lists": n[2],
        "main_top_copies": n[3],
        "side_lists": n[4],
        "side_copies": n[5],
        "side_top_lists": n[6],
        "side_top_copies": n[7],
        "main_share": _exact(row.main_share),
        "main_average": _exact(row.main_average),
        "main_top_share": _exact(row.main_top_share),
        "main_top_of": _exact(row.main_top_of),
        "side_share": _exact(row.side_share),
        "side_average": _exact(row.side_average),
        "side_top_share": _exact(row.side_top_share),
        "side_top_of": _exact(row.side_top_of),
    }


def group_dict(row: GroupRow) -> dict[str, Any]:
    """A feature row as JSON; ``win_rate`` is ``None`` below the minimum sample."""
    return {
        "value": row.key,
        "lists": row.lists,
        "share": _exact(row.share),
        "top_lists": row.top_lists,
        "top_share": _exact(row.top_share),
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
        "win_rate": None if row.win_rate is None else _exact(row.win_rate),
    }


def view_dict(view: MetaView) -> dict[str, Any]:
    """The whole view as JSON (the API's and the JSON export's shape)."""
    q = view.query
    return {
        "game": q.game,
        "format": q.format,
        "date_from": q.date_from.isoformat() if q.date_from else None,
        "date_to": q.date_to.isoformat() if q.date_to else None,
        "tournament": q.tournament_id,
        "events": view.report.events,
        "lists": view.report.lists,
        "top_lists": view.report.top_lists,
        "min_matches": view.min_matches,
        "cards": [card_dict(r) for r in view.report.cards],
        "features": {code: [group_dict(r) for r in rows] for code, _label, rows in view.features},
        "win_feature": view.win_feature,
    }


def chart_data(view: MetaView, *, limit: int = 15) -> dict[str, Any]:
    """Data for the page's charts (``<script type="application/json">``, read by
    ``meta.js``): the ``limit`` most played cards (main and sideboard lists), and each
    feature's values by lists."""

    def bars(labels: Iterable[str], *series: tuple[str, list[int]]) -> dict[str, Any]:
        return {"labels": list(labels), "series": [{"label": s, "data": d} for s, d in series]}

    top = list(view.report.cards[:limit])
    return {
        "cards": bars(
            (r.name for r in top),
            (gettext("Main deck"), [r.counts[0] for r in top]),
            (gettext("Sideboard"), [r.counts[4] for r in top]),
        ),
        "features": [
            {
                "code": code,
                "title": label,
                **bars(
                    (r.key for r in rows[:limit]),
                    (gettext("Lists"), [r.lists for r in rows[:limit]]),
                ),
            }
            for code, label, rows in view.features
            if rows
        ],
    }
