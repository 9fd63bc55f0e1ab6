"""Organiser pages for the entries of an event: add a player or a pair team (a late entry while
the event runs), enter a member's deck list, let an entry play without a legal list (override,
with a reason), approve an unverified list (with a reason) and drop an entry from the next round
on.

Who may: ``can_manage`` on the event (403; 404 when the event or the entry is not visible);
anonymous users go to the login page. Deck lists are checked by the services against
docs/rules.md §3 (HKK deck construction (Hagyományos)) and the format's rules (§4, §9, §12);
late entries and drops follow §8 (HKK tournament structure and scoring).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors, services
from tournaments.pages.common import (
    FORM_ERRORS,
    confirm_page,
    detail_url,
    entry_of,
    managed_tournament,
    posted,
    round_url,
    run,
)
from tournaments.pages.organiser_forms import (
    ConfirmForm,
    DeckSubmitForm,
    DropForm,
    EntryAddForm,
    ReasonForm,
)


@login_required
@require_POST
def entry_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/add/ (organisers): register a player, or a pair team when seat
    B is filled (:class:`EntryAddForm`); a late entry while running. Redirects to the event page
    with a success or error message.
    """
    tournament = managed_tournament(request, tournament_id)
    form = EntryAddForm(
        request.POST, pair=tournament.is_pair, late=tournament.status == tournament.Status.RUNNING
    )
    if not form.is_valid():
        messages.error(request, _("Give the player's name."))
        return redirect(detail_url(tournament))
    data = form.cleaned_data
    players = [data["player_a"]] + ([data["player_b"]] if data["player_b"] else [])
    same = [n for p in players for n in services.same_name_entries(tournament, p)]
    added = run(
        request,
        lambda: services.entry_register(
            tournament=tournament,
            players=players,
            name=data["name"],
            missed=services.MissedChoice(
                outcome=data["missed"], reason=data["reason"], by=request.user
            )
            if data["missed"]
            else None,
        ),
        _("Entry added."),
    )
    if added and same:
        messages.warning(
            request,
            _("Check for a duplicate: the event already has %(names)s.")
            % {"names": ", ".join(same)},
        )
    return redirect(detail_url(tournament))


@login_required
@require_http_methods(["GET", "POST"])
def entry_deck(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/entries/<entry_id>/deck/ (organisers): an entry's deck-list
    history and :class:`DeckSubmitForm` to submit a member's list (``services.deck_submit``);
    illegal lists are stored too, with a warning. 404 for an entry of another event. A list
    pasted in the event's entries table (``back=event``) returns to that table.
    """
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    view = next(v for v in selectors.entry_views(tournament=tournament) if v.id == entry.pk)
    seat_choices = [
        (m.seat, f"{m.player_name} ({m.seat})" if tournament.is_pair else m.player_name)
        for m in view.members
    ]
    form = DeckSubmitForm(request.POST or None, seat_choices=seat_choices)
    if request.method == "POST" and form.is_valid():
        try:
            player = selectors.member_player(entry=entry, seat=form.cleaned_data["seat"])
            submission = services.deck_submit(
                tournament=tournament,
                entry=entry,
                player=player,
                text=form.cleaned_data["text"],
                actor=request.user,
            )
        except FORM_ERRORS as exc:
            form.add_error(None, str(exc.message))
        else:
            if submission.verdict == "legal":
                messages.success(request, _("The list is stored and legal."))
            elif submission.verdict == "unverified":
                messages.warning(
                    request,
                    _("The list is stored but unverified: check it and approve it with a reason."),
                )
            else:
                messages.warning(request, _("The list is stored but it is not legal."))
            if request.POST.get("back") == "event":  # pasted from the entries table
                return redirect(detail_url(tournament) + f"#entry-{entry.pk}")
            return redirect(reverse("tournaments:entry-deck", args=[tournament.pk, entry.pk]))
    context = {
        "tournament": tournament,
        "entry": view,
        "form": form,
        "override_form": ReasonForm(),
        "submissions": list(selectors.deck_submissions(entry=entry)),
    }
    return render(request, "tournaments/organiser/entry_deck.html", context)


@login_required
@require_POST
def entry_override(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/override/ (organisers): let the entry be paired
    without a legal list, with the :class:`ReasonForm` reason (a blank one is refused by the
    service). Redirects to the event page.
    """
    tournament = managed_tournament(request, tournament_id)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    entry = entry_of(tournament, entry_id)
    run(
        request,
        lambda: services.entry_override_deck(entry=entry, reason=reason, actor=request.user),
        _("Override recorded."),
    )
    return redirect(detail_url(tournament))


@login_required
@require_POST
def entry_deck_approve(
    request: HttpRequest, tournament_id: int, entry_id: int, deck_id: int
) -> HttpResponse:
    """POST /tournaments/<id>/entries/<entry_id>/decks/<deck_id>/approve/ (organisers): accept an
    unverified list with the :class:`ReasonForm` reason (``services.deck_approve_unverified``;
    docs/rules.md §17 (Card data sources and coverage)). Redirects to the entry's deck page.
    """
    tournament = managed_tournament(request, tournament_id)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    entry = entry_of(tournament, entry_id)
    run(
        request,
        lambda: services.deck_approve_unverified(
            tournament=tournament,
            entry=entry,
            submission_id=deck_id,
            reason=reason,
            actor=request.user,
        ),
        _("The unverified list is approved."),
    )
    return redirect(reverse("tournaments:entry-deck", args=[tournament.pk, entry.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def entry_drop(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/entries/<entry_id>/drop/ (organisers): GET asks for
    confirmation; POST drops the entry from the next round on (``services.entry_drop``). When
    the entry is already paired in the current, unfinished round the page offers a new pairing
    of that round or a bye for the opponent, with a recorded reason
    (``services.entry_drop_and_repair`` / ``services.entry_drop_with_bye``). Redirects to the
    event or the round page.
    """
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    paired = selectors.entry_paired_round(entry=entry)
    if paired is not None:
        form: ConfirmForm = DropForm(posted(request), reason_required=True)
    else:
        form = ConfirmForm(posted(request))
    if request.method == "POST" and form.is_valid():
        reason = form.cleaned_data["reason"]
        if paired is not None:
            fix = form.cleaned_data["fix"]
            done = run(
                request,
                lambda: (
                    services.entry_drop_with_bye if fix == "bye" else services.entry_drop_and_repair
                )(entry=entry, actor=request.user, reason=reason),
                _("%(name)s has dropped; the opponent gets a bye.") % {"name": entry.shown_name}
                if fix == "bye"
                else _("%(name)s has dropped; the round is paired again.")
                % {"name": entry.shown_name},
            )
            if done:
                return redirect(round_url(tournament, paired.number))
            return redirect(detail_url(tournament))
        run(
            request,
            lambda: services.entry_drop(entry=entry),
            _("%(name)s has dropped.") % {"name": entry.shown_name},
        )
        return redirect(detail_url(tournament))
    explanation = [
        _(
            "%(name)s will not be paired from the next round on. You can add them back at any "
            "time before the event ends."
        )
        % {"name": entry.shown_name}
    ]
    if paired is not None:
        explanation.append(
            _("%(name)s is already paired in round %(round)s.")
            % {"name": entry.shown_name, "round": paired.number}
        )
    return confirm_page(
        request,
        tournament,
        title=_("Drop %(name)s") % {"name": entry.shown_name},
        explanation=explanation,
        submit=_("Yes, drop"),
        form=form,
        status=400 if request.method == "POST" else 200,
    )
