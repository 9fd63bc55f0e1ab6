"""Server-rendered tournament pages (issue 3 §6, issue 4 §3): list, detail, pairings by table
and by name, standings, the judges' result entry by table, and the organiser's forms. The
other pages live beside this module: ``views_organiser`` (dashboard, staff, PDFs),
``views_player`` (my events, registration, my deck list, my pairing and report),
``views_judge`` (judge home, disputes, deck checks) and ``views_public`` (the live page).

Thin: forms check the input, one service call does the work, service errors are shown as
messages, and every POST redirects (POST-redirect-GET). Roles are checked on the tournament
with ``tournaments.permissions`` (``views_common``): reads need ``can_view_tournament`` (404
otherwise; drafts and draft rounds for organisers only), organiser actions ``can_manage``
(403), result entry ``can_judge`` (403); anonymous users are sent to the login page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from decks.selectors import format_list_active
from tournaments import api_selectors, selectors, services
from tournaments.api import entry_register
from tournaments.errors import NotFound, ServiceError
from tournaments.forms import (
    DeckSubmitForm,
    DieRollForm,
    EntryAddForm,
    GameForm,
    QuickGameForm,
    ReasonForm,
    SwapForm,
    TournamentCreateForm,
    TournamentOptionsForm,
)
from tournaments.game_setup import match_game_start
from tournaments.models import Round, Tournament
from tournaments.permissions import can_appoint_staff, can_judge, can_manage, player_entry_ids
from tournaments.views_common import (
    judged_tournament,
    managed_tournament,
    match_at,
    run,
    visible_round,
    visible_tournament,
)
from tournaments.views_selectors import own_membership


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    return visible_tournament(request, tournament_id)


def _owned(request: HttpRequest, tournament_id: int) -> Tournament:
    return managed_tournament(request, tournament_id)


def _round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    return visible_round(request, tournament, number)


_run = run


def _detail_url(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.pk])


def _round_url(tournament: Tournament, number: int) -> str:
    return reverse("tournaments:round", args=[tournament.pk, number])


# --- list, create, detail -----------------------------------------------------------------


def tournament_list(request: HttpRequest) -> HttpResponse:
    """GET /tournaments/: the tournaments the visitor may see (``tournament_list_visible``: public
    non-draft events for anyone, plus one's own, staffed and played events when signed in).
    """
    tournaments = api_selectors.tournament_list_visible(user=request.user)
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


def _format_choices() -> list[tuple[str, str]]:
    return [(f.slug, f"{f.name} ({f.game.name})") for f in format_list_active()]


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    """GET, POST /tournaments/new/ (signed-in users; the creator becomes the owner): the
    :class:`TournamentCreateForm`. A valid POST runs ``tournament_create`` and
    ``tournament_set_options`` in one transaction and redirects to the new event; a service error
    is shown on the form.
    """
    choices = _format_choices()
    default = settings.HKK_DEFAULT_FORMAT if settings.HKK_DEFAULT_FORMAT in dict(choices) else None
    form = TournamentCreateForm(
        request.POST or None, format_choices=choices, initial={"format": default}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                tournament = services.tournament_create(
                    owner=request.user,
                    name=data["name"],
                    format_slug=data["format"],
                    kind=data["kind"],
                    games_per_match=data["games_per_match"],
                    stop_at_two_wins=data["stop_at_two_wins"],
                    planned_rounds=data["planned_rounds"],
                    late_entry_cutoff_round=data["late_entry_cutoff_round"],
                    tiebreakers=data["tiebreakers"],
                    first_player_policy=data["first_player_policy"] or None,
                )
                tournament = services.tournament_set_options(
                    tournament=tournament,
                    is_public=data["is_public"],
                    decklists_published=data["decklists_published"],
                    deck_check_percent=(
                        10 if data["deck_check_percent"] is None else data["deck_check_percent"]
                    ),
                )
        except ServiceError as exc:
            form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("Tournament created."))
            return redirect(_detail_url(tournament))
    return render(request, "tournaments/create.html", {"form": form})


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/: the event page for whoever may see it (404 otherwise): entries with
    their deck status, the visible rounds, and the visitor's own membership; organisers also get
    the add-entry and options forms and their actions, judges the links to their pages.
    """
    tournament = _visible(request, tournament_id)
    manage = can_manage(request.user, tournament)
    rounds = api_selectors.rounds_visible(tournament=tournament, user=request.user)
    user = request.user
    membership = own_membership(tournament=tournament, user=user)
    context = {
        "tournament": tournament,
        "entries": api_selectors.entry_views(tournament=tournament, user=user),
        "rounds": rounds,
        "manage": manage,
        "judge": manage or can_judge(user, tournament),
        "appoint": can_appoint_staff(user, tournament),
        "membership": membership,
        "own_entry_ids": player_entry_ids(user, tournament) if membership else set(),
        "entry_form": EntryAddForm() if manage else None,
        "options_form": TournamentOptionsForm(
            initial={
                "is_public": tournament.is_public,
                "decklists_published": tournament.decklists_published,
                "deck_check_percent": tournament.deck_check_percent,
            }
        )
        if manage
        else None,
        "last_round": rounds[-1] if rounds else None,
    }
    return render(request, "tournaments/detail.html", context)


# --- organiser actions on the tournament --------------------------------------------------


def _transition(service: Callable[..., Any], success: str):
    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int) -> HttpResponse:
        tournament = _owned(request, tournament_id)
        _run(request, lambda: service(tournament=tournament), success)
        return redirect(_detail_url(tournament))

    return view


