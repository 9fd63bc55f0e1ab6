"""Organiser pages for the event day: fix a round after pairing (discard a draft and pair again,
unpublish a round without results), reopen a finished event with a reason, the registration
desk (check-in, drop those not checked in, add a dropped entry back, import a list of players
with a preview), claim codes and invitations for organiser-added players, the event's details
and "use as a template"; and the player's page to claim an entry with a code.

Irreversible steps answer GET with a confirmation page whose button POSTs (no script needed).
Who may: ``can_manage`` on the event (403; 404 when it is not visible); the claim page needs
an account. Every POST redirects (POST-redirect-GET) except a form shown again with its errors.
Sources: docs/rules.md §14 (Swiss pairing and byes), §16 (Deck checks, penalties and result
reporting).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from hkk_tournament.errors import ApplicationError, NotFound, PermissionDenied, TooManyRequests
from hkk_tournament.mail import mail_delivers
from hkk_tournament.web.throttling import attempt_budgets, check_and_count, failures_counted
from tournaments import selectors, services
from tournaments.pages import printouts
from tournaments.pages.common import (
    FORM_ERRORS,
    confirm_page,
    detail_url,
    entry_of,
    managed_tournament,
    posted,
    round_url,
    run,
    visible_round,
)
from tournaments.pages.organiser_forms import (
    ClaimForm,
    ConfirmForm,
    DetailsForm,
    DiscardForm,
    ImportForm,
    ReaddForm,
    UnpublishForm,
)

# --- rounds ------------------------------------------------------------------------------------


_KEPT = _(
    "Results recorded in the round are deleted only when you tick the box; they are kept in "
    "the round's history and can be restored once the round is published again."
)


@login_required
@require_http_methods(["GET", "POST"])
def round_discard(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/rounds/<number>/discard/: discard a draft round (and pair it
    again when ticked), with a recorded reason (``services.round_discard``); a round with
    results needs ``delete_results`` ticked, else the page is shown again with the error
    (409)."""
    tournament = managed_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    form = DiscardForm(posted(request), reason_required=True)
    refused = False
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        new = run(
            request,
            lambda: services.round_discard(
                round=rnd,
                actor=request.user,
                reason=data["reason"],
                pair_again=data["pair_again"],
                delete_results=data["delete_results"],
            ),
            _("The draft round is discarded."),
        )
        if new is not None and new is not True:
            return redirect(round_url(tournament, new.number))
        if new:
            return redirect(detail_url(tournament))
        refused = True
    return confirm_page(
        request,
        tournament,
        title=_("Discard round %(round)s") % {"round": number},
        explanation=[
            _("The draft pairings of this round are deleted; the change is recorded."),
            _KEPT,
        ],
        submit=_("Yes, discard the round"),
        form=form,
        cancel_url=round_url(tournament, number),
        status=409 if refused else 400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_unpublish(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/rounds/<number>/unpublish/: a published round goes back to
    draft, with a recorded reason (``services.round_unpublish``); a round with results needs
    ``delete_results`` ticked, else the page is shown again with the error (409)."""
    tournament = managed_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    form = UnpublishForm(posted(request), reason_required=True)
    refused = False
    if request.method == "POST" and form.is_valid():
        done = run(
            request,
            lambda: services.round_unpublish(
                round=rnd,
                actor=request.user,
                reason=form.cleaned_data["reason"],
                delete_results=form.cleaned_data["delete_results"],
            ),
            _("The round is a draft again: change the pairings or discard it."),
        )
        if done is not None:
            return redirect(round_url(tournament, number))
        refused = True
    return confirm_page(
        request,
        tournament,
        title=_("Unpublish round %(round)s") % {"round": number},
        explanation=[
            _("The players no longer see the pairings until you publish them again."),
            _KEPT,
        ],
        submit=_("Yes, unpublish"),
        form=form,
        cancel_url=round_url(tournament, number),
        status=409 if refused else 400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def results_restore(request: HttpRequest, tournament_id: int, action_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/actions/<action_id>/restore/: put back the results an
    unpublish or discard deleted (``services.round_results_restore``) into the round of the
    same number, published again; then to that round's page."""
    tournament = managed_tournament(request, tournament_id)
    number = selectors.action_round_number(tournament=tournament, action_id=action_id)
    if request.method == "POST":
        run(
            request,
            lambda: services.round_results_restore(
                tournament=tournament, action_id=action_id, actor=request.user
            ),
            _("The deleted results are restored."),
        )
        return redirect(round_url(tournament, number))
    return confirm_page(
        request,
        tournament,
        title=_("Restore the deleted results of round %(round)s") % {"round": number},
        explanation=[
            _(
                "The games, die rolls and player reports deleted from this round go back to "
                "their tables, where the same players still play and nothing was recorded since."
            )
        ],
        submit=_("Yes, restore them"),
        cancel_url=round_url(tournament, number),
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_reopen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/reopen/: reopen a finished event to correct results, with a
    recorded reason (``services.tournament_reopen``)."""
    tournament = managed_tournament(request, tournament_id)
    form = ConfirmForm(posted(request), reason_required=True)
    if request.method == "POST" and form.is_valid():
        run(
            request,
            lambda: services.tournament_reopen(
                tournament=tournament, actor=request.user, reason=form.cleaned_data["reason"]
            ),
            _("The tournament is open for corrections; finish it again when done."),
        )
        return redirect(detail_url(tournament))
    return confirm_page(
        request,
        tournament,
        title=_("Reopen the tournament"),
        explanation=[
            _("Results can be corrected again; each correction is recorded on its match.")
        ],
        submit=_("Yes, reopen"),
        form=form,
        status=400 if request.method == "POST" else 200,
    )


# --- the desk ------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def entry_readd(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/entries/<entry_id>/readd/: add a dropped entry back
    (``services.entry_readd``). When rounds were paired without it, GET asks what they count
    as (a loss, a bye, or a seat against the bye of the round in progress) and why; without
    missed rounds a POST adds it back at once."""
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    last_round = selectors.last_rounds([tournament]).get(tournament.pk)
    last = last_round.number if last_round else None
    if not services.readd_needs_choice(entry, last):
        if request.method == "POST":
            run(
                request,
                lambda: services.entry_readd(entry=entry, actor=request.user),
                _("%(name)s is back in the event.") % {"name": entry.shown_name},
            )
        return redirect(detail_url(tournament))
    form = ReaddForm(posted(request), reason_required=True)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        done = run(
            request,
            lambda: services.entry_readd(
                entry=entry, actor=request.user, missed=data["missed"], reason=data["reason"]
            ),
            _("%(name)s is back in the event.") % {"name": entry.shown_name},
        )
        if done and data["missed"] == "pair" and last:
            return redirect(round_url(tournament, last))
        return redirect(detail_url(tournament))
    after = entry.dropped_after_round or 0
    return confirm_page(
        request,
        tournament,
        title=_("Add %(name)s back") % {"name": entry.shown_name},
        explanation=[
            _("Rounds %(first)s–%(last)s were paired without %(name)s.")
            % {"first": after + 1, "last": last, "name": entry.shown_name}
            if last and last > after + 1
            else _("Round %(round)s was paired without %(name)s.")
            % {"round": last, "name": entry.shown_name},
            _("A missed round counts as a match loss with no game won, or as a bye (a win)."),
        ],
        submit=_("Add back"),
        form=form,
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def entry_check_in(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/check-in/ (``undo=1`` to take it back)."""
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    present = request.POST.get("undo") != "1"
    run(
        request,
        lambda: services.entry_check_in(actor=request.user, entry=entry, checked_in=present),
        _("%(name)s is checked in.") % {"name": entry.shown_name}
        if present
        else _("%(name)s is no longer checked in.") % {"name": entry.shown_name},
    )
    return redirect(detail_url(tournament) + f"#entry-{entry.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def drop_not_checked_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/check-in/drop-absent/: drop every entry not checked in."""
    tournament = managed_tournament(request, tournament_id)
    if request.method == "POST":
        dropped = run(
            request,
            lambda: services.entries_drop_not_checked_in(tournament=tournament, actor=request.user),
            _("The entries not checked in have dropped."),
        )
        return redirect(detail_url(tournament) if dropped is not None else detail_url(tournament))
    absent = [
        e.shown_name
        for e in sorted(
            tournament.entries.filter(checked_in_at=None, dropped_after_round=None),
            key=lambda e: (e.name_sort_key, e.pk),
        )
    ]
    return confirm_page(
        request,
        tournament,
        title=_("Drop all not checked in"),
        explanation=[
            _("These entries will drop: %(names)s.") % {"names": ", ".join(absent) or "–"}
        ],
        submit=_("Yes, drop them"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def entries_import(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/entries/import/: paste or upload a player list; the first
    POST shows the preview (rows with errors and warnings, nothing saved); "save" imports all
    rows, or none when any row has an error (``services.entries_import``)."""
    tournament = managed_tournament(request, tournament_id)
    form = ImportForm(request.POST or None, request.FILES or None, pair=tournament.is_pair)
    result = None
    if request.method == "POST" and form.is_valid():
        save = request.POST.get("save") == "1"
        try:
            result = services.entries_import(
                tournament=tournament,
                text=form.cleaned_data["text"],
                data=form.cleaned_data["data"],
                dry_run=not save,
                actor=request.user,
            )
        except FORM_ERRORS as exc:
            form.add_error(None, str(exc.message))
        else:
            if result.saved:
                done = (
                    _("%(count)s teams imported.")
                    if result.pair
                    else _("%(count)s players imported.")
                )
                messages.success(request, done % {"count": len(result.rows)})
                return redirect(detail_url(tournament))
            if save:
                messages.error(request, _("Nothing was saved: correct the rows with errors."))
            # An uploaded file goes into the text box (as read), so "Import" sends the same rows.
            form = ImportForm({"text": result.text}, pair=tournament.is_pair)
            form.is_valid()
    context = {"tournament": tournament, "form": form, "result": result}
    return render(request, "tournaments/organiser/import.html", context)


# --- people ---------------------------------------------------------------------------------------


@login_required
@require_POST
def claim_code(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/claim-code/: make the entry's claim code(s) and
    show the printable list."""
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    for member in entry.members.filter(player__user=None):
        try:
            services.player_claim_code(actor=request.user, entry=entry, player_id=member.player_id)
        except FORM_ERRORS as exc:
            messages.error(request, str(exc.message))
    return redirect(reverse("tournaments:claim-codes", args=[tournament.pk]))


@login_required
@require_POST
def invite(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/invite/: e-mail seat A a claim link (counted
    per organiser and per address: the ``invite`` throttle scopes). When this server sends no
    e-mail the code is made and the printable list shows it instead: it never goes to a log."""
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    member = entry.members.filter(player__user=None).first()
    player_id = member.player_id if member else None
    if not mail_delivers():
        made = run(
            request,
            lambda: services.player_claim_code(
                actor=request.user, entry=entry, player_id=player_id
            ),
            _("This server sends no e-mail: give the player the code from this list."),
        )
        if made:
            return redirect(reverse("tournaments:claim-codes", args=[tournament.pk]))
        return redirect(detail_url(tournament))

    def send() -> object:
        check_and_count(attempt_budgets(request, "invite"))
        player = services.player_claim_code(actor=request.user, entry=entry, player_id=player_id)
        url = request.build_absolute_uri(
            reverse("tournaments:claim") + f"?code={player.claim_code}"
        )
        return services.player_invite(
            actor=request.user, entry=entry, claim_url=url, player_id=player.pk
        )

    run(request, send, _("The invitation is sent."))
    return redirect(detail_url(tournament))


@login_required
@require_GET
def claim_codes(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/claim-codes/: the printable list of the players' claim codes."""
    tournament = managed_tournament(request, tournament_id)
    rows = selectors.claim_codes(tournament=tournament)
    context = {
        "tournament": tournament,
        "rows": rows,
        "expired": sum(1 for r in rows if r["expired"]),
        "mail": mail_delivers(),
        "claim_url": request.build_absolute_uri(reverse("tournaments:claim")),
    }
    return render(request, "tournaments/organiser/claim_codes.html", context)


@login_required
@require_POST
def invite_all(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/claim-codes/invite/: claim codes for every player without an
    account and an invitation e-mail to each who has an address
    (``services.player_invite_all``; counted once against the organiser's ``invite``
    throttle); the message says how many were sent and how many players have no address."""
    tournament = managed_tournament(request, tournament_id)

    try:
        check_and_count(attempt_budgets(request, "invite"))
        count = services.player_invite_all(
            actor=request.user,
            tournament=tournament,
            claim_url=request.build_absolute_uri(reverse("tournaments:claim")),
        )
    except ApplicationError as exc:  # TooManyRequests is one
        messages.error(request, str(exc.message))
    else:
        messages.success(
            request,
            _("Invitations sent: %(sent)s; players without an e-mail address: %(skipped)s.")
            % {"sent": count.sent, "skipped": count.skipped},
        )
    return redirect(reverse("tournaments:claim-codes", args=[tournament.pk]))


@login_required
@require_POST
def claim_codes_all(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/claim-codes/all/: a claim code for every player without an
    account (missing and expired ones made new), then the printable list."""
    tournament = managed_tournament(request, tournament_id)
    run(
        request,
        lambda: services.player_claim_codes_all(actor=request.user, tournament=tournament),
        _("Every player without an account has a claim code."),
    )
    return redirect(reverse("tournaments:claim-codes", args=[tournament.pk]))


@login_required
@require_GET
def claim_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/claim-codes/sheet.pdf: the A4 sheet to cut up, one card per
    player without an account (name, round-1 table, code, QR code of the claim link)."""
    tournament = managed_tournament(request, tournament_id)
    claim_url = request.build_absolute_uri(reverse("tournaments:claim"))
    content = printouts.claim_sheet_pdf(tournament=tournament, claim_url=claim_url)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="claim-codes.pdf"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """GET, POST /claim/ (signed-in users): enter the code the organiser gave you; your account
    then plays the entry (see your table, report your results)."""
    form = ClaimForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            with failures_counted(request, "claim"):
                player = services.player_claim(user=request.user, code=form.cleaned_data["code"])
        except (*FORM_ERRORS, NotFound, PermissionDenied) as exc:  # a wrong code: beside the form
            form.add_error("code", str(exc.message))
            status = 429 if isinstance(exc, TooManyRequests) else 200
        else:
            messages.success(
                request, _("Welcome, %(name)s: the entry is yours.") % {"name": player.shown_name}
            )
            member = player.memberships.select_related("tournament").order_by("-id").first()
            if member is not None:
                return redirect(detail_url(member.tournament))
            return redirect(reverse("tournaments:my-events"))
    return render(request, "tournaments/player/claim.html", {"form": form}, status=status)


# --- details and templates -------------------------------------------------------------------


@login_required
@require_POST
def tournament_details(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/details/: date and time, venue, description, player cap."""
    tournament = managed_tournament(request, tournament_id)
    form = DetailsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the details: the player cap is at least 2."))
        return redirect(detail_url(tournament))
    run(
        request,
        lambda: services.tournament_set_details(
            actor=request.user, tournament=tournament, **form.cleaned_data
        ),
        _("Details saved."),
    )
    return redirect(detail_url(tournament))


@login_required
@require_POST
def tournament_duplicate(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/duplicate/: a new draft event with the same settings (no entries);
    the user becomes its owner."""
    tournament = managed_tournament(request, tournament_id)
    copy = services.tournament_duplicate(tournament=tournament, owner=request.user)
    messages.success(request, _("A copy is created: set its date and open registration."))
    return redirect(detail_url(copy))
