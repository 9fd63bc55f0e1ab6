"""Forms of the player pages: self-registration, one's own deck list and the report of one's own
match (docs/rules.md §16 (Deck checks, penalties and result reporting)). The services do the real
checks.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class SelfRegisterForm(forms.Form):
    """A signed-in player enters an event; pair events name the partner: the partner's
    username, or, without it, the partner's name and (optional) e-mail address: the partner
    then gets an invitation by e-mail, or you hand over the claim code shown."""

    partner = forms.CharField(
        label=_("Partner's username"),
        max_length=150,
        required=False,
        help_text=_("Pair events only, when your partner has an account."),
    )
    partner_name = forms.CharField(
        label=_("Or the partner's name"),
        max_length=120,
        required=False,
        help_text=_("Given name and family name, in this order."),
    )
    partner_email = forms.EmailField(
        label=_("Partner's e-mail address"),
        required=False,
        help_text=_("The partner gets an invitation; without it you get a code to hand over."),
    )
    name = forms.CharField(
        label=_("Team name"), max_length=200, required=False, help_text=_("Pair events only.")
    )


class OwnDeckForm(forms.Form):
    """A player's own deck list on the "my deck" page: ``text`` (at most 20 000 characters, kept
    unstripped), one card per line with the number of copies first; ``deck_submit`` validates it.
    """

    text = forms.CharField(
        label=_("Deck list"),
        strip=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_("One card per line with the number of copies first (paste the list)."),
    )


def _score_field(game: int, unit: str, top: int | None) -> forms.IntegerField:
    """The winner's score of one game (Blue Moon crystals), labelled with the format's range
    1 … ``top`` (the match structure's ``game_score_max``); the range itself is checked by the
    domain when the report is recorded (``tournaments.domain.first_player``)."""
    if top is None:
        label = _("Game %(game)s: winner's %(unit)s") % {"game": game, "unit": unit}
    else:
        label = _("Game %(game)s: winner's %(unit)s (1–%(max)s)") % {
            "game": game,
            "unit": unit,
            "max": top,
        }
    field = forms.IntegerField(label=label, min_value=0, required=False)
    if top is not None:
        field.widget.attrs.update(min=1, max=top)
    return field


class ResultReportForm(forms.Form):
    """A player's report of their own match: per game the winner, who went first, and whether
    the holder of the right waived it (where the format gives a choice, WoW TCG and Blue Moon:
    whether the chooser let the other player start), and the winner's score where the format
    keeps one (Blue Moon crystals). Games left empty were not played; a format without drawn
    games offers no draw (docs/rules.md §6, §11, §13). One choice covers the usual results
    (``summary``, seen from the player, plus who won the die roll when none is recorded); with
    it ``cleaned_data["games"]`` is ``None`` and the page turns it into games
    (``services.outcome_games``)."""

    def __init__(
        self,
        *args,
        games: int,
        mine: tuple[int, str],
        theirs: tuple[int, str],
        chooses: bool = False,
        draws: bool = True,
        score_label: str | None = None,
        score_max: int | None = None,
        outcomes: list[tuple[str, str]] | None = None,
        ask_roll: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.games = games
        self.mine, self.theirs = mine, theirs
        self.scored = score_label is not None
        self.fields["summary"] = forms.ChoiceField(
            label=_("Result (mine – opponent's)"),
            required=False,
            choices=[("", _("– details per game below –"))] + list(outcomes or []),
            widget=forms.RadioSelect,
        )
        self.ask_roll = ask_roll
        if ask_roll:
            self.fields["die_roll"] = forms.ChoiceField(
                label=_("Who won the die roll before game 1?"),
                required=False,
                choices=[("mine", _("I did")), ("theirs", theirs[1])],
                widget=forms.RadioSelect,
            )
        for n in range(1, games + 1):
            results = [
                ("", _("not played")),
                ("mine", _("I won")),
                ("theirs", _("%(name)s won") % {"name": theirs[1]}),
            ]
            if draws:
                results.append(("draw", _("Draw")))
            self.fields[f"g{n}_result"] = forms.ChoiceField(
                label=_("Game %(game)s: result") % {"game": n},
                required=False,
                choices=results,
            )
            self.fields[f"g{n}_first"] = forms.ChoiceField(
                label=_("Game %(game)s: went first") % {"game": n},
                required=False,
                choices=[("", "–"), ("mine", _("I did")), ("theirs", theirs[1])],
            )
            waived_label = (
                _("Game %(game)s: the player who chose let the other start")
                if chooses
                else _("Game %(game)s: the right to go first was waived")
            )
            self.fields[f"g{n}_waived"] = forms.BooleanField(
                label=waived_label % {"game": n}, required=False
            )
            if score_label is not None:
                self.fields[f"g{n}_score"] = _score_field(n, score_label, score_max)

    def rows(
        self,
    ) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField, forms.BoundField | None]]:
        return [
            (
                self[f"g{n}_result"],
                self[f"g{n}_first"],
                self[f"g{n}_waived"],
                self[f"g{n}_score"] if self.scored else None,
            )
            for n in range(1, self.games + 1)
        ]

    def clean(self):
        cleaned = super().clean()
        ids = {"mine": self.mine[0], "theirs": self.theirs[0]}
        if cleaned.get("summary"):
            if self.ask_roll and not cleaned.get("die_roll"):
                self.add_error("die_roll", _("Tell who won the die roll."))
            roll = cleaned.get("die_roll")
            cleaned["die_roll_winner"] = ids[roll] if roll else None
            cleaned["games"] = None
            return cleaned
        games = []
        ended = False
        for n in range(1, self.games + 1):
            result = cleaned.get(f"g{n}_result")
            first = cleaned.get(f"g{n}_first")
            if not result:
                ended = True
                continue
            if ended:
                self.add_error(f"g{n}_result", _("Report the games in order, without gaps."))
                continue
            if not first:
                self.add_error(f"g{n}_first", _("Tell who went first."))
                continue
            game = {
                "number": n,
                "winner": None if result == "draw" else ids[result],
                "first": ids[first],
                "waived": bool(cleaned.get(f"g{n}_waived")),
            }
            if self.scored:
                game["score"] = cleaned.get(f"g{n}_score")
            games.append(game)
        if not games and not self.errors:
            raise forms.ValidationError(_("Report at least one game."))
        cleaned["games"] = games
        return cleaned
