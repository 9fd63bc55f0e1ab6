"""REST routes of the decks app (mounted at "api/" by the root URLconf)."""

from django.urls import path

from decks.api.cards import CardListApi
from decks.api.catalogue import CatalogueCoverageApi
from decks.api.formats import FormatListApi
from decks.api.game_start import GameStartComputeApi
from decks.api.validate import DeckValidateApi

urlpatterns = [
    path("decks/validate/", DeckValidateApi.as_view(), name="decks-validate"),
    path("formats/", FormatListApi.as_view(), name="formats-list"),
    path("cards/", CardListApi.as_view(), name="cards-list"),
    path("catalogue/", CatalogueCoverageApi.as_view(), name="catalogue-coverage"),
    path("game-start/", GameStartComputeApi.as_view(), name="game-start-compute"),
]
