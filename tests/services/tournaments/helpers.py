"""Shared helpers of the tournament service tests: playing matches and rounds."""

from __future__ import annotations

from tournaments import services
from tournaments.models import Match
from tournaments.permissions import SYSTEM


def play(match: Match, winners, *, waive=()):
    """Record games of ``match`` following the policy: ``winners`` is a list of "a", "b" or
    None (draw); the die roll goes to entry A; games listed in ``waive`` are waived."""
    a, b = match.entry_a_id, match.entry_b_id
    if match.die_roll_winner_id is None:
        services.match_set_die_roll(actor=SYSTEM, match=match, winner_entry=a)
    for number, w in enumerate(winners, start=1):
        nxt = services.match_next_right(match=match)
        holder = nxt.holder
        waived = number in waive
        first = (b if holder == a else a) if waived else holder
        services.game_record(
            actor=SYSTEM,
            match=match,
            number=number,
            winner_entry={"a": a, "b": b, None: None}[w],
            first_entry=first,
            waived=waived,
        )


def start_and_pair(t):
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    return t, services.round_publish(actor=SYSTEM, round=rnd)


def finish_round(rnd, pattern=("a", "a", "b")):
    for m in rnd.matches.order_by("table"):
        if m.entry_b_id is not None:
            play(m, pattern)
    return services.round_finish(actor=SYSTEM, round=rnd)


def finish_round_rest(rnd, skip):
    for m in rnd.matches.exclude(pk=skip.pk):
        play(m, ["a", "a", "a"])
