"""Helpers shared by the page modules of ``tournaments.pages``: loading the tournament, round,
entry and match a URL names and gating it by the visitor's role (``tournaments.access``: 404
when the object is not visible, 403 when it is visible but the role is missing), running one
service call with its ``ApplicationError`` shown as a message (:data:`FORM_ERRORS` only: a
refusal, ``PermissionDenied`` or ``NotFound``, escapes to the one error page of
``hkk_tournament.web.middleware.ApplicationErrorMiddleware``),
the URLs the pages redirect to, the rows of a player's result report, and setting the choices
of a form's choice field at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.access import can_view_tournament, require_role
from tournaments.models import Entry, Match, ResultReport, Round, Tournament
from tournaments.services.jobs import enqueue_page_refresh

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


#: The service errors a page shows beside its form or as a message (bad input, a state that
#: forbids the action, someone else wrote first). ``PermissionDenied`` and ``NotFound`` are not
#: among them: they escape to the error page (403/404 with the translated message).
FORM_ERRORS = (ValidationFailed, Conflict, InvalidState)


def set_choices(form: forms.BaseForm, name: str, choices: Iterable[tuple[Any, Any]]) -> None:
    """Set the choices of the form's choice field ``name`` (``form.fields`` is typed as plain
    ``Field``, which has no ``choices``). Raises ``TypeError`` for a field of another kind."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ChoiceField")
    field.choices = list(choices)


def visible_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament if the visitor may see it, else 404 (drafts: organisers only; private
    events: staff and their players only)."""
    try:
        tournament = selectors.tournament_get_visible(
            tournament_id=tournament_id, user=request.user
        )
    except NotFound as exc:
        raise Http404(str(exc.message)) from None
    if not can_view_tournament(request.user, tournament):
        raise Http404(_("No such tournament."))
    return tournament


def managed_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament for an organiser page: 404 if invisible, 403 unless ``can_manage``."""
    tournament = visible_tournament(request, tournament_id)
    require_role(request.user, tournament, "manage")
    return tournament


def judged_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament for a judge page: 404 if invisible, 403 unless ``can_judge``."""
    tournament = visible_tournament(request, tournament_id)
    require_role(request.user, tournament, "judge")
    return tournament


def visible_round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Round ``number``; draft rounds are 404 for everyone but the organisers."""
    try:
        return selectors.round_get_visible(tournament=tournament, number=number, user=request.user)
    except NotFound as exc:
        raise Http404(str(exc.message)) from None


def entry_of(tournament: Tournament, entry_id: int) -> Entry:
    """An entry of ``tournament`` or 404."""
    try:
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
    except NotFound as exc:
        raise Http404(str(exc.message)) from None
    entry.tournament = tournament
    return entry


def match_at(rnd: Round, table: int) -> Match:
    """The match at ``table`` of ``rnd`` or 404."""
    try:
        match = selectors.match_for_table(round=rnd, table=table)
    except NotFound as exc:
        raise Http404(str(exc.message)) from None
    match.round = rnd
    return match


def run(request: HttpRequest, call: Callable[[], Any], success: StrOrPromise) -> Any:
    """Run one service call; show ``success`` or the service's translated error. Returns the
    service's result (``True`` for a service that returns nothing), or ``None`` after an error
    (nothing was changed). A refusal (``PermissionDenied``, ``NotFound``) is not caught: the
    error page answers it (403/404)."""
    try:
        result = call()
    except FORM_ERRORS as exc:
        messages.error(request, str(exc.message))
        return None
    messages.success(request, success)
    return True if result is None else result


def posted(request: HttpRequest) -> Any:
    """The POST data to bind a form to (even when empty), or ``None`` for a GET."""
    return request.POST if request.method == "POST" else None


def confirm_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    title: StrOrPromise,
    explanation: Iterable[StrOrPromise],
    submit: StrOrPromise,
    form: forms.BaseForm | None = None,
    cancel_url: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The confirmation step of an irreversible action: the page repeats what will happen and
    its button POSTs to the same URL (no script needed; works under a strict CSP)."""
    context = {
        "tournament": tournament,
        "title": title,
        "explanation": list(explanation),
        "submit": submit,
        "form": form,
        "cancel_url": cancel_url or detail_url(tournament),
    }
    return render(request, "tournaments/organiser/confirm.html", context, status=status)


def detail_url(tournament: Tournament) -> str:
    """The event page of ``tournament`` (``tournaments:detail``)."""
    return reverse("tournaments:detail", args=[tournament.pk])


def round_url(tournament: Tournament, number: int) -> str:
    """The pairings page of round ``number`` (``tournaments:round``)."""
    return reverse("tournaments:round", args=[tournament.pk, number])


def report_rows(report: ResultReport | None, names: dict[int, str]) -> list[dict]:
    """The games of a player's report with names: ``[{"number", "winner", "first", "waived",
    "details"}]`` (``winner`` ``None`` = draw; ``details`` false for a one-choice report, whose
    order and first players were not reported; ``[]`` without a report). ``names`` maps entry
    id → name.
    """
    if report is None:
        return []
    return [
        {
            "number": g.get("number"),
            "winner": names.get(g.get("winner")) if g.get("winner") is not None else None,
            "first": names.get(g.get("first"), ""),
            "waived": bool(g.get("waived")),
            "details": g.get("details_reported", True) is not False,
        }
        for g in report.games or []
    ]


def page_refresher(request: HttpRequest) -> Callable[[], bool]:
    """Hands the rendering of ``request``'s URL (path and query) in the active language to a
    worker (``services.jobs.enqueue_page_refresh``: a stale shared page, or out-of-date search
    parts, which the worker's own answer to that URL builds); the callable answers ``False`` in
    eager mode (the request then renders itself)."""
    path, language = request.get_full_path(), get_language()
    return lambda: enqueue_page_refresh(path, language)
