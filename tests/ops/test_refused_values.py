"""A value the database refuses (``DataError`` on PostgreSQL, ``OverflowError`` on SQLite) is the
client's 400, on pages and in the API, never a 500; the real rows come from a real column."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hkk_tournament import urls as project_urls

User = get_user_model()


@transaction.atomic  # as a service would: the failed write rolls back on its own
def _store_huge_number() -> None:
    """An integer far beyond the column's range reaches the database unchecked."""
    User.objects.create(username="tul-nagy", id=10**30)


def page(request: HttpRequest) -> HttpResponse:
    _store_huge_number()
    return HttpResponse("unreachable")


class Api(APIView):
    def post(self, request: Request) -> Response:
        _store_huge_number()
        return Response({})


urlpatterns = [
    path("refused/", page),
    path("api/refused/", Api.as_view()),
    *project_urls.urlpatterns,
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def test_the_api_answers_400_invalid_data():
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post("/api/refused/")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_data"
    assert error["message"] == "A value in the request is out of range."


def test_a_page_answers_the_translated_400_page():
    response = Client(raise_request_exception=False).get("/refused/")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "Hibás kérés" in response.content.decode()
    assert not User.objects.filter(username="tul-nagy").exists()
