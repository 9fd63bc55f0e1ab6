"""Forms of the meta statistics pages: the filter (game, format, date range, event) and the
player's list consent (docs/rules.md §20 (Meta statistics))."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.pages.common import set_choices
from tournaments.selectors.meta import MetaQuery, meta_formats, meta_games


class MetaFilterForm(forms.Form):
    """The statistics' filter; :meth:`query` gives the :class:`MetaQuery` of valid data."""

    game = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(label=_("Format"), required=False)
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    tournament = forms.IntegerField(
        label=_("Event"), required=False, min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = meta_games()
        set_choices(self, "game", [(g.code, gettext(g.label)) for g in games])
        self.fields["game"].initial = games[0].code if games else None
        game = self.data.get("game") or self.fields["game"].initial or ""
        formats = [(f.slug, f.name) for f in meta_formats(str(game))]
        set_choices(self, "format", [("", _("Every format")), *formats])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end of the date range is before its start."))
        return cleaned

    def query(self) -> MetaQuery:
        """The filter of the cleaned data (call after ``is_valid()``)."""
        data = self.cleaned_data
        return MetaQuery(
            game=data["game"],
            format=data.get("format") or None,
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            tournament_id=data.get("tournament"),
        )


class ListConsentForm(forms.Form):
    """Whether the player's published lists count in the meta statistics."""

    share_lists = forms.BooleanField(
        label=_("My published lists count in the meta statistics and show as public lists"),
        required=False,
        help_text=_(
            "Only lists of events that publish them count; a list that was never published "
            "is never shown or counted, whatever you choose here."
        ),
    )
