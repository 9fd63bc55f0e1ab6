"""Judge pages of an event: the current round's tables (each links to the one-screen result
entry ``tournaments:match`` in ``judge_match``), disputed player reports with a confirm button per
report, and the deck checks of a round (pick at random, add an entry, see its locked lists,
record the outcome and penalty; docs/rules.md §16 (Deck checks, penalties and result reporting)).

Who may: ``can_judge`` (organisers and judges of the event); 403 for anyone else who can see
the event, 404 when the event or a draft round is not visible; anonymous users go to login.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from hkk_tournament.errors import NotFound
from tournaments import selectors, services
from tournaments.pages.common import judged_tournament, report_rows, run, visible_round
from tournaments.pages.judge_forms import DeckCheckAddForm, DeckCheckRecordForm
from tournaments.selectors import (
    current_round,
    deck_check_get,
    deck_checks_of_round,
    entry_lists,
    report_get,
    reports_by_match,
    round_entries,
)


@login_required
@require_GET
def judge_home(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/judge/: the tables of the current round with their score and open
    reports, and the disputed matches with each side's report.
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = current_round(tournament=tournament)
    views = selectors.round_match_views(round=rnd) if rnd is not None else []
    reports = reports_by_match(matches=[v.match for v in views])
    disputes = []
    for match in services.match_disputes(tournament=tournament):
        view = selectors.match_view(match=match)
        label = view.names
        open_ = [
            {"report": r, "games": report_rows(r, label), "by": label.get(r.entry_id, "")}
            for r in match.reports.all()
            if r.status in ("pending", "disputed")
        ]
        disputes.append({"match": match, "view": view, "reports": open_})
    context = {
        "tournament": tournament,
        "round": rnd,
        "clock": selectors.clock_view(round=rnd) if rnd is not None else None,
        "matches": [(v, reports.get(v.match.pk, [])) for v in views],
        "disputes": disputes,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/judge/home.html", context)


@login_required
@require_POST
def report_confirm(request: HttpRequest, tournament_id: int, report_id: int) -> HttpResponse:
    """POST /tournaments/<id>/reports/<report_id>/confirm/: a judge accepts one player's report
    (``services.result_report_confirm``); 404 for a report of another event. Redirects to the
    judge page.
    """
    tournament = judged_tournament(request, tournament_id)
    try:
        report = report_get(tournament=tournament, report_id=report_id)
    except NotFound:
        raise Http404(_("No such report.")) from None
    run(
        request,
        lambda: services.result_report_confirm(report=report, actor=request.user),
        _("The report is confirmed and its games are recorded."),
    )
    return redirect(reverse("tournaments:judge", args=[tournament.pk]))


def _checks_url(tournament_id: int, number: int) -> str:
    return reverse("tournaments:deck-checks", args=[tournament_id, number])


@login_required
@require_GET
def deck_checks(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET /tournaments/<id>/rounds/<number>/deck-checks/ (judges and organisers): the round's deck
    checks, each with the entry's lists and a :class:`DeckCheckRecordForm`, and a
    :class:`DeckCheckAddForm` for the round's entries not yet picked.
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    checks = deck_checks_of_round(round=rnd)
    checked = {c.entry_id for c in checks}
    entries = [(e.pk, e.shown_name) for e in round_entries(round=rnd) if e.pk not in checked]
    rows = [
        {
            "check": c,
            "lists": entry_lists(entry=c.entry),
            "form": DeckCheckRecordForm(
                prefix=f"c{c.pk}",
                initial={"outcome": c.outcome, "penalty": c.penalty, "notes": c.notes},
            ),
        }
        for c in checks
    ]
    context = {
        "tournament": tournament,
        "round": rnd,
        "rows": rows,
        "add_form": DeckCheckAddForm(entries=entries) if entries else None,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/judge/deck_checks.html", context)


@login_required
@require_POST
def deck_checks_pick(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/deck-checks/pick/ (judges and organisers): pick the
    round's random deck checks with a fresh seed (``services.deck_checks_pick``; a repeat keeps
    the first pick). Redirects to the deck-check page.
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    run(
        request,
        lambda: services.deck_checks_pick(round=rnd, actor=request.user),
        _("Entries picked at random for a deck check."),
    )
    return redirect(_checks_url(tournament.pk, number))


@login_required
@require_POST
def deck_check_add(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/deck-checks/add/ (judges and organisers): add the
    chosen entry of the round to the deck checks (``services.deck_check_add``). Redirects to the
    deck-check page with a success or error message.
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    entries = [(e.pk, e.shown_name) for e in round_entries(round=rnd)]
    form = DeckCheckAddForm(request.POST, entries=entries)
    if not form.is_valid():
        messages.error(request, _("Choose an entry of this round."))
        return redirect(_checks_url(tournament.pk, number))
    entry = next(e for e in round_entries(round=rnd) if e.pk == form.cleaned_data["entry"])
    run(
        request,
        lambda: services.deck_check_add(round=rnd, entry=entry, actor=request.user),
        _("%(name)s is added to the deck checks.") % {"name": entry.shown_name},
    )
    return redirect(_checks_url(tournament.pk, number))


@login_required
@require_POST
def deck_check_record(
    request: HttpRequest, tournament_id: int, number: int, check_id: int
) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/deck-checks/<check_id>/ (judges and organisers):
    record the check's outcome, penalty and notes (``services.deck_check_record``); 404 for a check
    of another round. Redirects to that check on the deck-check page.
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    try:
        check = deck_check_get(tournament=tournament, round=rnd, check_id=check_id)
    except NotFound:
        raise Http404(_("No such deck check.")) from None
    form = DeckCheckRecordForm(request.POST, prefix=f"c{check.pk}")
    if not form.is_valid():
        messages.error(request, _("Choose an outcome and a penalty."))
        return redirect(_checks_url(tournament.pk, number))
    data = form.cleaned_data
    run(
        request,
        lambda: services.deck_check_record(
            check=check,
            outcome=data["outcome"],
            penalty=data["penalty"],
            notes=data["notes"],
            actor=request.user,
        ),
        _("Deck check of %(name)s recorded.") % {"name": check.entry.shown_name},
    )
    return redirect(_checks_url(tournament.pk, number) + f"#check-{check.pk}")
