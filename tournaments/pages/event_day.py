"""Event-day pages: the round clock controls, the match-level result entry of the round page
(one row per table, one button per result), and the full-screen projector view of the
pairings by name with the clock, the top-cut bracket, and the penalty log (docs/rules.md
§14 (Swiss pairing and byes), §16 (Deck checks, penalties and result reporting)).

Who may: the clock's start, pause, resume and round extension ``can_manage``; a table's
extension and the result entry ``can_judge`` (403 otherwise); the projector view whoever may
see the round. Every POST redirects (POST-redirect-GET) to the round page.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from hkk_tournament.errors import ApplicationError, error_message
from hkk_tournament.web.downloads import csv_response
from tournaments import selectors, services
from tournaments.pages.common import (
    judged_tournament,
    match_at,
    round_url,
    run,
    visible_round,
    visible_tournament,
)
from tournaments.pages.event_day_forms import (
    ClockForm,
    MatchResultForm,
    PenaltyForm,
    TopCutForm,
)
from tournaments.permissions import can_manage, refuse_own_match

_CLOCK_MESSAGES = {
    "start": gettext_lazy("The clock is running."),
    "pause": gettext_lazy("The clock is paused."),
    "resume": gettext_lazy("The clock is running again."),
    "extend": gettext_lazy("Time added."),
}


@login_required
@require_POST
def round_clock(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/clock/: start, pause, resume or extend the round
    clock (:class:`ClockForm`; organisers), or extend one table (judges, not their own)."""
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a clock action and a whole number of minutes."))
        return redirect(round_url(tournament, number))
    data = form.cleaned_data
    action, minutes, table = data["action"], data["minutes"], data["table"]
    if not (action == "extend" and table) and not can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may do this."))
    own = rnd.matches.filter(table=table).first() if table else None
    if own is not None:
        refuse_own_match(request.user, own)  # nobody extends their own table (403 page)
    calls = {
        "start": lambda: services.round_clock_start(round=rnd, minutes=minutes),
        "pause": lambda: services.round_clock_pause(round=rnd),
        "resume": lambda: services.round_clock_resume(round=rnd),
        "extend": lambda: services.round_clock_extend(round=rnd, minutes=minutes or 0, table=table),
    }
    run(request, calls[action], _CLOCK_MESSAGES[action])
    return redirect(round_url(tournament, number) + (f"#table-{table}" if table else ""))


