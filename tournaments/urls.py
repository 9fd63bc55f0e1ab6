"""HTML routes of the tournaments app (mounted at "" by the root URLconf)."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

T = "tournaments/<int:tournament_id>/"
R = T + "rounds/<int:number>/"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_create, name="create"),
    path(T, views.tournament_detail, name="detail"),
    path(T + "open-registration/", views.tournament_open_registration, name="open-registration"),
    path(T + "start/", views.tournament_start, name="start"),
    path(T + "finish/", views.tournament_finish, name="finish"),
    path(T + "entries/add/", views.entry_add, name="entry-add"),
    path(T + "entries/<int:entry_id>/deck/", views.entry_deck, name="entry-deck"),
    path(T + "entries/<int:entry_id>/override/", views.entry_override, name="entry-override"),
    path(T + "entries/<int:entry_id>/drop/", views.entry_drop, name="entry-drop"),
    path(T + "rounds/new/", views.round_pair_next, name="round-pair-next"),
    path(R, views.round_detail, name="round"),
    path(R + "by-name/", views.round_by_name, name="round-by-name"),
    path(R + "swap/", views.round_swap, name="round-swap"),
    path(R + "publish/", views.round_publish, name="round-publish"),
    path(R + "finish/", views.round_finish, name="round-finish"),
    path(R + "tables/<int:table>/", views.match_entry, name="match"),
    path(T + "standings/", views.standings, name="standings"),
]
