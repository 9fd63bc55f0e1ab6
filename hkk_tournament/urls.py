"""Root URL configuration: pages, the REST API, its OpenAPI schema, admin and language switch."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from hkk_tournament.accounts_urls import api_urlpatterns as accounts_api_urlpatterns  # h8

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # >>> accounts/security (h8)
    path("accounts/", include("hkk_tournament.accounts_urls")),
    path("api/auth/", include((accounts_api_urlpatterns, "accounts_api"))),
    # <<< accounts/security (h8)
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("decks.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("", include("decks.urls")),
    path("", include("tournaments.urls")),
]
