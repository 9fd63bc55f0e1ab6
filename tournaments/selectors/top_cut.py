"""The top-cut bracket for pages and the API: each bracket round with its tables, seeds and
scores (docs/rules.md §14 (Swiss pairing and byes))."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
