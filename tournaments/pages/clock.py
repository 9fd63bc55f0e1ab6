"""Round clock page action: start, pause, resume or extend the round clock from the round page
(docs/rules.md §16 (Deck checks, penalties and result reporting)). POST-redirect-GET to the
round page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import services
from tournaments.pages.common import judged_tournament, round_url, run, visible_round
from tournaments.pages.event_day_forms import ClockForm

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
    calls = {
        "start": lambda: services.round_clock_start(actor=request.user, round=rnd, minutes=minutes),
        "pause": lambda: services.round_clock_pause(actor=request.user, round=rnd),
        "resume": lambda: services.round_clock_resume(actor=request.user, round=rnd),
        "extend": lambda: services.round_clock_extend(
            actor=request.user, round=rnd, minutes=minutes or 0, table=table
        ),
    }
    run(request, calls[action], _CLOCK_MESSAGES[action])
    return redirect(round_url(tournament, number) + (f"#table-{table}" if table else ""))
