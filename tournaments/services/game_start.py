"""The HKK game start of one match: shown on the match page for judges and players.

Reads each entry member's deck list (the locked snapshot once lists are locked, else the current
version) and passes the declared rule card and follower of both sides to the deck service
:func:`decks.services.game_start.game_start_compute` (hence a service, not a selector). Read-only:
no writes, no transaction. Rules: docs/rules.md §5 (HKK game start: opening hand and life
points) and §7 (HKK pair tournaments).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q
from django.utils.translation import gettext_lazy as _

from decks.services.game_start import game_start_compute
from tournaments.models import DeckSubmission, Entry, EntryMember, Match

#: Rule sets whose games start with the HKK hand/ÉP rules (``decks.models.RuleSet``).
GAME_START_RULE_SETS = frozenset({"hkk"})

NO_DECK_LIST = _("%(player)s has no deck list, so no rule card or follower was counted for them.")


def _submission(member: EntryMember) -> DeckSubmission | None:
    """The locked deck list if there is one, else the current one (None: no list)."""
    decks = list(member.decks.all())
    for wanted in ("locked", "is_current"):
        for deck in decks:
            if getattr(deck, wanted):
                return deck
    return None


def _members(entry: Entry) -> list[EntryMember]:
    return sorted(entry.members.all(), key=lambda member: member.seat)


def match_game_start(match: Match) -> dict[str, Any] | None:
    """Opening hand, starting and maximum ÉP of every player of ``match``.

    Args:
        match: a match of an HKK tournament (single players or pair teams).

    Returns:
        None for a bye, a format whose rule set is not HKK, or an entry without members.
        Otherwise the dict of :func:`decks.services.game_start.game_start_compute` (side A =
        ``match.entry_a``) where each player also has ``"entry_id"``, ``"seat"`` and
        ``"player_id"``; a member without a deck list is computed without rule card and
        follower and adds a ``no_deck_list`` warning (``params["player"]``).
        Player names are the players' display names, with the entry name added when two
        players of the match share one.
    """
    if match.entry_b_id is None:
        return None
    if match.round.tournament.format.rule_set not in GAME_START_RULE_SETS:
        return None
    entries = _entries(match)
    entry_ids = (match.entry_a_id, match.entry_b_id)
    sides = [_members(entries[entry_id]) for entry_id in entry_ids]
    if not all(sides):
        return None
    players, meta, missing = _declared(sides, entry_ids, entries)
    result = game_start_compute(side_a=players[0], side_b=players[1])
    for player, extra in zip(result["players"], meta, strict=True):
        player.update(extra)
    for name in missing:
        result["warnings"].append(
            {
                "code": "no_deck_list",
                "params": {"player": name},
                "text": str(NO_DECK_LIST) % {"player": name},
            }
        )
    result["complete"] = not result["warnings"]
    return result


def _entries(match: Match) -> dict[int, Entry]:
    """Both entries of ``match`` with their members, players and current or locked lists."""
    members_qs = EntryMember.objects.select_related("player").prefetch_related(
        Prefetch(
            "decks", queryset=DeckSubmission.objects.filter(Q(is_current=True) | Q(locked=True))
        )
    )
    return {
        entry.pk: entry
        for entry in Entry.objects.filter(
            pk__in=[match.entry_a_id, match.entry_b_id]
        ).prefetch_related(Prefetch("members", queryset=members_qs))
    }


def _declared(
    sides: list[list[EntryMember]], entry_ids: tuple[int, int], entries: dict[int, Entry]
) -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]], list[str]]:
    """``(players per side, per-player meta, names without a deck list)`` for the calculator.

    A player's name gets the entry name and seat added when two players of the match share a
    display name.
    """
    display = [member.player.shown_name for side in sides for member in side]
    players: list[list[dict[str, Any]]] = []
    meta: list[dict[str, Any]] = []
    missing: list[str] = []
    for side, entry_id in zip(sides, entry_ids, strict=True):
        side_players = []
        for member in side:
            name = member.player.shown_name
            if display.count(name) > 1:
                name = f"{name} ({entries[entry_id].shown_name}, {member.seat})"
            deck = _submission(member)
            if deck is None:
                missing.append(name)
            side_players.append(
                {
                    "name": name,
                    "rule_card": deck.rule_card if deck else None,
                    "follower": deck.follower if deck else None,
                }
            )
            meta.append({"entry_id": entry_id, "seat": member.seat, "player_id": member.player_id})
        players.append(side_players)
    return players, meta, missing
