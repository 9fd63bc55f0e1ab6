"""HTML routes of the decks app (mounted at "" by the root URLconf)."""

from django.urls import path

from decks.pages.coverage import catalogue_coverage_page
from decks.pages.validate import deck_validate_page

app_name = "decks"
urlpatterns = [
    path("", deck_validate_page, name="validate"),
    path("cards/coverage/", catalogue_coverage_page, name="coverage"),
]
