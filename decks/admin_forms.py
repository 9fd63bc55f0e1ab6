"""Admin forms of the decks app: a format's edition policy as plain fields.

The policy lives in ``Format.params`` under the keys ``decks.domain.editions.policy_from_params``
reads; this form shows each key as its own field with help text and writes them back
(docs/rules.md §4 (HKK formats and ban lists (Retró, TM, Páros)), §10 (WoW TCG formats and ban
lists)).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.domain.editions import policy_from_params
from decks.models import Format

#: ``Format.params`` keys of the edition policy, each a form field of :class:`FormatAdminForm`.
LIST_KEYS = ("legal_editions", "extra_legal_editions", "legal_blocks")
POLICY_KEYS = (
    *LIST_KEYS,
    "editions_released_before",
    "last_blocks",
    "last_blocks_as_of",
    "as_of_event_date",
)


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.replace("\n", ",").split(",") if part.strip()]


class FormatAdminForm(forms.ModelForm):
    """The format's fields plus its edition policy (merged into ``params`` on save)."""

    legal_editions = forms.CharField(
        label=_("legal editions"),
        required=False,
        help_text=_(
            "Edition codes allowed one by one, separated by commas (HKK edition ids, WoW set "
            "names). Empty: not restricted this way."
        ),
    )
    editions_released_before = forms.DateField(
        label=_("editions released before"),
        required=False,
        help_text=_(
            "Only editions surely released before this day are legal (HKK Retró: 2000-04-01)."
        ),
    )
    extra_legal_editions = forms.CharField(
        label=_("also legal"),
        required=False,
        help_text=_(
            "Edition codes legal on top of the date cut-off (HKK Retró: 247, the retro reprints)."
        ),
    )
    legal_blocks = forms.CharField(
        label=_("legal blocks"),
        required=False,
        help_text=_("WoW TCG Block: the block names allowed, separated by commas."),
    )
    last_blocks = forms.IntegerField(
        label=_("last blocks"),
        required=False,
        min_value=1,
        help_text=_("WoW TCG Core: how many of the newest blocks are legal (3)."),
    )
    last_blocks_as_of = forms.CharField(
        label=_("newest block"),
        required=False,
        help_text=_(
            "WoW TCG Core: the newest block to count back from (empty: the newest in the data)."
        ),
    )

    as_of_event_date = forms.BooleanField(
        label=_("as of the event date"),
        required=False,
        help_text=_(
            "WoW TCG Classic, Core and Block: read the sets as they stood on the event's day "
            "(sets released later are not legal; Core counts back from the newest block "
            "released by then)."
        ),
    )

    class Meta:
        model = Format
        fields = [
            "slug",
            "game",
            "name",
            "description",
            "rule_set",
            "min_main",
            "max_main",
            "sideboard_mode",
            "sideboard_size",
            "copy_limit",
            "colour_limit",
            "colours_not_counted",
            "params",
            "match_structure",
            "default_tiebreakers",
            "is_active",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        params = dict(self.instance.params or {}) if self.instance.pk else {}
        for key in LIST_KEYS:
            if isinstance(params.get(key), list):
                self.initial[key] = ", ".join(str(v) for v in params[key])
        for key in ("editions_released_before", "last_blocks", "last_blocks_as_of"):
            if key in params:
                self.initial[key] = params[key]
        self.initial["as_of_event_date"] = params.get("as_of_event_date") is True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        params = {k: v for k, v in dict(data.get("params") or {}).items() if k not in POLICY_KEYS}
        for key in LIST_KEYS:
            if data.get(key):
                params[key] = _split(data[key])
        if data.get("editions_released_before"):
            params["editions_released_before"] = data["editions_released_before"].isoformat()
        if data.get("last_blocks"):
            params["last_blocks"] = data["last_blocks"]
        if data.get("last_blocks_as_of"):
            params["last_blocks_as_of"] = data["last_blocks_as_of"].strip()
        if data.get("as_of_event_date"):
            params["as_of_event_date"] = True
        try:
            policy_from_params(params)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        data["params"] = params
        self.instance.params = params
        return data
