"""Read model of players' result reports and disputes (docs/rules.md §16 (Deck checks,
penalties and result reporting)). No writes here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.models import Match, ResultReport, Tournament
from tournaments.selectors.entries import names_by_entry


def report_get(*, tournament: Tournament, report_id: int) -> ResultReport:
    """A result report of ``tournament`` or ``NotFound("report_not_found")``."""
    report = (
        ResultReport.objects.select_related("match__round__tournament")
        .filter(pk=report_id, match__round__tournament=tournament)
        .first()
    )
    if report is None:
        raise NotFound("report_not_found", _("No such result report."), {"report": report_id})
    return report


def match_reports(*, match: Match) -> list[ResultReport]:
    """Every report of ``match``, oldest first, with reporter and resolver loaded."""
    return list(match.reports.select_related("reported_by", "resolved_by").order_by("id"))


def open_reports(*, match: Match) -> dict[int, ResultReport]:
    """Entry id → that side's open (pending or disputed) or last accepted report."""
    latest: dict[int, ResultReport] = {}
    for r in match_reports(match=match):
        if r.status != ResultReport.Status.SUPERSEDED:
            latest[r.entry_id] = r
    return latest


def reports_by_match(*, matches: Sequence[Match]) -> dict[int, list[ResultReport]]:
    """Match id → its open (pending or disputed) reports, oldest first (one query)."""
    result: dict[int, list[ResultReport]] = {}
    qs = (
        ResultReport.objects.select_related("reported_by")
        .filter(
            match__in=list(matches),
            status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
        )
        .order_by("id")
    )
    for r in qs:
        result.setdefault(r.match_id, []).append(r)
    return result


@dataclass
class DisputeView:
    """A match with disputed reports: its table and both sides' open reports."""

    match: Match
    a_name: str
    b_name: str
    reports: list[ResultReport]

    @property
    def round(self) -> int:
        return self.match.round.number


def dispute_views(*, tournament: Tournament, matches: Sequence[Match]) -> list[DisputeView]:
    """:class:`DisputeView` rows for ``matches`` (``services.match_disputes``): two queries."""
    names = names_by_entry(tournament)
    reports: dict[int, list[ResultReport]] = {}
    for r in (
        ResultReport.objects.filter(match__in=list(matches), status=ResultReport.Status.DISPUTED)
        .select_related("reported_by", "resolved_by")
        .order_by("id")
    ):
        reports.setdefault(r.match_id, []).append(r)
    return [
        DisputeView(
            match=m,
            a_name=names.get(m.entry_a_id, ""),
            b_name=names.get(m.entry_b_id, "") if m.entry_b_id else "",
            reports=reports.get(m.pk, []),
        )
        for m in matches
    ]