tournament_open_registration = _transition(
    services.tournament_open_registration, gettext_lazy("Registration is open.")
)
tournament_start = _transition(
    services.tournament_start, gettext_lazy("The tournament has started.")
)
tournament_finish = _transition(
    services.tournament_finish, gettext_lazy("The tournament is finished.")
)


@login_required
@require_POST
def tournament_options(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Organisers change the public flag, deck list publication and the deck-check share."""
    tournament = _owned(request, tournament_id)
    form = TournamentOptionsForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("Check the options: the deck-check share is a number from 0–100.")
        )
        return redirect(_detail_url(tournament))
    data = form.cleaned_data
    _run(
        request,
        lambda: services.tournament_set_options(
            tournament=tournament,
            is_public=data["is_public"],
            decklists_published=data["decklists_published"],
            deck_check_percent=data["deck_check_percent"],
        ),
        _("Options saved."),
    )
    return redirect(_detail_url(tournament))


@login_required
@require_POST
def round_pair_next(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/new/ (organisers; 403 otherwise): pair the next round as a
    draft (``services.round_pair_next``) and open it; on a service error, back to the event page
    with the message.
    """
    tournament = _owned(request, tournament_id)
    rnd = _run(
        request,
        lambda: services.round_pair_next(tournament=tournament, requested_by=request.user),
        _("The next round is paired (draft). Check it, then publish it."),
    )
    if rnd is None:
        return redirect(_detail_url(tournament))
    return redirect(_round_url(tournament, rnd.number))


@login_required
@require_POST
def entry_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/add/ (organisers): register a player, or a pair team when seat
    B is filled (:class:`EntryAddForm`); a late entry while running. Redirects to the event page
    with a success or error message.
    """
    tournament = _owned(request, tournament_id)
    form = EntryAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the player's name."))
        return redirect(_detail_url(tournament))
    data = form.cleaned_data
    players = [data["player_a"]] + ([data["player_b"]] if data["player_b"] else [])
    _run(
        request,
        lambda: entry_register(tournament, players, data["name"], ""),
        _("Entry added."),
    )
    return redirect(_detail_url(tournament))


@login_required
@require_http_methods(["GET", "POST"])
def entry_deck(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/entries/<entry_id>/deck/ (organisers): an entry's deck-list
    history and :class:`DeckSubmitForm` to submit a member's list (``services.deck_submit``);
    illegal lists are stored too, with a warning. 404 for an entry of another event.
    """
    tournament = _owned(request, tournament_id)
    try:
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
    except NotFound as exc:
        raise Http404(str(exc.message)) from None
    view = next(v for v in api_selectors.entry_views(tournament=tournament) if v.id == entry.pk)
    seat_choices = [(m.seat, f"{m.player_name} ({m.seat})") for m in view.members]
    form = DeckSubmitForm(request.POST or None, seat_choices=seat_choices)
    if request.method == "POST" and form.is_valid():
        try:
            player = api_selectors.member_player(entry=entry, seat=form.cleaned_data["seat"])
            submission = services.deck_submit(
                tournament=tournament,
                entry=entry,
                player=player,
                text=form.cleaned_data["text"],
                by=request.user,
            )
        except ServiceError as exc:
            form.add_error(None, str(exc.message))
        else:
            if submission.legal:
                messages.success(request, _("The list is stored and legal."))
            else:
                messages.warning(request, _("The list is stored but it is not legal."))
            return redirect(reverse("tournaments:entry-deck", args=[tournament.pk, entry.pk]))
    context = {
        "tournament": tournament,
        "entry": view,
        "form": form,
        "override_form": ReasonForm(),
        "submissions": list(selectors.deck_submissions(entry=entry)),
    }
    return render(request, "tournaments/entry_deck.html", context)


@login_required
@require_POST
def entry_override(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/override/ (organisers): let the entry be paired
    without a legal list, with the :class:`ReasonForm` reason (a blank one is refused by the
    service). Redirects to the event page.
    """
    tournament = _owned(request, tournament_id)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
    except NotFound as exc:
        raise Http404(str(exc.message)) from None
    _run(
        request,
        lambda: services.entry_override_deck(entry=entry, reason=reason, by=request.user),
        _("Override recorded."),
    )
    return redirect(_detail_url(tournament))


@login_required
@require_POST
def entry_drop(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/drop/ (organisers): drop the entry from the next
    round on (``services.entry_drop`` with its default round). Redirects to the event page.
    """
    tournament = _owned(request, tournament_id)
    try:
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
    except NotFound as exc:
        raise Http404(str(exc.message)) from None
    _run(
        request,
        lambda: services.entry_drop(entry=entry),
        _("%(name)s has dropped.") % {"name": entry.name},
    )
    return redirect(_detail_url(tournament))


# --- rounds -------------------------------------------------------------------------------


def round_detail(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Pairings by table, each match with the current first-player holder and why."""
    tournament = _visible(request, tournament_id)
    rnd = _round(request, tournament, number)
    manage = can_manage(request.user, tournament)
    context = {
        "tournament": tournament,
        "round": rnd,
        "matches": api_selectors.round_match_views(round=rnd),
        "manage": manage,
        "judge": manage or can_judge(request.user, tournament),
        "swap_form": SwapForm() if manage and rnd.status == Round.Status.DRAFT else None,
        "relaxations": services.round_relaxations(rnd) if manage and rnd.relaxations else [],
        "rounds": api_selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/round.html", context)


def round_by_name(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Alphabetical list of entries → table, seat and opponent (for the wall)."""
    tournament = _visible(request, tournament_id)
    rnd = _round(request, tournament, number)
    views = api_selectors.round_match_views(round=rnd)
    context = {
        "tournament": tournament,
        "round": rnd,
        "rows": api_selectors.pairings_by_name(views),
        "rounds": api_selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/round_by_name.html", context)


@login_required
@require_POST
def round_swap(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/swap/ (organisers): swap the seat-A or seat-B entries
    of two tables of a draft round (:class:`SwapForm`, ``services.round_swap_pairings``).
    Redirects to the round page with a success or error message.
    """
    tournament = _owned(request, tournament_id)
    rnd = _round(request, tournament, number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose two tables and the seat to swap."))
        return redirect(_round_url(tournament, number))
    data = form.cleaned_data
    _run(
        request,
        lambda: services.round_swap_pairings(
            round=rnd,
            table_x=data["table_x"],
            table_y=data["table_y"],
            swap=data["swap"],
            by=request.user,
            reason=data["reason"],
        ),
        _("Tables swapped."),
    )
    return redirect(_round_url(tournament, number))


def _round_transition(service: Callable[..., Any], success: str):
    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
        tournament = _owned(request, tournament_id)
        rnd = _round(request, tournament, number)
        _run(request, lambda: service(round=rnd), success)
        return redirect(_round_url(tournament, number))

    return view


round_publish = _round_transition(services.round_publish, gettext_lazy("The round is published."))
round_finish = _round_transition(services.round_finish, gettext_lazy("The round is finished."))


# --- result entry by table ----------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def match_entry(request: HttpRequest, tournament_id: int, number: int, table: int) -> HttpResponse:
    """The judges' result screen for one table, built for a phone: the holder of the right to go
    first in the next game and why (RULES.md §1.4), a die roll when one decides, then one tap
    per game (A won / B won / draw) with a "waived" toggle that switches who went first. The
    full form (any first player, corrections with a reason) is below it."""
    tournament = judged_tournament(request, tournament_id)
    rnd = _round(request, tournament, number)
    match = match_at(rnd, table)
    view = api_selectors.match_view(match=match)
    here = reverse("tournaments:match", args=[tournament.pk, number, table])
    tables = list(rnd.matches.order_by("table").values_list("table", flat=True))
    nav = {
        "prev": max((t for t in tables if t < table), default=None),
        "next": min((t for t in tables if t > table), default=None),
    }
    base = {"tournament": tournament, "round": rnd, "m": view, "nav": nav}
    if view.is_bye:
        return render(request, "tournaments/match.html", base)
    a = (match.entry_a_id, view.a_name)
    b = (match.entry_b_id, view.b_name)
    roll_form = DieRollForm(a=a, b=b, prefix="roll")
    game_form = _game_form(view, a, b)
    quick_form = QuickGameForm(
        prefix="quick", initial={"number": view.right.game if view.right else None}
    )
    if request.method == "POST":
        done = None
        if "roll-winner" in request.POST:
            roll_form = DieRollForm(request.POST, a=a, b=b, prefix="roll")
            if roll_form.is_valid():
                data = roll_form.cleaned_data
                done = _run(
                    request,
                    lambda: services.match_set_die_roll(
                        match=match,
                        winner_entry=data["winner"],
                        reroll_game3_agreed=data["reroll_game3_agreed"],
                    ),
                    _("Die roll recorded."),
                )
        elif "game3roll-winner" in request.POST:
            winner = request.POST.get("game3roll-winner")
            if winner in (str(a[0]), str(b[0])):
                done = _run(
                    request,
                    lambda: services.match_set_game3_roll(match=match, winner_entry=int(winner)),
                    _("Die roll recorded."),
                )
        elif "quick-result" in request.POST:
            quick_form = QuickGameForm(request.POST, prefix="quick")
            done = _quick_game(request, quick_form, view, match)
        else:
            game_form = GameForm(request.POST, a=a, b=b, prefix="game")
            if game_form.is_valid():
                data = game_form.cleaned_data
                try:
                    services.game_record(
                        match=match,
                        number=data["number"],
                        winner_entry=data["winner"],
                        first_entry=data["first"],
                        waived=data["waived"],
                        right_holder_entry=data["right_holder"],
                        correction=data["correction"],
                        reason=data["reason"],
                        recorded_by=request.user,
                    )
                except ServiceError as exc:
                    game_form.add_error(None, str(exc.message))
                else:
                    messages.success(
                        request, _("Game %(game)s recorded.") % {"game": data["number"]}
                    )
                    return redirect(here)
        if done is not None:
            return redirect(here)
    right = view.right
    context = {
        **base,
        "roll_form": roll_form,
        "game_form": game_form,
        "quick_form": quick_form,
        "needs_roll": right is not None and right.needs_roll and right.game == 1,
        "needs_game3_roll": right is not None and right.needs_roll and right.game != 1,
        "holder_seat": right.seat if right is not None else None,
        "other_name": (view.b_name if right and right.seat == "A" else view.a_name)
        if right and right.holder
        else "",
        "game_start": match_game_start(match),
    }
    return render(request, "tournaments/match.html", context)


def _quick_game(
    request: HttpRequest, form: QuickGameForm, view: api_selectors.MatchView, match: Any
) -> Any:
    """Record the next game from the one-tap form; ``None`` (with a message) on any error."""
    right = view.right
    if not form.is_valid() or right is None or right.holder is None:
        messages.error(request, _("Nothing to record: check the table and the die roll."))
        return None
    data = form.cleaned_data
    if data["number"] != right.game:
        messages.error(
            request,
            _("Game %(game)s was recorded meanwhile; check the table again.")
            % {"game": data["number"]},
        )
        return None
    other = match.entry_b_id if right.holder == match.entry_a_id else match.entry_a_id
    winner = {"a": match.entry_a_id, "b": match.entry_b_id, "draw": None}[data["result"]]
    return _run(
        request,
        lambda: services.game_record(
            match=match,
            number=right.game,
            winner_entry=winner,
            first_entry=other if data["waived"] else right.holder,
            waived=data["waived"],
            recorded_by=request.user,
        ),
        _("Game %(game)s recorded.") % {"game": right.game},
    )


def _game_form(view: api_selectors.MatchView, a: tuple[int, str], b: tuple[int, str]) -> GameForm:
    """The next game's form, pre-filled with the right holder as the entry going first."""
    initial: dict[str, Any] = {"number": len(view.games) + 1}
    if view.right is not None and view.right.holder is not None:
        initial["first"] = view.right.holder
    return GameForm(a=a, b=b, prefix="game", initial=initial)


# --- standings ----------------------------------------------------------------------------


def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/standings/: the standings (rank, points, the tournament's tiebreaker
    columns) for whoever may see the event (404 otherwise).
    """
    tournament = _visible(request, tournament_id)
    rows = api_selectors.standing_views(
        tournament=tournament, rows=services.standings_compute(tournament=tournament)
    )
    context = {
        "tournament": tournament,
        "rows": rows,
        "tiebreaker_columns": api_selectors.tiebreaker_columns(tournament),
        "rounds": api_selectors.rounds_visible(tournament=tournament, user=request.user),
        "judge": can_judge(request.user, tournament),
    }
    return render(request, "tournaments/standings.html", context)
