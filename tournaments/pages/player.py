"""Player pages: "my events", self-registration, the player's own deck list with live
validation, "my pairing" with the right to go first (docs/rules.md §6 (HKK first-player rights))
and the game start (§5 (HKK game start: opening hand and life points)), and reporting one's own
result (§16 (Deck checks, penalties and result reporting)).

Who may: every page needs an account (anonymous visitors are sent to the login page); the
event must be visible to the user (``can_view_tournament``, else 404); the deck list and the
pairing pages are for the players of the entry only (``is_player_of_entry``: a user without an
entry in the event gets 404). Deck lists of other entries: ``can_view_deck_lists_of`` (403).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from hkk_tournament.errors import ApplicationError
from hkk_tournament.mail import mail_delivers
from hkk_tournament.web.throttling import attempt_budgets, check_and_count
from tournaments import selectors, services
from tournaments.access import can_judge, is_player_of_entry, require_deck_list_reader
from tournaments.domain.first_player import RightMode, right_mode
from tournaments.domain.match_structure import MatchStructure
from tournaments.models import (
    DeckSubmission,
    Entry,
    EntryMember,
    Match,
    ResultReport,
    Tournament,
)
from tournaments.pages.common import FORM_ERRORS, entry_of, report_rows, run, visible_tournament
from tournaments.pages.player_forms import OwnDeckForm, ResultReportForm, SelfRegisterForm
from tournaments.selectors import (
    current_round,
    entry_lists,
    match_of_entry,
    memberships_of,
    open_reports,
    own_membership,
    tournaments_open_for,
    user_find,
)
from tournaments.services.game_start import match_game_start


@login_required
@require_GET
def my_events(request: HttpRequest) -> HttpResponse:
    """The events the user plays in (with links to the list and the pairing) and the events
    open for registration."""
    members = memberships_of(user=request.user)
    context = {
        "memberships": members,
        "open": tournaments_open_for(user=request.user),
    }
    return render(request, "tournaments/player/my_events.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Self-registration (``services.entry_self_register``); pair events name the partner."""
    tournament = visible_tournament(request, tournament_id)
    membership = own_membership(tournament=tournament, user=request.user)
    form = SelfRegisterForm(request.POST or None)
    if request.method == "POST" and membership is None and form.is_valid():
        data = form.cleaned_data
        partner = None
        if data["partner"]:
            partner = user_find(username=data["partner"])
            if partner is None:
                form.add_error(
                    "partner", _("There is no user called %(name)s.") % {"name": data["partner"]}
                )
        if not form.errors:
            try:
                entry = services.entry_self_register(
                    tournament=tournament,
                    user=request.user,
                    partner=partner,
                    name=data["name"],
                    partner_name="" if partner else data["partner_name"],
                    partner_email="" if partner else data["partner_email"],
                )
            except FORM_ERRORS as exc:
                form.add_error(None, str(exc.message))
            else:
                messages.success(request, _("You are registered. Now submit your deck list."))
                if partner is None and data["partner_name"]:
                    _invite_partner(request, entry)
                return redirect(reverse("tournaments:my-deck", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "form": form,
        "membership": membership,
        "open": tournament.status == Tournament.Status.REGISTRATION
        or (
            tournament.status == Tournament.Status.RUNNING
            and tournament.late_entry_cutoff_round is not None
        ),
    }
    return render(request, "tournaments/player/register.html", context)


def _invite_partner(request: HttpRequest, entry: Any) -> None:
    """The partner registered by name (seat B, no account): a claim code, mailed as an
    invitation when the partner has an e-mail address and this server sends mail, else shown to
    the registering player to hand over."""
    member = entry.members.select_related("player").get(seat=EntryMember.Seat.B)
    player = services.player_claim_code(actor=request.user, entry=entry, player_id=member.player_id)
    url = request.build_absolute_uri(reverse("tournaments:claim") + f"?code={player.claim_code}")
    if player.email and mail_delivers():
        try:
            check_and_count(attempt_budgets(request, "invite"))
            services.player_invite(
                actor=request.user, entry=entry, claim_url=url, player_id=player.pk
            )
        except ApplicationError as exc:
            messages.error(request, str(exc.message))
        else:
            messages.info(request, _("Your partner gets an invitation by e-mail."))
            return
    page = request.build_absolute_uri(reverse("tournaments:claim"))
    messages.info(
        request,
        _("Give your partner this code: %(code)s. With it they claim their seat at %(url)s.")
        % {"code": player.claim_code, "url": page},
    )


def _own_membership(request: HttpRequest, tournament: Tournament) -> EntryMember:
    membership = own_membership(tournament=tournament, user=request.user)
    if membership is None:
        raise Http404(_("You do not play in this tournament."))
    membership.entry.tournament = tournament
    return membership


def _own_lists(member: EntryMember) -> tuple[DeckSubmission | None, DeckSubmission | None]:
    """(current, locked) submissions of ``member``."""
    current = locked = None
    for member_, sub in entry_lists(entry=member.entry):
        if member_.pk == member.pk and sub is not None:
            if sub.locked:
                locked = sub
            current = sub
    return current, locked


@login_required
@require_http_methods(["GET", "POST"])
def my_deck(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player's own list: paste or type it with live validation (debounced calls to
    ``POST /api/decks/validate/``), submit through ``services.deck_submit``; read-only once the
    list is locked."""
    tournament = visible_tournament(request, tournament_id)
    member = _own_membership(request, tournament)
    current, locked = _own_lists(member)
    form = OwnDeckForm(request.POST or None, initial={"text": current.text if current else ""})
    if request.method == "POST" and locked is None and form.is_valid():
        try:
            submission = services.deck_submit(
                tournament=tournament,
                entry=member.entry,
                player=member.player,
                text=form.cleaned_data["text"],
                actor=request.user,
            )
        except FORM_ERRORS as exc:
            form.add_error(None, str(exc.message))
        else:
            if submission.verdict == "legal":
                messages.success(request, _("Your list is stored and legal."))
            elif submission.verdict == "unverified":
                messages.warning(
                    request,
                    _(
                        "Your list is stored but unverified: nothing checked is broken, but it "
                        "could not be fully checked. The organiser checks it."
                    ),
                )
            else:
                messages.warning(
                    request, _("Your list is stored but it is not legal: see the errors below.")
                )
            return redirect(reverse("tournaments:my-deck", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "member": member,
        "entry": member.entry,
        "current": current,
        "locked": locked,
        "form": None if locked else form,
        "format_slug": tournament.format.slug,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/player/my_deck.html", context)


@login_required
@require_GET
def entry_lists_view(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """The lists of one entry, read-only: its players and the staff always, other players of the
    event once the organiser published the lists (``can_view_deck_lists_of``)."""
    tournament = visible_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    require_deck_list_reader(request.user, entry)
    context = {
        "tournament": tournament,
        "entry": entry,
        "lists": entry_lists(entry=entry),
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/player/entry_lists.html", context)


def _sides(match: Match, entry_id: int) -> tuple[int, int, str]:
    """(own entry id, opponent entry id, own seat) in a match that is not a bye."""
    if match.entry_b_id is None:
        raise ValueError(f"match {match.pk} is a bye: there is no opponent")
    if match.entry_a_id == entry_id:
        return entry_id, match.entry_b_id, "A"
    return entry_id, match.entry_a_id, "B"


def _score_options(structure: MatchStructure) -> dict[str, Any]:
    """The report form's score field where the format keeps a score (Blue Moon crystals): its
    unit's name and the format's maximum (``game_score_max``)."""
    if not structure.scored:
        return {"score_label": None, "score_max": None}
    return {
        "score_label": selectors.unit_label(structure.game_score_unit),
        "score_max": structure.game_score_max,
    }


@login_required
@require_http_methods(["GET", "POST"])
def my_match(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/my-match/: the player's pairing in the current round: table,
    opponent, who holds the right to go first in the next game and why, the game start of both
    sides; reporting the result (:class:`ResultReportForm`, ``services.result_report_submit``)
    while the round is published and the match open, and whether the opponent agreed.
    """
    tournament = visible_tournament(request, tournament_id)
    member = _own_membership(request, tournament)
    entry = member.entry
    rnd = current_round(tournament=tournament)
    match = match_of_entry(round=rnd, entry=entry) if rnd is not None else None
    context: dict[str, Any] = {
        "tournament": tournament,
        "entry": entry,
        "round": rnd,
        "match": match,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
        "clock": (
            selectors.clock_view(round=rnd, match=match)
            if rnd is not None and match is not None and rnd.status == rnd.Status.PUBLISHED
            else None
        ),
    }
    if rnd is None or match is None or match.entry_b_id is None:
        return render(request, "tournaments/player/my_match.html", context)
    if not is_player_of_entry(request.user, entry):  # defence in depth
        raise Http404(_("You do not play in this tournament."))
    view = selectors.match_view(match=match)
    mine, _theirs, seat = _sides(match, entry.pk)
    form = _report_form(request, tournament, view, match, mine)
    can_report = rnd.status == rnd.Status.PUBLISHED and not view.score.complete
    if request.method == "POST" and _report(request, form, can_report, match, entry):
        return redirect(reverse("tournaments:my-match", args=[tournament.pk]))
    context.update(_match_context(request, tournament, view, match, mine))
    context.update({"seat": seat, "form": form if can_report else None})
    return render(request, "tournaments/player/my_match.html", context)


def _report_form(
    request: HttpRequest, tournament: Tournament, view: Any, match: Match, entry_id: int
) -> ResultReportForm:
    """The player's report form (bound on POST) under the event's match structure: its games,
    the two sides, whether the holder chooses, draws, the score field and the one-choice
    results seen from the player's seat."""
    mine, theirs, seat = _sides(match, entry_id)
    structure = tournament.structure
    return ResultReportForm(
        request.POST or None,
        games=structure.games_per_match,
        mine=(mine, view.names[mine]),
        theirs=(theirs, view.names[theirs]),
        chooses=right_mode(structure) == RightMode.CHOOSES,
        draws=structure.game_draws,
        **_score_options(structure),
        outcomes=_my_outcomes(tournament, seat),
        ask_roll=bool(view.right and view.right.needs_roll and not view.games),
    )


def _match_context(
    request: HttpRequest, tournament: Tournament, view: Any, match: Match, mine: int
) -> dict[str, Any]:
    """The template values of the player's match past the pairing: both sides' open reports and
    their game rows, whether the player's report was superseded, the game start and the
    first-player policy."""
    _mine, theirs, _seat = _sides(match, mine)
    names = view.names
    reports = open_reports(match=match)
    return {
        "m": view,
        "opponent_name": names[theirs],
        "own_report": reports.get(mine),
        "their_report": reports.get(theirs),
        "own_games": report_rows(reports.get(mine), names),
        "their_games": report_rows(reports.get(theirs), names),
        "judge": can_judge(request.user, tournament),
        "statuses": ResultReport.Status,
        "superseded": view.score.complete
        and any(
            r.entry_id == mine and r.status == ResultReport.Status.SUPERSEDED
            for r in selectors.match_reports(match=match)
        ),
        "game_start": match_game_start(match),
        "policy": selectors.policy_summary(tournament.structure),
    }


def _report(
    request: HttpRequest, form: ResultReportForm, can_report: bool, match: Match, entry: Entry
) -> bool:
    """Store the player's report from the bound ``form``; ``True`` when the page should redirect
    (stored, or the match can no longer be reported: with an error message)."""
    if not can_report:
        messages.error(request, _("This match can no longer be reported."))
        return True
    if not form.is_valid():
        return False
    data = form.cleaned_data

    def submit() -> Any:
        games = data["games"]
        if games is None:
            games = services.outcome_games(
                match=match, result=data["summary"], die_roll_winner=data["die_roll_winner"]
            )
        return services.result_report_submit(
            match=match, entry=entry, actor=request.user, games=games
        )

    done = run(request, submit, _("Your report is stored."))
    return done is not None


def _my_outcomes(tournament: Tournament, seat: str) -> list[tuple[str, str]]:
    """The one-choice results for the player's report: values from seat A (what the services
    take), labels from the player's side ("2–1" = I won two games), the player's best first."""
    out = []
    for o in services.report_outcomes(tournament=tournament):
        mine, theirs = (o.a_wins, o.b_wins) if seat == "A" else (o.b_wins, o.a_wins)
        label = f"{mine}–{theirs}" + (f"–{o.draws}" if o.draws else "")
        out.append((mine - theirs, -mine, o.draws, o.code, label))
    out.sort(key=lambda row: (-row[0], row[1], row[2]))
    return [(code, label) for *_key, code, label in out]
