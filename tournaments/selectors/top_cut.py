"""The top-cut bracket for pages and the API: each bracket round with its tables, seeds and
scores (docs/rules.md §14 (Swiss pairing and byes))."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Tournament
from tournaments.selectors.pairings import MatchView, round_match_views


@dataclass
class BracketRoundView:
    """One bracket round: the round, its tables (``MatchView``) and ``seeds`` (entry → seed)."""

    round: Round
    matches: list[MatchView]
    seeds: dict[int, int]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Per table: the view with both seeds (``a_seed``, ``b_seed``)."""
        return [
            {
                "m": v,
                "a_seed": self.seeds.get(v.match.entry_a_id),
                "b_seed": self.seeds.get(v.match.entry_b_id or 0),
            }
            for v in self.matches
        ]


def top_cut_rounds(*, tournament: Tournament, user: Any = None) -> list[BracketRoundView]:
    """The top-cut rounds of ``tournament`` in order (published and finished only)."""
    rounds = tournament.rounds.filter(stage=Round.Stage.TOP_CUT).exclude(status=Round.Status.DRAFT)
    out = []
    for rnd in rounds.order_by("number"):
        rnd.tournament = tournament
        seeds = {int(k): int(v) for k, v in (rnd.bracket.get("seeds") or {}).items()}
        out.append(BracketRoundView(rnd, round_match_views(round=rnd), seeds))
    return out


@dataclass
class BracketSlot:
    """One match of the bracket tree: seeds, names and games won per side (``None`` while not
    known), ``winner`` ``"a"``/``"b"`` once its round is finished, ``table`` once paired."""

    table: int | None = None
    a_seed: int | None = None
    a_name: str = ""
    a_wins: int | None = None
    b_seed: int | None = None
    b_name: str = ""
    b_wins: int | None = None
    winner: str | None = None


@dataclass
class BracketStage:
    """One column of the bracket tree: its name (Quarterfinals, Semifinals, Final …), the
    round once paired, and its matches (future matches empty)."""

    label: str | Promise
    round: Round | None
    slots: list[BracketSlot] = field(default_factory=list)


def _stage_label(entries_left: int) -> str | Promise:
    if entries_left == 2:
        return _("Final")
    if entries_left == 4:
        return _("Semifinals")
    if entries_left == 8:
        return _("Quarterfinals")
    return _("Round of %(count)s") % {"count": entries_left}


def _slot(row: dict[str, Any], finished: bool) -> BracketSlot:
    m: MatchView = row["m"]
    a, b = m.score.a_wins, m.score.b_wins
    winner = ("a" if a > b else "b") if finished and a != b else None
    return BracketSlot(m.table, row["a_seed"], m.a_name, a, row["b_seed"], m.b_name, b, winner)


def bracket_tree(bracket: list[BracketRoundView]) -> list[BracketStage]:
    """The whole single-elimination tree from the paired bracket rounds (the top-cut data of
    ``top_cut_rounds``): one :class:`BracketStage` per stage down to the final, the stages not
    paired yet with empty matches (half as many each stage). Empty without a top cut. Source:
    docs/rules.md §14 (Swiss pairing and byes: top cut)."""
    if not bracket or not bracket[0].matches:
        return []
    size = 2 ** math.ceil(math.log2(2 * len(bracket[0].matches)))
    stages: list[BracketStage] = []
    left, index = size, 0
    while left >= 2:
        paired = bracket[index] if index < len(bracket) else None
        finished = paired is not None and paired.round.status == Round.Status.FINISHED
        slots = (
            [_slot(row, finished) for row in paired.rows]
            if paired is not None
            else [BracketSlot() for _slot_index in range(left // 2)]
        )
        stages.append(BracketStage(_stage_label(left), paired.round if paired else None, slots))
        left, index = left // 2, index + 1
    return stages
