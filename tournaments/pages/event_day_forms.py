"""Forms of the event-day pages: the round clock controls, the match-level result row and
the penalty log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Penalty
from tournaments.pages.common import set_choices


class ClockForm(forms.Form):
    """Start (optional length), pause, resume or extend (minutes; one table or the round)."""

    action = forms.ChoiceField(
        choices=[
            ("start", _("Start")),
            ("pause", _("Pause")),
            ("resume", _("Resume")),
            ("extend", _("Extend")),
        ]
    )
    minutes = forms.IntegerField(label=_("Minutes"), required=False, min_value=1, max_value=240)
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1)


class MatchResultForm(forms.Form):
    """One row of the fast result entry: the pressed button's ``result`` and, when no die roll
    is recorded, its winner."""

    result = forms.CharField(max_length=16)
    die_roll_winner = forms.IntegerField(required=False)


class PenaltyForm(forms.Form):
    """A penalty for the log: entry, round (optional), infraction category, penalty, notes."""

    entry = forms.TypedChoiceField(label=_("Entry"), coerce=int, choices=[])
    round = forms.TypedChoiceField(
        label=_("Round"), coerce=int, choices=[], required=False, empty_value=None
    )
    category = forms.ChoiceField(label=_("Infraction"), choices=Penalty.Category.choices)
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices)
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(
        self, *args: Any, entries: list[tuple[int, str]], rounds: list[int], **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        set_choices(self, "entry", entries)
        set_choices(self, "round", [("", "—")] + [(n, str(n)) for n in rounds])


class TopCutForm(forms.Form):
    """Start the top cut: bracket size and whether the higher seed chooses who starts."""

    size = forms.TypedChoiceField(
        label=_("Top cut"), coerce=int, choices=[(4, "4"), (8, "8"), (16, "16")]
    )
    higher_seed_chooses = forms.BooleanField(
        label=_("The higher seed chooses who starts game 1"), required=False, initial=True
    )
