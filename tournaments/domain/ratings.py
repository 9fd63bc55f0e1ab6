"""Player ratings of a circuit: OpenSkill (Plackett-Luce model, the ``openskill`` library),
updated match by match in the order the matches were played. A pair team is a team of two
in the model. Pure: matches in, ratings out; the same matches give the same ratings.

Sources: docs/rules.md §19 (Circuits, season standings and league gates: ratings);
Joshy & Weng, "OpenSkill" (the ``openskill`` package, Plackett-Luce).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

Person = str


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """One match: the persons of side ``a`` and side ``b`` (one each, two for a pair team)
    and its outcome ``a_score`` − ``b_score`` compared (more games won wins; equal: a draw)."""

    a: Sequence[Person]
    b: Sequence[Person]
    a_score: int
    b_score: int


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating: ``mu`` (skill estimate), ``sigma`` (uncertainty), ``ordinal`` (the
    conservative value shown and sorted on: mu − 3 sigma) and ``matches`` counted."""

    mu: float
    sigma: float
    ordinal: float
    matches: int


def rate_matches(matches: Iterable[RatedMatch]) -> dict[Person, Rating]:
    """Ratings after ``matches`` in order, every person starting at the model's default
    (mu 25, sigma 25/3). A match with an empty side (a bye) is skipped."""
    model = PlackettLuce()
    current: dict[Person, object] = {}
    counts: dict[Person, int] = {}

    def rating_of(person: Person) -> object:
        if person not in current:
            current[person] = model.rating(name=person)
        return current[person]

    for match in matches:
        if not match.a or not match.b:
            continue
        teams = [[rating_of(p) for p in match.a], [rating_of(p) for p in match.b]]
        if match.a_score > match.b_score:
            ranks = [1, 2]
        elif match.a_score < match.b_score:
            ranks = [2, 1]
        else:
            ranks = [1, 1]
        new_a, new_b = model.rate(teams, ranks=ranks)  # type: ignore[arg-type]
        for person, rating in zip([*match.a, *match.b], [*new_a, *new_b], strict=True):
            current[person] = rating
            counts[person] = counts.get(person, 0) + 1
    return {
        person: Rating(r.mu, r.sigma, r.ordinal(), counts[person])  # type: ignore[attr-defined]
        for person, r in current.items()
        if person in counts
    }
