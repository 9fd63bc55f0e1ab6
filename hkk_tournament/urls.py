"""Root URL configuration: pages, the REST API, its OpenAPI schema, admin and language switch.

``/healthz/`` and ``/readyz/`` are answered by ``hkk_tournament.web.health.HealthCheckMiddleware``
before URL routing. ``handler400/403/404/500`` (``hkk_tournament.web.error_views``) answer JSON
errors under ``/api/`` and translated error pages elsewhere.
"""

from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.urls import api_urlpatterns as accounts_api_urlpatterns
from hkk_tournament.web.rules_page import rules

urlpatterns = [
    path("admin/", admin.site.urls),
    # Without a CSRF token (docs/production.md, "Security notes"): a forged request can only
    # change the display language, and the shared public pages then carry no per-visitor bytes.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("api/auth/", include((accounts_api_urlpatterns, "accounts_api"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script: CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("decks.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("rules/", rules, name="rules"),
    path("", include("decks.pages.urls")),
    path("", include("tournaments.pages.urls")),
]

handler400 = "hkk_tournament.web.error_views.bad_request"
handler403 = "hkk_tournament.web.error_views.permission_denied"
handler404 = "hkk_tournament.web.error_views.page_not_found"
handler500 = "hkk_tournament.web.error_views.server_error"
