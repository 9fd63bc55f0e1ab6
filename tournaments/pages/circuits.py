"""Circuit pages: the list and a new circuit (or the HKK preset), the season standings page
(with its CSV, events, leagues, ratings and the owner's join requests), the owner's settings
and league forms, an event's request to join; player profiles and the organisers' view of the
history of the people registering. docs/rules.md §19 (Circuits, season standings and league
gates)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from hkk_tournament.web.downloads import csv_response
from tournaments.domain.circuits import SEASON_TIEBREAKS
from tournaments.models import Circuit, CircuitEvent, CircuitRating, League
from tournaments.pages.circuit_forms import (
    CircuitCreateForm,
    CircuitSettingsForm,
    JoinForm,
    LeagueForm,
)
from tournaments.pages.common import FORM_ERRORS, entry_of, managed_tournament
from tournaments.selectors.circuits import (
    circuit_get_owned,
    circuit_get_visible,
    circuits_visible,
)
from tournaments.selectors.profiles import (
    can_view_profile,
    players_of_person,
    players_of_user,
    profile_is_public,
    user_display_name,
)
from tournaments.services import circuits as cs


def _visible_circuit(request: HttpRequest, circuit_id: int) -> Circuit:
    return circuit_get_visible(circuit_id=circuit_id, user=request.user)


def _owned_circuit(request: HttpRequest, circuit_id: int) -> Circuit:
    return circuit_get_owned(circuit_id=circuit_id, user=request.user)


@require_http_methods(["GET", "POST"])
def circuit_list(request: HttpRequest) -> HttpResponse:
    """GET /circuits/: public circuits and one's own; POST (signed in) creates a circuit or
    the HKK preset (``services.circuits.circuit_create`` / ``circuit_create_hkk_preset``)."""
    form = CircuitCreateForm(request.POST or None)
    if request.method == "POST" and request.user.is_authenticated and form.is_valid():
        data = form.cleaned_data
        try:
            if data["hkk_preset"]:
                made = cs.circuit_create_hkk_preset(
                    owner=request.user, game=data["game"], season=data["season"]
                )
                circuit = made[0]
            else:
                circuit = cs.circuit_create(
                    owner=request.user,
                    game=data["game"],
                    data=cs.CircuitSettings(name=data["name"]),
                )
        except FORM_ERRORS as exc:  # a refusal (403/404) reaches the error page
            form.add_error(None, str(exc.message))
        else:
            return redirect(reverse("tournaments:circuit", args=[circuit.pk]))
    visible = circuits_visible(user=request.user)
    return render(request, "tournaments/circuits/list.html", {"circuits": visible, "form": form})


def _standing_rows(circuit: Circuit, season: cs.SeasonData) -> list[dict[str, Any]]:
    codes = list(circuit.rules.tiebreaks)
    out = []
    for row in season.rows:
        by_event = {s.result.event: s for s in row.results}
        out.append(
            {
                "rank": row.rank,
                "name": season.names.get(row.person, row.person),
                "user_id": season.users.get(row.person),
                "points": cs.number_display(row.points),
                "events_played": row.events_played,
                "tiebreaks": [cs.number_display(row.tiebreaks[c]) for c in codes],
                "cells": [
                    (
                        cs.number_display(by_event[t.pk].points) if t.pk in by_event else "",
                        t.pk in by_event and by_event[t.pk].counted,
                    )
                    for t in season.events
                ],
            }
        )
    return out


@require_GET
def circuit_detail(request: HttpRequest, circuit_id: int) -> HttpResponse:
    """GET /circuits/<id>/: the season standings, events, leagues and ratings; the owner also
    sees the join requests with accept and refuse buttons."""
    circuit = _visible_circuit(request, circuit_id)
    season = cs.circuit_season(circuit=circuit)
    owner = circuit.owner_id == request.user.pk
    links = circuit.links.select_related("tournament", "league").order_by("requested_at")
    context = {
        "circuit": circuit,
        "owner": owner,
        "rows": _standing_rows(circuit, season),
        "events": season.events,
        "tiebreak_labels": [_(SEASON_TIEBREAKS[c].label) for c in circuit.rules.tiebreaks],
        "links": links,
        "leagues": circuit.leagues.select_related("measured_on"),
        "ratings": CircuitRating.objects.filter(circuit=circuit)[:100]
        if circuit.ratings_enabled
        else [],
        "tiers": circuit.tier_list,
        "points_text": circuit.table.to_text(),
    }
    return render(request, "tournaments/circuits/detail.html", context)


@require_GET
def circuit_csv(request: HttpRequest, circuit_id: int) -> HttpResponse:
    """GET /circuits/<id>/standings.csv: the whole season standings."""
    circuit = _visible_circuit(request, circuit_id)
    return csv_response(cs.circuit_standings_csv(circuit=circuit), f"circuit-{circuit.pk}.csv")


@login_required
@require_http_methods(["GET", "POST"])
def circuit_settings(request: HttpRequest, circuit_id: int) -> HttpResponse:
    """GET/POST /circuits/<id>/settings/: the owner edits the points table, tiers, best N,
    minimum attendance, tie-breaks, ratings and visibility (``circuit_update``)."""
    circuit = _owned_circuit(request, circuit_id)
    form = CircuitSettingsForm(
        request.POST or None, initial=CircuitSettingsForm.initial_of(circuit)
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            cs.circuit_update(
                circuit=circuit,
                actor=request.user,
                data=cs.CircuitSettings(
                    name=data["name"],
                    description=data["description"],
                    points_text=data["points_text"],
                    tiers_text=data["tiers_text"],
                    best_n=data["best_n"],
                    min_events=data["min_events"],
                    tiebreaks=data["tiebreaks"],
                    ratings_enabled=data["ratings_enabled"],
                    is_public=data["is_public"],
                ),
            )
        except FORM_ERRORS as exc:  # a refusal (403/404) reaches the error page
            fields = exc.fields or {"": [exc.message]}
            for name, errors in fields.items():
                for error in errors:
                    form.add_error(name if name in form.fields else None, str(error))
        else:
            messages.success(request, _("Saved."))
            return redirect(reverse("tournaments:circuit", args=[circuit.pk]))
    context = {"circuit": circuit, "form": form, "leagues": circuit.leagues.all()}
    return render(request, "tournaments/circuits/settings.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def league_edit(
    request: HttpRequest, circuit_id: int, league_id: int | None = None
) -> HttpResponse:
    """GET/POST /circuits/<id>/leagues/new/ and …/leagues/<league>/: a league and its gate."""
    circuit = _owned_circuit(request, circuit_id)
    league = get_object_or_404(League, pk=league_id, circuit=circuit) if league_id else None
    form = LeagueForm(request.POST or None, instance=league, owner=request.user)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            cs.league_save(
                circuit=circuit,
                actor=request.user,
                league=league,
                data=cs.LeagueData(
                    name=d["name"],
                    measured_on=d["measured_on"],
                    min_points=d["min_points"],
                    max_points=d["max_points"],
                    min_events=d["min_events"],
                    max_events=d["max_events"],
                    listed_only=d["listed_only"],
                    listed_names=d["listed_names"].splitlines(),
                ),
            )
        except FORM_ERRORS as exc:  # a refusal (403/404) reaches the error page
            form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("Saved."))
            return redirect(reverse("tournaments:circuit", args=[circuit.pk]))
    context = {"circuit": circuit, "form": form, "league": league}
    return render(request, "tournaments/circuits/league.html", context)


@login_required
@require_POST
def circuit_decide(request: HttpRequest, circuit_id: int, link_id: int) -> HttpResponse:
    """POST /circuits/<id>/events/<link>/decide/ (``accept`` = 1 or 0): the owner's decision."""
    circuit = _owned_circuit(request, circuit_id)
    link = get_object_or_404(CircuitEvent, pk=link_id, circuit=circuit)
    cs.circuit_event_decide(link=link, actor=request.user, accept=request.POST.get("accept") == "1")
    messages.success(request, _("Saved."))
    return redirect(reverse("tournaments:circuit", args=[circuit.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def tournament_circuits(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET/POST /tournaments/<id>/circuits/: an organiser asks for the event to count in a
    circuit of its game (``circuit_event_request``) and sees the requests' state."""
    tournament = managed_tournament(request, tournament_id)
    form = JoinForm(request.POST or None, game_id=tournament.format.game_id)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            cs.circuit_event_request(
                circuit=d["circuit"],
                tournament=tournament,
                actor=request.user,
                tier=d["tier"],
                league=d["league"],
            )
        except FORM_ERRORS as exc:  # a refusal (403/404) reaches the error page
            form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("The request is sent to the owner of the circuit."))
            return redirect(reverse("tournaments:tournament-circuits", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "form": form,
        "links": CircuitEvent.objects.filter(tournament=tournament).select_related(
            "circuit", "league"
        ),
        "circuits": Circuit.objects.filter(game_id=tournament.format.game_id),
    }
    return render(request, "tournaments/circuits/join.html", context)


@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest, user_id: int) -> HttpResponse:
    """GET /players/<user>/: a player's events, placements, match record, published lists and
    ratings, when public or one's own; POST (the player) makes it public or private."""
    user = get_object_or_404(get_user_model(), pk=user_id)
    own = request.user.is_authenticated and request.user.pk == user.pk
    if request.method == "POST":
        cs.profile_set_public(
            actor=request.user, user=user, is_public=request.POST.get("is_public") == "1"
        )
        messages.success(request, _("Saved."))
        return redirect(reverse("tournaments:player-profile", args=[user.pk]))
    if not can_view_profile(request.user, user):
        raise Http404
    context = {
        "person": user,
        "name": user_display_name(user),
        "own": own,
        "is_public": profile_is_public(user),
        "history": cs.person_history(players=players_of_user(user), public_only=not own),
        "ratings": CircuitRating.objects.filter(user=user).select_related("circuit"),
    }
    return render(request, "tournaments/circuits/profile.html", context)


@login_required
@require_GET
def entry_history(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """GET /tournaments/<id>/entries/<entry>/history/: the organisers see the history of the
    people of an entry (their account's, or for a player without an account the same name's),
    whatever their profile setting."""
    tournament = managed_tournament(request, tournament_id)
    entry = entry_of(tournament, entry_id)
    people = [
        {
            "player": m.player,
            "history": [
                h
                for h in cs.person_history(players=players_of_person(m.player))
                if h.tournament.pk != tournament.pk
            ],
        }
        for m in entry.members.select_related("player").order_by("seat")
    ]
    context = {"tournament": tournament, "entry": entry, "people": people}
    return render(request, "tournaments/circuits/entry_history.html", context)
