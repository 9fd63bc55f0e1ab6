"""The penalty log: judges record a penalty (warning, game loss, match loss,
disqualification) for any infraction, with its category, the entry, the round, the judge and
notes; deck checks with a penalty are logged here too; the log is exported as CSV
(docs/rules.md §16 (Deck checks, penalties and result reporting)).
"""

from __future__ import annotations

import io
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import ValidationFailed
from tournaments import selectors
from tournaments.models import DeckCheck, Entry, Penalty, Round, Tournament
from tournaments.permissions import acting_user, require_judge
from tournaments.services._common import lock_tournament
from tournaments.services.csv_files import SafeCsvWriter


def _choice(value: str, choices: Any, field: str) -> str:
    if value not in choices.values:
        raise ValidationFailed(
            "invalid_value",
            _("Unknown value: %(value)s.") % {"value": value},
            {"field": field, "value": value},
            fields={field: [str(_("Choose one of the listed values."))]},
        )
    return value


@transaction.atomic
def penalty_record(
    *,
    tournament: Tournament,
    entry: Entry | int,
    category: str,
    kind: str,
    round: Round | None = None,
    notes: str = "",
    actor: Any,
) -> Penalty:
    """Log a penalty for ``entry`` of ``tournament`` (``round`` optional; it must be one of the
    event's rounds). ``category``: ``Penalty.Category``; ``kind``: ``Penalty.Kind``.

    The log records; it does not change results: a game or match loss is entered as a result
    by the judge (the per-game page or the round's result row).

    Raises ``ValidationFailed("invalid_value")`` for an unknown category, kind, entry or round.
    """
    require_judge(actor, tournament)
    lock_tournament(tournament.pk)
    entry_id = entry.pk if isinstance(entry, Entry) else int(entry)
    if not Entry.objects.filter(pk=entry_id, tournament=tournament).exists():
        raise ValidationFailed(
            "invalid_value",
            _("That entry does not play in this event."),
            {"field": "entry", "value": entry_id},
            fields={"entry": [str(_("Choose one of the listed values."))]},
        )
    if round is not None and round.tournament_id != tournament.pk:
        raise ValidationFailed("invalid_value", _("That round is not of this event."), {})
    return Penalty.objects.create(
        tournament=tournament,
        round=round,
        entry_id=entry_id,
        category=_choice(category, Penalty.Category, "category"),
        kind=_choice(kind, Penalty.Kind, "kind"),
        notes=(notes or "").strip(),
        judge=acting_user(actor),
    )


def penalty_log_deck_check(check: DeckCheck, *, by: Any) -> None:
    """Keep the log in step with a recorded deck check (called inside its transaction): a
    penalty creates or updates the check's log line (category ``deck_problem``), none removes
    it."""
    if check.penalty == DeckCheck.Penalty.NONE:
        Penalty.objects.filter(deck_check=check).delete()
        return
    Penalty.objects.update_or_create(
        deck_check=check,
        defaults={
            "tournament_id": check.round.tournament_id,
            "round": check.round,
            "entry_id": check.entry_id,
            "category": Penalty.Category.DECK_PROBLEM,
            "kind": check.penalty,
            "notes": check.notes,
            "judge": by,
        },
    )


def penalties_of(*, tournament: Tournament) -> list[Penalty]:
    """The event's penalty log, oldest first, with round, entry and judge loaded."""
    return list(
        Penalty.objects.filter(tournament=tournament)
        .select_related("round", "entry", "judge")
        .order_by("created_at", "id")
    )


def penalties_csv(tournament: Tournament) -> str:
    """The penalty log as CSV, headers and values in the active language: time, round, entry,
    infraction, penalty, judge, notes."""
    names = selectors.names_by_entry(tournament)
    out = io.StringIO()
    w = SafeCsvWriter(out)
    w.writerow(
        [
            gettext("Time"),
            gettext("Round"),
            gettext("Entry"),
            gettext("Infraction"),
            gettext("Penalty"),
            gettext("Judge"),
            gettext("Notes"),
        ]
    )
    for p in penalties_of(tournament=tournament):
        w.writerow(
            [
                timezone.localtime(p.created_at).strftime("%Y-%m-%d %H:%M"),
                p.round.number if p.round else "",
                names.get(p.entry_id, ""),
                p.get_category_display(),
                p.get_kind_display(),
                p.judge.get_username() if p.judge else "",
                p.notes,
            ]
        )
    return out.getvalue()
