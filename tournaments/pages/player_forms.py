"""Forms of the player pages: self-registration, one's own deck list and the report of one's own
match (docs/rules.md §16 (Deck checks, penalties and result reporting)). The services do the real
checks.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class SelfRegisterForm(forms.Form):
    """A signed-in player enters an event; pair events name the partner's username."""

    partner = forms.CharField(
        label=_("Partner's username"),
        max_length=150,
        required=False,
        help_text=_("Pair events only: your partner needs an account too."),
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


class ResultReportForm(forms.Form):
    """A player's report of their own match: per game the winner, who went first, and whether
    the holder of the right waived it. Games left empty were not played."""

    def __init__(
        self, *args, games: int, mine: tuple[int, str], theirs: tuple[int, str], **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.games = games
        self.mine, self.theirs = mine, theirs
        for n in range(1, games + 1):
            self.fields[f"g{n}_result"] = forms.ChoiceField(
                label=_("Game %(game)s: result") % {"game": n},
                required=False,
                choices=[
                    ("", _("not played")),
                    ("mine", _("I won")),
                    ("theirs", _("%(name)s won") % {"name": theirs[1]}),
                    ("draw", _("Draw")),
                ],
            )
            self.fields[f"g{n}_first"] = forms.ChoiceField(
                label=_("Game %(game)s: went first") % {"game": n},
                required=False,
                choices=[("", "–"), ("mine", _("I did")), ("theirs", theirs[1])],
            )
            self.fields[f"g{n}_waived"] = forms.BooleanField(
                label=_("Game %(game)s: the right to go first was waived") % {"game": n},
                required=False,
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"g{n}_result"], self[f"g{n}_first"], self[f"g{n}_waived"])
            for n in range(1, self.games + 1)
        ]

    def clean(self):
        cleaned = super().clean()
        ids = {"mine": self.mine[0], "theirs": self.theirs[0]}
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
            games.append(
                {
                    "number": n,
                    "winner": None if result == "draw" else ids[result],
                    "first": ids[first],
                    "waived": bool(cleaned.get(f"g{n}_waived")),
                }
            )
        if not games and not self.errors:
            raise forms.ValidationError(_("Report at least one game."))
        cleaned["games"] = games
        return cleaned
