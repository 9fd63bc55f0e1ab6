"""Read model of a round's tables as shown by the pages, the API and the printouts: each match
with its entries' names, games, score and the first-player holder of the next game (computed
from prefetched games, no query per match), the alphabetical pairings list, a player's own
matches, and the texts explaining a first-player decision or a relaxed pairing rule. No writes.

Rules: docs/rules.md §6 (HKK first-player rights), §14 (Swiss pairing and byes).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.utils.translation import get_language, gettext

from tournaments.domain import first_player as fp
from tournaments.domain.match_structure import MatchStructure
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.models.entries import person_name
from tournaments.permissions import player_entry_ids
from tournaments.selectors.entries import (
    name_order_by_entry,
    name_sort_key,
    names_by_entry,
    names_of_entries,
)
from tournaments.selectors.matches import MatchScore, match_games, match_score, match_state
from tournaments.selectors.paging import SearchedPage, name_matches, paginate, search_needle

# --- explanations -------------------------------------------------------------------------


def right_explanation(decision: fp.RightDecision, *, seat: str | None) -> str:
    """Human text for a first-player decision, e.g. "game 2: player 2 (B) per rule"
    (Hungarian: "2. játszma: 2. játékos (B) a szabály szerint"). ``seat`` is the holder's
    seat at the table (A = ``entry_a``, B = ``entry_b``). docs/rules.md §6 (HKK first-player
    rights)."""
    p = dict(decision.params)
    values = {
        "game": decision.game_number,
        "player": p.get("player", ""),
        "seat": seat or "",
        "previous": p.get("previous", decision.game_number - 1),
    }
    chooses = decision.mode == fp.RightMode.CHOOSES
    if chooses and decision.reason == "die_roll" and not decision.needs_roll:
        return (
            gettext("game %(game)s: player 1 (%(seat)s) won the die roll and chooses who starts")
            % values
        )
    if decision.needs_roll:
        if decision.reason == "reroll_game_3":
            return gettext("game %(game)s: a new die roll decides (agreed before game 1)") % values
        return gettext("game %(game)s: a die roll decides") % values
    texts = {
        "die_roll": gettext("game %(game)s: player 1 (%(seat)s) won the die roll"),
        "player_2_game_2": gettext("game %(game)s: player %(player)s (%(seat)s) per rule"),
        "player_1_game_3": gettext("game %(game)s: player %(player)s (%(seat)s) per rule"),
        "reroll_game_3": gettext(
            "game %(game)s: player %(player)s (%(seat)s) won the agreed re-roll"
        ),
        "loser_of_previous": gettext(
            "game %(game)s: player %(player)s (%(seat)s) lost game %(previous)s and chooses"
        ),
        "same_after_draw": gettext(
            "game %(game)s: player %(player)s (%(seat)s) chooses again after the drawn game "
            "%(previous)s"
        ),
        "alternate": gettext("game %(game)s: player %(player)s (%(seat)s) chooses in turn"),
    }
    template = texts.get(decision.reason, gettext("game %(game)s: player %(player)s (%(seat)s)"))
    return template % values


def relaxation_message(code: str, names: Sequence[str]) -> str:
    """Why a hard pairing rule was relaxed (shown to the organiser with the draft round);
    docs/rules.md §14 (Swiss pairing and byes)."""
    joined = ", ".join(names)
    if code == "second_bye":
        return gettext(
            "Nobody without a bye could take it while the rest stayed pairable, so %(names)s "
            "received a second bye."
        ) % {"names": joined}
    if code == "rematch":
        return gettext(
            "No pairing without a rematch exists, so %(names)s play each other again."
        ) % {"names": joined}
    return gettext("Relaxed rule %(code)s for %(names)s.") % {"code": code, "names": joined}


# --- tables of a round --------------------------------------------------------------------


@dataclass
class RightView:
    """The first-player right for the next game of a match (``holder`` and ``seat`` are ``None``
    while a die roll decides)."""

    game: int
    holder: int | None
    seat: str | None
    needs_roll: bool
    reason: str
    text: str
    mode: str = "holds_right"

    @property
    def chooses(self) -> bool:
        """The holder chooses who starts (WoW TCG, Blue Moon) rather than holding a right."""
        return self.mode == "chooses"


@dataclass
class MatchView:
    """One table of a round with its games, score and the current first-player holder."""

    match: Match
    a_name: str
    b_name: str
    games: list[Any]
    score: MatchScore
    right: RightView | None

    @property
    def table(self) -> int:
        return self.match.table

    @property
    def is_bye(self) -> bool:
        return self.match.entry_b_id is None

    @property
    def names(self) -> dict[int, str]:
        """Entry id → name of the entries at this table (only entry A at a bye)."""
        names = {self.match.entry_a_id: self.a_name}
        if self.match.entry_b_id is not None:
            names[self.match.entry_b_id] = self.b_name
        return names

    @property
    def holder_name(self) -> str:
        if self.right is None or self.right.holder is None:
            return ""
        return self.a_name if self.right.holder == self.match.entry_a_id else self.b_name


def _seat(match: Match, entry_id: int | None) -> str | None:
    if entry_id is None:
        return None
    return "A" if entry_id == match.entry_a_id else "B"


def next_right_view(match: Match, games: list[Any], structure: MatchStructure) -> RightView | None:
    """The right for the next game from already loaded ``games`` (no query) under the
    tournament's match ``structure``;
    ``None`` for a bye, a complete or decided match or a match the policy allows no further
    game in. ``mode`` is ``holds_right`` (HKK) or ``chooses`` (WoW TCG, Blue Moon)."""
    if match.entry_b_id is None:
        return None
    if match_score(match, games).complete:
        return None
    try:
        decision = fp.next_right(match_state(match, games), structure)
    except fp.InconsistentGame:
        return None
    seat = _seat(match, decision.holder)
    return RightView(
        game=decision.game_number,
        holder=decision.holder,
        seat=seat,
        needs_roll=decision.needs_roll,
        reason=decision.reason,
        text=right_explanation(decision, seat=seat),
        mode=str(decision.mode),
    )


def _match_view(m: Match, names: dict[int, str], tournament: Tournament) -> MatchView:
    """One table's view: names, games, score and the next first-player right."""
    games = match_games(m)
    return MatchView(
        match=m,
        a_name=names.get(m.entry_a_id, ""),
        b_name=names.get(m.entry_b_id, "") if m.entry_b_id else "",
        games=games,
        score=match_score(m, games),
        right=next_right_view(m, games, tournament.structure),
    )


