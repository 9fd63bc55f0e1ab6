"""Admin: a format's edition policy as plain fields, and the publisher-sync action on games."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks import models

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "x" * 12)
    client = Client()
    client.force_login(user)
    return client


def test_format_page_shows_the_edition_policy_fields(admin_client):
    retro = models.Format.objects.get(slug="hkk-retro")
    html = admin_client.get(f"/admin/decks/format/{retro.pk}/change/").content.decode()
    assert 'name="editions_released_before"' in html and 'value="2000-04-01"' in html
    assert 'name="extra_legal_editions"' in html and 'value="247"' in html


def test_saving_the_policy_fields_writes_params(admin_client):
    from decks.admin_forms import FormatAdminForm

    core = models.Format.objects.get(slug="wow-core")
    form = FormatAdminForm(
        instance=core,
        data={
            **{
                field: getattr(core, field)
                for field in (
                    "slug",
                    "name",
                    "description",
                    "rule_set",
                    "sideboard_mode",
                )
            },
            "game": core.game_id,
            "min_main": 60,
            "sideboard_size": 10,
            "copy_limit": 4,
            "colours_not_counted": "[]",
            "params": '{"other": 1}',
            "default_tiebreakers": "[]",
            "match_structure": json.dumps(core.match_structure),
            "is_active": "on",
            "last_blocks": "2",
            "last_blocks_as_of": "Drums of War",
        },
    )
    assert form.is_valid(), form.errors
    saved = form.save()
    assert saved.params == {"other": 1, "last_blocks": 2, "last_blocks_as_of": "Drums of War"}
    # The seeded Core is read as of the event date; the checkbox shows it and keeps it.
    data = {**form.data, "last_blocks": "3", "last_blocks_as_of": "", "as_of_event_date": "on"}
    again = FormatAdminForm(instance=saved, data=data)
    assert again.is_valid(), again.errors
    assert again.save().params == {"other": 1, "last_blocks": 3, "as_of_event_date": True}
    assert FormatAdminForm(instance=saved).initial["as_of_event_date"] is True


def test_the_sync_action_starts_a_recorded_job(admin_client, django_capture_on_commit_callbacks):
    game = models.Game.objects.get(slug="hkk")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_client.post(
            "/admin/decks/game/",
            {"action": "sync_from_publisher", "_selected_action": [game.pk]},
        )
    assert response.status_code == 302
    run = models.CatalogueSyncRun.objects.get(game=game)
    assert run.status == "pending" and run.requested_by.username == "boss"
    assert len(callbacks) == 1  # the job is sent on commit (not run here: no network)
    listing = admin_client.get("/admin/decks/cataloguesyncrun/").content.decode()
    assert "hkk" in listing.lower() or "Hatalom" in listing