@login_required
@require_POST
def match_result(request: HttpRequest, tournament_id: int, number: int, table: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/tables/<table>/result/ (judges): record the whole
    match from its slip (``services.match_result_record``); back to the round page at the next
    open table of the fast entry (``#fast-N``, the page focuses it; after the last, the first
    still open), or at this table with the error in words (for instance "who won the die
    roll?")."""
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    match = match_at(rnd, table)
    form = MatchResultForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a result."))
        return redirect(round_url(tournament, number) + f"#fast-{table}")
    try:
        services.match_result_record(
            match=match,
            result=form.cleaned_data["result"],
            die_roll_winner=form.cleaned_data["die_roll_winner"],
            recorded_by=request.user,
        )
    except ApplicationError as exc:
        messages.error(
            request, _("Table %(table)s: %(error)s") % {"table": table, "error": error_message(exc)}
        )
        return redirect(round_url(tournament, number) + f"#fast-{table}")
    messages.success(request, _("Table %(table)s recorded.") % {"table": table})
    following = selectors.next_open_table(round=rnd, after=table)
    anchor = f"#fast-{following}" if following is not None else "#fast-results"
    return redirect(round_url(tournament, number) + anchor)


def qr_svg(url: str) -> SafeString:
    """A QR code of ``url`` (segno, error correction M) as inline SVG markup: a single path,
    no script or style attribute, so it passes a strict Content-Security-Policy."""
    # Safe: segno's markup carries the URL only as the path's modules, never as text.
    return mark_safe(segno.make_qr(url, error="m").svg_inline(scale=6))


@require_GET
def projector(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET /tournaments/<id>/rounds/<number>/projector/: full-screen pairings by name with the
    round clock and a QR code of the event's public page, for a projector or a wall screen
    (refreshes itself; without JavaScript the end time is shown and the page reloads every
    minute). While ``number`` is the current round the page follows the event: when the next
    round is published it moves on to it (``clock.js`` asks :func:`projector_current`)."""
    tournament = visible_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    views = selectors.round_match_views(round=rnd)
    current = selectors.current_round(tournament=tournament)
    event_url = request.build_absolute_uri(reverse("tournaments:detail", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "round": rnd,
        "rows": selectors.pairings_by_name(views),
        "clock": selectors.clock_view(round=rnd),
        "follow": current is not None and current.pk == rnd.pk,
        "event_url": event_url,
        "event_qr": qr_svg(event_url),
    }
    return render(request, "tournaments/public/projector.html", context)


@require_GET
def projector_current(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/projector/: the projector view of the current round (the latest
    published or finished one); 404 before the first round is published."""
    tournament = visible_tournament(request, tournament_id)
    current = selectors.current_round(tournament=tournament)
    if current is None:
        raise Http404(_("No round has been published yet."))
    return projector(request, tournament_id=tournament.pk, number=current.number)


@login_required
def penalties(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/penalties/ (judges and organisers): the penalty log with a
    :class:`PenaltyForm` to add one (``services.penalty_record``); ``?format=csv`` downloads
    the log as CSV in the active language."""
    tournament = judged_tournament(request, tournament_id)
    if request.GET.get("format") == "csv":
        return csv_response(
            services.penalties_csv(tournament), f"tournament-{tournament.pk}-penalties.csv"
        )
    names = selectors.names_by_entry(tournament)
    entries = sorted(names.items(), key=lambda item: item[1].casefold())
    rounds = [r.number for r in selectors.rounds_visible(tournament=tournament, user=request.user)]
    current = selectors.current_round(tournament=tournament)
    form = PenaltyForm(
        request.POST or None,
        entries=entries,
        rounds=rounds,
        initial={"round": current.number if current else None},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rnd = (
            selectors.round_get(tournament=tournament, number=data["round"])
            if data["round"]
            else None
        )
        try:
            services.penalty_record(
                tournament=tournament,
                entry=data["entry"],
                round=rnd,
                category=data["category"],
                kind=data["kind"],
                notes=data["notes"],
                by=request.user,
            )
        except ApplicationError as exc:
            messages.error(request, error_message(exc))
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect(reverse("tournaments:penalties", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "form": form,
        "penalties": services.penalties_of(tournament=tournament),
        "names": names,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/judge/penalties.html", context)


def top_cut(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/top-cut/: the bracket (seeds, tables, scores, the champion) for
    whoever may see the event; organisers get the start form (size suggested by the game:
    HKK Swiss only, WoW TCG and Blue Moon top 8) and the "next bracket round" button."""
    tournament = visible_tournament(request, tournament_id)
    manage = can_manage(request.user, tournament)
    bracket = selectors.top_cut_rounds(tournament=tournament, user=request.user)
    default = services.top_cut_default_size(tournament)
    champion = services.top_cut_champion(tournament=tournament)
    names = selectors.names_by_entry(tournament)
    context = {
        "tournament": tournament,
        "bracket": bracket,
        "tree": selectors.bracket_tree(bracket),
        "manage": manage,
        "default_size": default,
        "form": TopCutForm(initial={"size": default or 8, "higher_seed_chooses": True})
        if manage and not bracket
        else None,
        "champion": names.get(champion) if champion else None,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/public/top_cut.html", context)


@login_required
@require_POST
def top_cut_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """POST /tournaments/<id>/top-cut/start/ (:class:`TopCutForm`) or …/top-cut/next/
    (organisers): start the top cut or pair the next bracket round; back to the bracket."""
    tournament = visible_tournament(request, tournament_id)
    if not can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may do this."))
    back = redirect(reverse("tournaments:top-cut", args=[tournament.pk]))
    if action == "start":
        form = TopCutForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose the size of the top cut."))
            return back
        data = form.cleaned_data
        run(
            request,
            lambda: services.top_cut_start(
                tournament=tournament,
                size=data["size"],
                higher_seed_chooses=data["higher_seed_chooses"],
                by=request.user,
            ),
            _("The top cut has started."),
        )
    else:
        run(
            request,
            lambda: services.top_cut_next(tournament=tournament, by=request.user),
            _("The next bracket round is paired."),
        )
    return back
