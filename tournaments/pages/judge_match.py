"""The judges' result screen for one table, built for a phone: the format's first-player policy
(name, one-line rule, source), the holder of the right to go first in the next game (or the
entry that chooses who starts) and why (docs/rules.md §6 (HKK first-player rights), §11 (WoW
TCG matches and first player), §13 (Blue Moon matches)), the HKK game-3 re-roll agreement
(refused with a message once the game-1 roll is recorded), a die roll when one decides, then
one tap per game (A won / B won / draw) with a "waived" toggle that switches who
went first. The full form (any first player, corrections with a reason) is below it, and the
game start of both sides (§5 (HKK game start: opening hand and life points)) under that.

Who may: ``can_judge_match`` (organisers and judges of the event who do not play at this table;
403 otherwise, 404 when the event, a draft round or the table is not visible); anonymous users
go to the login page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from hkk_tournament.errors import error_message
from tournaments import selectors, services
from tournaments.access import require_match_screen
from tournaments.domain.first_player import RightMode, right_mode
from tournaments.domain.match_structure import MatchStructure
from tournaments.models import Match, Round
from tournaments.pages.common import (
    FORM_ERRORS,
    judged_tournament,
    match_at,
    round_url,
    run,
    visible_round,
)
from tournaments.pages.event_day_forms import MatchResultForm
from tournaments.pages.judge_forms import DieRollForm, GameForm, QuickGameForm
from tournaments.services.game_start import match_game_start

TEMPLATE = "tournaments/judge/match.html"

#: ``(entry id, name)`` of one side of the table.
Side = tuple[int, str]


@login_required
@require_http_methods(["GET", "POST"])
def match_entry(request: HttpRequest, tournament_id: int, number: int, table: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/rounds/<number>/tables/<table>/: the result screen of one
    table (see the module docstring). A POST carries one of its forms (die roll, game-3 roll,
    one-tap game, full game form); a recorded change redirects back here, an error re-shows the
    screen with the message or the form's errors. A bye shows only the table.
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    match = match_at(rnd, table)
    require_match_screen(request.user, match)
    view = selectors.match_view(match=match)
    base = {"tournament": tournament, "round": rnd, "m": view, "nav": _table_nav(rnd, table)}
    if match.entry_b_id is None:  # a bye
        return render(request, TEMPLATE, base)
    a = (match.entry_a_id, view.a_name)
    b = (match.entry_b_id, view.b_name)
    structure = tournament.structure
    options = _options(structure)
    base["policy"] = selectors.policy_summary(structure)
    forms: dict[str, Any] = {
        "roll_form": DieRollForm(a=a, b=b, prefix="roll", **options["roll"]),
        "game_form": _game_form(view, a, b, **options["game"]),
        "quick_form": QuickGameForm(
            prefix="quick", initial={"number": view.right.game if view.right else None}
        ),
    }
    if request.method == "POST" and _handle_post(request, match, view, (a, b), forms, options):
        return redirect(reverse("tournaments:match", args=[tournament.pk, number, table]))
    right = view.right
    context = {
        **base,
        **forms,
        "needs_roll": right is not None and right.needs_roll and right.game == 1,
        "needs_game3_roll": right is not None and right.needs_roll and right.game != 1,
        "holder_seat": right.seat if right is not None else None,
        "other_name": (view.b_name if right and right.seat == "A" else view.a_name)
        if right and right.holder
        else "",
        "game_start": match_game_start(match),
        "structure": structure,
        "chooses": right_mode(structure) == RightMode.CHOOSES,
        "score_unit": selectors.unit_label(structure.game_score_unit),
        "offer_reroll_agreement": structure.reroll_game3_available
        and not match.reroll_game3_agreed
        and match.die_roll_winner_id is None
        and not view.games,
        "clock": (
            selectors.clock_view(round=match.round, match=match)
            if match.round.status == match.round.Status.PUBLISHED
            else None
        ),
        "corrections": selectors.match_corrections(match=match),
    }
    return render(request, TEMPLATE, context)


def _options(structure: MatchStructure) -> dict[str, dict[str, Any]]:
    """Form options that follow from the match structure: a choice instead of a waivable
    right (WoW TCG, Blue Moon), the game-3 re-roll (HKK), a per-game score and its maximum
    (Blue Moon crystals)."""
    chooses = right_mode(structure) == RightMode.CHOOSES
    return {
        "roll": {"reroll_available": structure.reroll_game3_available, "chooses": chooses},
        "game": {
            "scored": structure.scored,
            "chooses": chooses,
            "score_max": structure.game_score_max,
        },
    }


def _table_nav(rnd: Round, table: int) -> dict[str, int | None]:
    """The previous and next table numbers of the round (``None`` at either end)."""
    tables = list(rnd.matches.order_by("table").values_list("table", flat=True))
    return {
        "prev": max((t for t in tables if t < table), default=None),
        "next": min((t for t in tables if t > table), default=None),
    }


def _handle_post(
    request: HttpRequest,
    match: Match,
    view: selectors.MatchView,
    sides: tuple[Side, Side],
    forms: dict[str, Any],
    options: dict[str, dict[str, bool]],
) -> bool:
    """Handle the one form the POST carries; ``True`` when something was recorded. A bound form
    replaces its blank one in ``forms`` so that its errors are shown."""
    post = request.POST
    a, b = sides
    if "reroll-agree" in post:
        # Refused once the game-1 roll is recorded: the message says why (docs/rules.md §6).
        return _recorded(
            run(
                request,
                lambda: services.match_set_reroll_agreement(
                    actor=request.user, match=match, agreed=True
                ),
                _("The new roll for game 3 is agreed."),
            )
        )
    if "roll-winner" in post:
        forms["roll_form"] = roll_form = DieRollForm(
            post, a=a, b=b, prefix="roll", **options["roll"]
        )
        if not roll_form.is_valid():
            return False
        data = roll_form.cleaned_data
        agreed = data.get("reroll_game3_agreed") or None
        return _recorded(
            run(
                request,
                lambda: services.match_set_die_roll(
                    actor=request.user,
                    match=match,
                    winner_entry=data["winner"],
                    reroll_game3_agreed=agreed,
                ),
                _("Die roll recorded."),
            )
        )
    if "game3roll-winner" in post:
        winner = post.get("game3roll-winner")
        if winner not in (str(a[0]), str(b[0])):
            return False
        return _recorded(
            run(
                request,
                lambda: services.match_set_game3_roll(
                    actor=request.user, match=match, winner_entry=int(winner)
                ),
                _("Die roll recorded."),
            )
        )
    if "quick-result" in post:
        forms["quick_form"] = quick_form = QuickGameForm(post, prefix="quick")
        return _recorded(_quick_game(request, quick_form, view, match))
    forms["game_form"] = game_form = GameForm(post, a=a, b=b, prefix="game", **options["game"])
    return game_form.is_valid() and _full_game(request, game_form, match)


def _recorded(result: Any) -> bool:
    """Whether ``run`` (or ``_quick_game``) changed something (``None`` after an error)."""
    return result is not None


def _full_game(request: HttpRequest, form: GameForm, match: Match) -> bool:
    """Record a game from the valid full form; a service error goes onto the form."""
    data = form.cleaned_data
    try:
        if data["correction"]:
            services.game_correct(
                game=selectors.game_at(match=match, number=data["number"]),
                winner_entry=data["winner"],
                first_entry=data["first"],
                waived=data["waived"],
                score=data["score"],
                reason=data["reason"],
                actor=request.user,
            )
        else:
            services.game_record(
                match=match,
                number=data["number"],
                winner_entry=data["winner"],
                first_entry=data["first"],
                waived=data["waived"],
                right_holder_entry=data["right_holder"],
                score=data["score"],
                actor=request.user,
            )
    except FORM_ERRORS as exc:
        form.add_error(None, str(exc.message))
        return False
    messages.success(request, _("Game %(game)s recorded.") % {"game": data["number"]})
    return True


def _quick_game(
    request: HttpRequest, form: QuickGameForm, view: selectors.MatchView, match: Match
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
    return run(
        request,
        lambda: services.game_record(
            match=match,
            number=right.game,
            winner_entry=winner,
            first_entry=other if data["waived"] else right.holder,
            waived=data["waived"],
            score=data.get("score"),
            actor=request.user,
        ),
        _("Game %(game)s recorded.") % {"game": right.game},
    )


def _game_form(
    view: selectors.MatchView,
    a: Side,
    b: Side,
    *,
    scored: bool,
    chooses: bool,
    score_max: int | None = None,
) -> GameForm:
    """The next game's form, pre-filled with the right holder as the entry going first."""
    initial: dict[str, Any] = {"number": len(view.games) + 1}
    if view.right is not None and view.right.holder is not None:
        initial["first"] = view.right.holder
    return GameForm(
        a=a,
        b=b,
        prefix="game",
        initial=initial,
        scored=scored,
        chooses=chooses,
        score_max=score_max,
    )


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
            actor=request.user,
        )
    except FORM_ERRORS as exc:
        messages.error(
            request, _("Table %(table)s: %(error)s") % {"table": table, "error": error_message(exc)}
        )
        return redirect(round_url(tournament, number) + f"#fast-{table}")
    messages.success(request, _("Table %(table)s recorded.") % {"table": table})
    following = selectors.next_open_table(round=rnd, after=table)
    anchor = f"#fast-{following}" if following is not None else "#fast-results"
    return redirect(round_url(tournament, number) + anchor)
