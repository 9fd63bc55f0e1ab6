"""The deck-check page at ``/`` (``decks:validate``).

Thin: the form checks the input, :func:`decks.services.validation.deck_validate` does the work,
and :func:`annotate_lines` attaches each error and warning to the submitted line it concerns.
Deck rules: docs/rules.md §3 (HKK deck construction (Hagyományos)), §9 (WoW TCG constructed
decks) and §12 (Blue Moon decks).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from decks.domain.sections import DECK_SECTIONS
from decks.domain.validate import ValidationResult
from decks.errors import DeckInputError, UnknownFormat
from decks.pages.forms import DeckValidateForm
from decks.selectors.formats import format_list_active
from decks.services.validation import deck_validate, validation_result_dict


def annotate_lines(
    text: str, result: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Number the submitted lines and attach the result's issues to them.

    Args:
        text: the list as submitted (line numbers count ``\\r\\n``, ``\\r`` and ``\\n`` breaks,
            like ``decks.domain.parser.parse_text``).
        result: ``validation_result_dict`` output.

    Returns:
        ``(lines, general)``: ``lines`` = ``[{"number", "text", "errors", "warnings"}]`` one
        per submitted line; ``general`` = issues without a line (or with a line out of range),
        each with ``"level"`` = ``"error"`` or ``"warning"``.
    """
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while raw_lines and not raw_lines[-1].strip():
        raw_lines.pop()
    lines: list[dict[str, Any]] = [
        {"number": n, "text": raw.rstrip(), "errors": [], "warnings": []}
        for n, raw in enumerate(raw_lines, start=1)
    ]
    general: list[dict[str, Any]] = []
    for level, key in (("error", "errors"), ("warning", "warnings")):
        for issue in result.get(key, []):
            number = issue.get("line")
            if isinstance(number, int) and 1 <= number <= len(lines):
                lines[number - 1][key].append(issue)
            else:
                general.append({**issue, "level": level})
    return lines, general


@require_http_methods(["GET", "POST"])
def deck_validate_page(request: HttpRequest) -> HttpResponse:
    """Show the deck-check form; on POST validate the list and show the verdict per line.

    Status 200, or 413 when the body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (the form is shown
    empty with the reason).
    """
    formats = list(format_list_active())
    choices = [(f.slug, f"{f.name} ({f.game.name})") for f in formats]
    context: dict[str, Any] = {
        "result": None,
        "lines": [],
        "general": [],
        "single_sections": [],
        "page_error": None,
    }
    status = 200
    if request.method == "POST":
        form, status = _validate_post(request, choices, context)
    else:
        names = dict(choices)
        default = settings.HKK_DEFAULT_FORMAT if settings.HKK_DEFAULT_FORMAT in names else None
        form = DeckValidateForm(
            format_choices=choices,
            initial={"format": default or (choices[0][0] if choices else None)},
        )
    context["form"] = form
    return render(request, "decks/validate.html", context, status=status)


def _validate_post(
    request: HttpRequest, choices: list[tuple[str, str]], context: dict[str, Any]
) -> tuple[DeckValidateForm, int]:
    """Bind the form, validate the list and fill ``context``; returns ``(form, status)``."""
    try:
        form = DeckValidateForm(request.POST, request.FILES, format_choices=choices)
    except RequestDataTooBig:
        # Django refuses to parse the body; show an empty form with the reason.
        context["page_error"] = _("The submitted list is too large (at most %(limit)s KB).") % {
            "limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        }
        return DeckValidateForm(format_choices=choices), 413
    if not form.is_valid():
        return form, 200
    text = form.cleaned_data["deck_text"]
    slug = form.cleaned_data["format"]
    try:
        result = deck_validate(format_slug=slug, text=text)
    except UnknownFormat:
        form.add_error("format", _("Unknown format."))
        return form, 200
    except DeckInputError as exc:
        form.add_error(None, str(exc.message))
        return form, 200
    data = validation_result_dict(result)
    lines, general = annotate_lines(text, data)
    context.update(
        result=data,
        lines=lines,
        general=general,
        format_name=dict(choices).get(slug),
        single_sections=_single_sections(result),
    )
    return form, 200


def _single_sections(result: ValidationResult) -> list[tuple[str, str]]:
    """The one-card sections declared in the list (rule card, follower, hero, Blue Moon leader
    …: every entry of ``DECK_SECTIONS`` that is not ``many``) as (translated title, printed
    name), in the registry's order."""
    return [
        (_(section.title), result.lines[code][0].card.name)
        for code, section in DECK_SECTIONS.items()
        if not section.many and result.lines.get(code)
    ]
