"""Forms of the circuit pages: a new circuit (or the HKK preset), its settings, a league, an
event's request to join."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import Game
from tournaments.domain.circuits import SEASON_TIEBREAKS, tiers_text
from tournaments.models import Circuit, League


class CircuitCreateForm(forms.Form):
    """Name and game of a new circuit, or the HKK preset for a season."""

    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    game = forms.ModelChoiceField(label=_("Game"), queryset=Game.objects.order_by("name"))
    hkk_preset = forms.BooleanField(
        label=_("HKK preset: HSZ points, profi points and the three leagues"), required=False
    )
    season = forms.CharField(label=_("Season"), max_length=40, required=False)


class CircuitSettingsForm(forms.Form):
    """The editable settings of a circuit (``services.circuits.CircuitSettings``)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    description = forms.CharField(label=_("Description"), widget=forms.Textarea, required=False)
    points_text = forms.CharField(
        label=_("Points by placement and field size"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_(
            "One line per field size: “16: 20 16 12 10 | 1” gives events of 16 or more "
            "entries 20 points for the winner, 16 for the second … and 1 for every later place."
        ),
    )
    tiers_text = forms.CharField(
        label=_("Event tiers"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One tier a line: code, multiplier, name (“national 2 National”)."),
    )
    best_n = forms.IntegerField(
        label=_("Best results counted"),
        min_value=1,
        required=False,
        help_text=_("Empty: every result counts."),
    )
    min_events = forms.IntegerField(label=_("Minimum events played"), min_value=0, initial=0)
    tiebreaks = forms.MultipleChoiceField(
        label=_("Tie-breaks"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        choices=[(code, _(t.label)) for code, t in SEASON_TIEBREAKS.items()],
    )
    ratings_enabled = forms.BooleanField(label=_("Ratings (OpenSkill)"), required=False)
    is_public = forms.BooleanField(label=_("Public"), required=False)

    @classmethod
    def initial_of(cls, circuit: Circuit) -> dict[str, Any]:
        """The form's initial values from ``circuit``."""
        return {
            "name": circuit.name,
            "description": circuit.description,
            "points_text": circuit.table.to_text(),
            "tiers_text": tiers_text(circuit.tier_list),
            "best_n": circuit.best_n,
            "min_events": circuit.min_events,
            "tiebreaks": list(circuit.tiebreaks),
            "ratings_enabled": circuit.ratings_enabled,
            "is_public": circuit.is_public,
        }


class LeagueForm(forms.ModelForm):
    """A league: name, the circuit measured, bounds and the explicit list."""

    class Meta:
        model = League
        fields = (
            "name",
            "measured_on",
            "min_points",
            "max_points",
            "min_events",
            "max_events",
            "listed_only",
            "listed_names",
        )
        widgets = {"listed_names": forms.Textarea(attrs={"rows": 3})}
        help_texts = {"listed_names": _("One name a line; they may always enter.")}

    def __init__(self, *args: Any, owner: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["measured_on"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Circuit.objects.filter(owner=owner)


class JoinForm(forms.Form):
    """An event asks to count in a circuit: the circuit, its tier and optionally a league."""

    circuit = forms.ModelChoiceField(label=_("Circuit"), queryset=Circuit.objects.none())
    tier = forms.CharField(label=_("Tier code"), max_length=40)
    league = forms.ModelChoiceField(
        label=_("League"), queryset=League.objects.none(), required=False
    )

    def __init__(self, *args: Any, game_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        circuits = Circuit.objects.filter(game_id=game_id)
        circuit_field = self.fields["circuit"]
        league_field = self.fields["league"]
        assert isinstance(circuit_field, forms.ModelChoiceField)
        assert isinstance(league_field, forms.ModelChoiceField)
        circuit_field.queryset = circuits
        league_field.queryset = League.objects.filter(circuit__in=circuits)