def round_matches(*, round: Round) -> list[Match]:
    """Every match of ``round`` in table order, its games prefetched: two queries."""
    return list(round.matches.prefetch_related("games").order_by("table"))


def round_match_views(*, round: Round, matches: list[Match] | None = None) -> list[MatchView]:
    """Every table of ``round`` in table order, games prefetched: three queries in all; one
    (the names, in the active language) when ``matches`` (:func:`round_matches` of this round,
    read earlier) are given."""
    tournament = round.tournament
    names = names_by_entry(tournament)
    if matches is None:
        matches = round_matches(round=round)
    views = []
    for m in matches:
        m.round = round
        views.append(_match_view(m, names, tournament))
    return views


@dataclass(frozen=True)
class TablesPage(SearchedPage):
    """One page of a round's tables for the live page: ``matches`` (:class:`MatchView`, table
    order), ``order`` (entry id → its sort key by name, :func:`name_order_by_entry`'s shape, for
    the entries of those tables: read with their names, so :func:`pairings_by_name` needs no
    query) and, from :class:`~tournaments.selectors.paging.SearchedPage`, the page over the
    matching tables, the ``total`` tables of the round and the search text ``q``."""

    matches: list[MatchView]
    order: dict[int, tuple[str, str, int]]


#: Name indexes kept in this process, newest last: ``round_name_index`` key → index.
_INDEXES: OrderedDict[str, list[tuple[str, int]]] = OrderedDict()
_INDEXES_LOCK = threading.Lock()
#: Rounds whose index a process keeps (a few hundred kB each at 4,096 entries).
INDEXES_KEPT = 8
#: Seconds the shared cache keeps an index (an entry renamed during a round shows under its
#: new name once the index is rebuilt: at the latest after this).
INDEX_SECONDS = 600


def _index_key(round: Round) -> str:
    """The index's key: the round, its publication and the active language (names are shown,
    and so searched, family name first in Hungarian, given name first in English)."""
    stamp = round.published_at.timestamp() if round.published_at is not None else 0
    return f"round-names:{round.pk}:{stamp}:{get_language()}"


def round_name_index(*, round: Round, rebuild: bool = False) -> list[tuple[str, int]]:
    """The "find my table" index of a published or finished ``round``: ``(normalised name,
    table)`` for each seat (``search_needle`` form, so a search only compares strings). Built
    from two queries once per round (``rebuild``: now, as the warm-up after a publish does),
    kept per language (the names' order) in the shared cache for ``INDEX_SECONDS`` and in
    each process (``INDEXES_KEPT`` rounds and languages), so a search never normalises the
    event's names again."""
    key = _index_key(round)
    if not rebuild:
        with _INDEXES_LOCK:
            index = _INDEXES.get(key)
        if index is None:
            index = cache.get(key)
        if index is not None:
            _keep_index(key, index)
            return index
    names = names_by_entry(round.tournament)
    index = []
    for table, a, b in round.matches.values_list("table", "entry_a_id", "entry_b_id"):
        for entry in (a, b):
            if entry is not None:
                index.append((search_needle(names.get(entry, "")), table))
    cache.set(key, index, INDEX_SECONDS)
    _keep_index(key, index)
    return index


