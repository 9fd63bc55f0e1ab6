"""REST routes of the decks app (mounted at "api/" by the root URLconf)."""

from django.urls import path

from decks.api import CardListApi, DeckValidateApi, FormatListApi
from decks.game_setup_api import GameSetupComputeApi

urlpatterns = [
    path("decks/validate/", DeckValidateApi.as_view(), name="decks-validate"),
    path("formats/", FormatListApi.as_view(), name="formats-list"),
    path("cards/", CardListApi.as_view(), name="cards-list"),
    path("game-setup/", GameSetupComputeApi.as_view(), name="game-setup-compute"),
]
