"""The meta statistics pages: the statistics with charts and a filter, their CSV and JSON
exports (HKKmeta's CSV too), and the player's list consent (docs/rules.md §20 (Meta
statistics)). Public, read-only except the consent page."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from hkk_tournament.errors import ValidationFailed
from hkk_tournament.web.downloads import csv_response
from tournaments.pages.meta_forms import ListConsentForm, MetaFilterForm
from tournaments.selectors.meta import MetaView, chart_data, consent_of, meta_view, view_dict
from tournaments.services.meta import consent_set, meta_cards_csv, meta_hkkmeta_csv


def _view(request: HttpRequest) -> tuple[MetaFilterForm, MetaView | None]:
    form = MetaFilterForm(request.GET or None)
    if not request.GET:
        form = MetaFilterForm({"game": form.fields["game"].initial or ""})
    return form, meta_view(form.query()) if form.is_valid() else None


def _valid_view(request: HttpRequest) -> MetaView:
    form, view = _view(request)
    if view is None:
        raise ValidationFailed(
            "invalid_filter",
            _("Check the filter of the statistics."),
            {},
            fields={k: [str(m) for m in v] for k, v in form.errors.items()},
        )
    return view


@require_GET
def meta_page(request: HttpRequest) -> HttpResponse:
    """The statistics of the filter (``?game=&format=&date_from=&date_to=&tournament=``):
    totals, charts, the card tables and each deck feature with its win rates."""
    form, view = _view(request)
    query = urlencode({k: v for k, v in request.GET.items() if v}) if view else ""
    context = {
        "form": form,
        "view": view,
        "query": query,
        "charts": chart_data(view) if view else None,
        "top_count": settings.HKK_META_TOP_COUNT,
        "top_percent": settings.HKK_META_TOP_PERCENT,
    }
    return render(request, "tournaments/public/meta.html", context)


@require_GET
def meta_csv(request: HttpRequest) -> HttpResponse:
    """Every card's statistics as CSV (the page's filter)."""
    return csv_response(meta_cards_csv(view=_valid_view(request)), "meta-cards.csv")


@require_GET
def meta_hkkmeta(request: HttpRequest) -> HttpResponse:
    """HKKmeta's CSV (``?table=signature``: its "narancslapok" table; else its top cards)."""
    signature = request.GET.get("table") == "signature"
    name = "orange.csv" if signature else "topcards.csv"
    return csv_response(meta_hkkmeta_csv(view=_valid_view(request), signature=signature), name)


@require_GET
def meta_json(request: HttpRequest) -> JsonResponse:
    """The statistics as JSON (the API's shape, ``selectors.meta.view_dict``)."""
    return JsonResponse(view_dict(_valid_view(request)), json_dumps_params={"ensure_ascii": False})


@login_required
@require_http_methods(["GET", "POST"])
def list_consent(request: HttpRequest) -> HttpResponse:
    """The player's consent to count in the meta statistics: see and change it."""
    if request.method == "POST":
        form = ListConsentForm(request.POST)
        if form.is_valid():
            consent_set(user=request.user, share_lists=form.cleaned_data["share_lists"])
            messages.success(request, _("Your choice is saved."))
            return redirect("tournaments:list-consent")
    else:
        form = ListConsentForm(initial={"share_lists": consent_of(request.user)})
    return render(
        request,
        "tournaments/player/list_consent.html",
        {"form": form, "sharing": consent_of(request.user)},
    )