def _keep_index(key: str, index: list[tuple[str, int]]) -> None:
    with _INDEXES_LOCK:
        _INDEXES[key] = index
        _INDEXES.move_to_end(key)
        while len(_INDEXES) > INDEXES_KEPT:
            _INDEXES.popitem(last=False)


def round_tables_page(*, round: Round, number: int, size: int, q: str = "") -> TablesPage:
    """Page ``number`` (clamped to the last) of ``size`` tables of ``round`` in table order;
    with a search text ``q`` only the tables where an entry's name contains it (case- and
    accent-insensitive). Reads only that page's matches, games and names: five queries at
    most, whatever the size of the round. A search in a published or finished round reads the
    round's name index (:func:`round_name_index`); in a draft it reads the event's names."""
    tournament = round.tournament
    matches = round.matches.order_by("table")
    if q:
        needle = search_needle(q)
        if round.status == Round.Status.DRAFT:
            found = [
                pk for pk, name in names_by_entry(tournament).items() if name_matches(name, needle)
            ]
            matches = matches.filter(Q(entry_a_id__in=found) | Q(entry_b_id__in=found))
        else:
            index = round_name_index(round=round)
            matches = matches.filter(table__in={t for name, t in index if needle in name})
    page = paginate(matches.prefetch_related("games"), number=number, size=size)
    total = round.matches.count() if q else page.paginator.count
    chosen = list(page.object_list)
    ids = {m.entry_a_id for m in chosen} | {m.entry_b_id for m in chosen if m.entry_b_id}
    rows = (
        list(
            Entry.objects.filter(pk__in=ids).values_list("id", "name", "family_name", "given_name")
        )
        if ids
        else []
    )
    names = {pk: person_name(f, g, name) for pk, name, f, g in rows}
    order = {pk: (*name_sort_key(name, f, g), pk) for pk, name, f, g in rows}
    views = []
    for m in chosen:
        m.round = round
        views.append(_match_view(m, names, tournament))
    return TablesPage(matches=views, page=page, total=total, q=q, order=order)


def match_view(*, match: Match) -> MatchView:
    """One match as :class:`MatchView` (for the result-entry page and the API); the names of
    its two entries only (one query)."""
    tournament = match.round.tournament
    names = names_of_entries((match.entry_a_id, match.entry_b_id))
    return _match_view(match, names, tournament)


def my_matches(*, tournament: Tournament, user: Any) -> list[MatchView]:
    """``user``'s matches in the published and finished rounds of ``tournament`` (round
    order), as :class:`MatchView` with the first-player holder of the next game."""
    ids = player_entry_ids(user, tournament)
    if not ids:
        return []
    names = names_by_entry(tournament)
    matches = (
        Match.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(Q(entry_a_id__in=ids) | Q(entry_b_id__in=ids))
        .select_related("round")
        .prefetch_related("games")
        .order_by("round__number", "table")
    )
    views = []
    for m in matches:
        m.round.tournament = tournament
        views.append(_match_view(m, names, tournament))
    return views


def pairings_by_name(
    views: list[MatchView], order: dict[int, tuple[str, str, int]] | None = None
) -> list[dict[str, Any]]:
    """The entries of ``views`` (one round's tables) → table, seat and opponent (``opponent``
    ``None`` = bye), by family name, then given name (a team by its name). ``order``: the
    entries' sort keys when the caller read them with the names (``TablesPage.order``), else
    read here (one query)."""
    rows = []
    for v in views:
        m = v.match
        rows.append(
            {
                "entry": m.entry_a_id,
                "name": v.a_name,
                "table": m.table,
                "seat": "A",
                "opponent": m.entry_b_id,
                "opponent_name": v.b_name,
            }
        )
        if m.entry_b_id is not None:
            rows.append(
                {
                    "entry": m.entry_b_id,
                    "name": v.b_name,
                    "table": m.table,
                    "seat": "B",
                    "opponent": m.entry_a_id,
                    "opponent_name": v.a_name,
                }
            )
    if order is None:
        order = name_order_by_entry(views[0].match.round.tournament) if views else {}
    return sorted(rows, key=lambda r: order.get(r["entry"], (r["name"].casefold(), "", 0)))


def round_pairings(round: Round) -> list[dict[str, Any]]:
    """Tables of ``round`` for the exports: ``[{"table", "match", "a", "b", "a_name",
    "b_name", "a_wins", "b_wins", "draws", "complete", "match_points": {id: n}}]``."""
    names = names_by_entry(round.tournament)
    rows = []
    for m in round.matches.select_related("round__tournament").prefetch_related("games"):
        s = match_score(m)
        rows.append(
            {
                "table": m.table,
                "match": m.pk,
                "a": m.entry_a_id,
                "b": m.entry_b_id,
                "a_name": names.get(m.entry_a_id, ""),
                "b_name": names.get(m.entry_b_id, "") if m.entry_b_id else "",
                "a_wins": s.a_wins,
                "b_wins": s.b_wins,
                "draws": s.draws,
                "complete": s.complete,
                "match_points": s.points,
            }
        )
    return rows
