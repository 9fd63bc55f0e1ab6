"""File downloads the pages and the API share: the one CSV response of the project."""

from __future__ import annotations

from django.http import HttpResponse


def csv_response(content: str, filename: str) -> HttpResponse:
    """``content`` (CSV text written by ``tournaments.services.csv_files.SafeCsvWriter``) as an
    attachment named ``filename``: ``text/csv``, UTF-8 with a byte-order mark so spreadsheet
    programs read the Hungarian accents right."""
    response = HttpResponse("\ufeff" + content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
