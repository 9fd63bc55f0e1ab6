"""``manage.py simulate_tournament --players N --rounds R --seed S [--pairs] [--format SLUG]
[--json] [--keep]``: run a whole event through the services with random results on real decks.

Everything goes through ``tournaments.services`` (registration, deck lists validated by
``decks``, start, Swiss pairing, die rolls, games under the first-player policy, drops, round
and tournament finish) inside one transaction that is rolled back at the end unless ``--keep``.
Deterministic for a given seed: the results, the drops, the decks and the per-round pairing
seeds all come from ``random.Random(S)``; entry ids in the output are the registration numbers
(1..N), so two runs print the same JSON. About one entry in ten drops along the way.

Games follow the format's match structure (docs/rules.md §6 (HKK first-player rights), §11
(WoW TCG matches and first player), §13 (Blue Moon matches)): HKK formats play three games
with the HKK right; WoW TCG best of three (no game after 2–0), the roll winner choosing; Blue
Moon one game with its crystal score.

Output (one JSON object): ``{"format", "kind", "policy", "games_per_match", "match_structure",
"tiebreakers", "entries": [{"id", "name", "members"}], "rounds": [{"number", "seed",
"pairings": [{"table", "a", "b", "policy", "reroll_game3_agreed", "games": [{"number",
"right_holder", "waived", "first", "winner", ("chosen_by"), ("score")}], "match_points"}]}],
"drops": [{"entry", "after_round"}], "standings": [{"rank", "entry",
"match_points", "game_points", "tiebreakers": {code: "exact"}}]}`` (see
``tournaments.services.tournament_export``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from decks.domain.types import Card as DomainCard
from decks.domain.types import CardKind, Verdict, unknown_facts
from decks.models import Card, Format
from decks.selectors.cache import clear_caches
from decks.selectors.cards import cards_for_game
from decks.services.validation import deck_validate
from hkk_tournament.errors import ApplicationError
from tournaments import services
from tournaments.models import Entry, Match, Tournament
from tournaments.permissions import SYSTEM

#: The organiser's recorded reason for accepting an unverified sample list.
APPROVAL = "Simulation: the bundled sample list cannot be verified with the partial card data."

#: Cards per name in a generated deck and names drawn (18 × 3 = 54 ≥ every HKK minimum).
COPIES = 3
NAMES = 18


class _Rollback(Exception):  # noqa: N818
    """Raised inside the transaction to undo the simulation."""


#: Games whose legal lists are built from the catalogue (HKK: gods, names × copies, a rule
#: card); every other game plays its bundled example list.
GENERATED_DECK_GAMES = frozenset({"hkk"})


def _example_deck(game: str, format_slug: str) -> str:
    """The bundled example list of a game other than HKK: ``examples/<game>-legal.txt`` if it is
    legal for the format, else ``examples/<game>-unverified.txt`` if it is unverified (nothing
    checked is broken; the bundled Blue Moon data cannot check the moon budget, docs/rules.md
    §17 (Card data sources and coverage)), which the simulated organiser then approves."""
    examples = Path(settings.BASE_DIR) / "examples"
    for verdict in (Verdict.LEGAL, Verdict.UNVERIFIED):
        path = examples / f"{game}-{verdict}.txt"
        if path.exists():
            text = path.read_text(encoding="utf-8")
            if deck_validate(format_slug=format_slug, text=text).status == verdict:
                return text
    raise CommandError(
        _("No legal or unverified sample deck for format %(slug)s.") % {"slug": format_slug}
    )


def _hkk_pool(
    cards: Sequence[DomainCard], gods: set[str], colourless: set[str], rejected: set[str]
) -> list[str]:
    """Names of the ordinary, limited cards of the chosen gods (or colourless), sorted."""
    return sorted(
        {
            card.name
            for card in cards
            if card.kind is CardKind.CARD
            and card.colours is not None
            and set(card.colours) <= gods | colourless
            and not card.unlimited
            and card.name not in rejected
        }
    )


def _hkk_text(names: Sequence[str], rule_card: str) -> str:
    lines = ["Pakli:"] + [f"{COPIES} {name}" for name in names]
    if rule_card:
        lines += ["", f"Szabálylap: {rule_card}"]
    return "\n".join(lines) + "\n"


def build_legal_deck(
    *,
    format_slug: str,
    rng: random.Random,
    rule_card: str | None = None,
    cards: list[DomainCard] | None = None,
) -> tuple[str, str | None]:
    """A legal deck list (text) for ``format_slug`` from the loaded catalogue, and its rule card.

    HKK formats: one or two gods (colourless cards allowed), ``NAMES`` names × ``COPIES``,
    the given rule card (``""`` = none, ``None`` = a random legal one); names the validator
    rejects (banned …) are replaced and the list revalidated. Other games: the bundled example
    list, legal or else unverified (:func:`_example_deck`). ``cards``: the game's catalogue when
    the caller already loaded it (``decks.selectors.cards.cards_for_game``). Raises ``CommandError``
    when no legal list can be built.
    """
    fmt = Format.objects.select_related("game").get(slug=format_slug)
    game = fmt.game.slug
    if game not in GENERATED_DECK_GAMES:
        return _example_deck(game, format_slug), None
    cards = cards if cards is not None else cards_for_game(game)
    # Name-only entries (facts unknown) would make the list unverified, not legal.
    cards = [card for card in cards if not unknown_facts(card)]
    colourless = set(fmt.colours_not_counted or ()) | {"Színtelen", "Bufa"}
    gods = sorted(
        {c for card in cards if card.kind is CardKind.CARD for c in (card.colours or ())}
        - colourless
    )
    rule_cards = sorted(c.name for c in cards if c.kind is CardKind.RULE_CARD)
    rejected: set[str] = set()
    for _attempt in range(12):
        chosen = set(rng.sample(gods, k=min(len(gods), rng.choice((1, 2)))))
        pool = _hkk_pool(cards, chosen, colourless, rejected)
        if len(pool) < NAMES:
            continue
        names = rng.sample(pool, k=NAMES)
        rc = rule_card if rule_card is not None else (rng.choice(rule_cards) if rule_cards else "")
        text = _hkk_text(names, rc)
        result = deck_validate(format_slug=format_slug, text=text)
        if result.status == Verdict.LEGAL:
            return text, rc or None
        rejected |= {v.card for v in (*result.errors, *result.warnings) if v.card}
        if rule_card is None and rc in rejected:
            rule_cards = [r for r in rule_cards if r != rc]
    raise CommandError(
        _("Could not build a legal deck for format %(slug)s.") % {"slug": format_slug}
    )


def _renumber(export: dict[str, Any], order: list[int]) -> dict[str, Any]:
    """Replace database entry ids by registration numbers 1..N throughout the export."""
    local = {db_id: i for i, db_id in enumerate(order, start=1)}

    def m(value: int | None) -> int | None:
        return None if value is None else local[value]

    export["entries"] = [
        {"id": m(e["id"]), "name": e["name"], "members": e["members"]} for e in export["entries"]
    ]
    for rnd in export["rounds"]:
        for p in rnd["pairings"]:
            p["a"], p["b"] = m(p["a"]), m(p["b"])
            for g in p["games"]:
                for key in ("right_holder", "first", "winner", "chosen_by"):
                    if key in g:
                        g[key] = m(g[key])
            p["match_points"] = {str(m(int(k))): v for k, v in p["match_points"].items()}
        for r in rnd.get("relaxations", []):
            r["entries"] = [m(e) for e in r.get("entries", [])]
    export["drops"] = [
        {"entry": m(d["entry"]), "after_round": d["after_round"]} for d in export["drops"]
    ]
    export["standings"] = [{**s, "entry": m(s["entry"])} for s in export["standings"]]
    return export


def _register(
    tournament: Tournament,
    *,
    players: int,
    pairs: bool,
    rng: random.Random,
    cards: list[DomainCard],
) -> list[Entry]:
    """Register ``players`` entries (numbered, zero-padded) with a legal list per member (an
    unverified sample list is approved by the organiser, as at a real event)."""
    width = len(str(players))
    entries = []
    for i in range(1, players + 1):
        if pairs:
            entry = services.entry_register_pair(
                tournament=tournament,
                name=f"Team {i:0{width}d}",
                player_a=f"Player {i:0{width}d}A",
                player_b=f"Player {i:0{width}d}B",
            )
        else:
            entry = services.entry_register_player(
                tournament=tournament, player_name=f"Player {i:0{width}d}"
            )
        entries.append(entry)
        rule_card = None
        for member in entry.members.select_related("player").order_by("seat"):
            text, rc = build_legal_deck(
                format_slug=tournament.format.slug, rng=rng, rule_card=rule_card, cards=cards
            )
            # The partner uses the same rule card: docs/rules.md §7 (HKK pair tournaments).
            rule_card = rc or ""
            sub = services.deck_submit(
                actor=SYSTEM, tournament=tournament, entry=entry, player=member.player, text=text
            )
            if sub.status == Verdict.UNVERIFIED:
                services.deck_approve_unverified(
                    actor=SYSTEM,
                    tournament=tournament,
                    entry=entry,
                    submission_id=sub.pk,
                    reason=APPROVAL,
                )
    return entries


def _play_rounds(
    tournament: Tournament,
    entries: list[Entry],
    *,
    rounds: int,
    drops: dict[int, int],
    rng: random.Random,
) -> None:
    """Pair, publish, play and finish ``rounds`` rounds; drop entries after their round."""
    for number in range(1, rounds + 1):
        rnd = services.round_pair_next(
            actor=SYSTEM, tournament=tournament, seed=rng.getrandbits(32)
        )
        rnd = services.round_publish(actor=SYSTEM, round=rnd)
        for match in rnd.matches.order_by("table"):
            if match.entry_b_id is None:
                continue
            _play_match(match, rng)
        services.round_finish(actor=SYSTEM, round=rnd)
        for entry in entries:
            if drops.get(entry.pk) == number:
                services.entry_drop(entry=entry, after_round=number)


def simulate(
    *, players: int, rounds: int, seed: int, pairs: bool = False, format_slug: str = "hkk"
) -> dict[str, Any]:
    """Run one simulated event in the current transaction and return its export (renumbered).

    Raises ``CommandError`` for bad arguments or an unknown format; service errors propagate.
    """
    if players < 2 or rounds < 1:
        raise CommandError(_("Use at least 2 players and 1 round."))
    fmt = Format.objects.select_related("game").filter(slug=format_slug).first()
    if fmt is None:
        raise CommandError(_("Unknown format: %(slug)s.") % {"slug": format_slug})
    if not Card.objects.filter(game=fmt.game).exists():
        call_command("load_catalogue", verbosity=0)
    clear_caches()
    rng = random.Random(seed)
    cards = cards_for_game(fmt.game.slug)
    tournament = services.tournament_create(
        owner=None,
        name=f"Simulation {seed}",
        format_slug=format_slug,
        kind=Tournament.Kind.PAIR if pairs else Tournament.Kind.INDIVIDUAL,
        settings=services.TournamentSettings(planned_rounds=rounds),
    )
    services.tournament_open_registration(actor=SYSTEM, tournament=tournament)
    entries = _register(tournament, players=players, pairs=pairs, rng=rng, cards=cards)
    drop_count = round(players / 10)
    drops: dict[int, int] = {}
    if rounds > 1 and drop_count:
        for entry in rng.sample(entries, k=drop_count):
            drops[entry.pk] = rng.randint(1, rounds - 1)
    tournament = services.tournament_start(actor=SYSTEM, tournament=tournament)
    _play_rounds(tournament, entries, rounds=rounds, drops=drops, rng=rng)
    services.tournament_finish(actor=SYSTEM, tournament=tournament)
    export = services.tournament_export(tournament=tournament)
    return _renumber(export, [e.pk for e in entries])


def _play_match(match: Match, rng: random.Random) -> None:
    """Random but rule-abiding games under the tournament's match structure: the HKK game-3
    re-roll agreement (one table in ten) before the die roll, the die roll, waivers / choices,
    winners (10 % draws where the format has drawn games), the winner's score where the format
    keeps one (Blue Moon crystals), and no game once a best-of match is decided. Not for a bye.
    """
    a, b = match.entry_a_id, match.entry_b_id
    if b is None:
        raise ValueError(f"table {match.table} is a bye: it has no games")
    structure = match.round.tournament.structure
    agree = structure.reroll_game3_available and rng.random() < 0.1
    services.match_set_die_roll(
        actor=SYSTEM, match=match, winner_entry=rng.choice((a, b)), reroll_game3_agreed=agree
    )
    number = 0
    while True:
        nxt = services.match_next_right(match=match)
        if nxt.decision is None:
            return
        number += 1
        holder = nxt.holder
        roll = None
        if holder is None:  # an agreed game-3 re-roll decides
            holder = roll = rng.choice((a, b))
        waived = rng.random() < 0.15
        first = (b if holder == a else a) if waived else holder
        x = rng.random()
        draws = 0.1 if structure.game_draws else 0.0
        winner = a if x < (1 - draws) / 2 else b if x < 1 - draws else None
        score = None
        if structure.scored and winner is not None and structure.game_score_max is not None:
            score = rng.randint(1, structure.game_score_max)
        services.game_record(
            actor=SYSTEM,
            match=match,
            number=number,
            winner_entry=winner,
            first_entry=first,
            waived=waived,
            right_holder_entry=roll,
            score=score,
        )


class Command(BaseCommand):
    """``simulate_tournament --players N --rounds R [--seed S] [--pairs] [--format SLUG] [--keep]``:
    run :func:`simulate` in one transaction, roll it back unless ``--keep``, and print the event's
    export as JSON (``--json`` changes nothing). Loads the bundled catalogue when the format's game
    has no cards. Bad arguments and service errors (``code: message``) are ``CommandError``.
    """

    help = _("Simulate a whole tournament with random results on real decks; prints JSON.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help=_("number of entries"))
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--pairs", action="store_true", help=_("two-player pair teams"))
        parser.add_argument("--format", default="hkk", dest="format_slug")
        parser.add_argument("--json", action="store_true", help=_("print JSON (the default)"))
        parser.add_argument("--keep", action="store_true", help=_("keep the data (commit)"))

    def handle(self, *args: Any, **options: Any) -> None:
        result: dict[str, Any] = {}
        try:
            with transaction.atomic():
                result = simulate(
                    players=options["players"],
                    rounds=options["rounds"],
                    seed=options["seed"],
                    pairs=options["pairs"],
                    format_slug=options["format_slug"],
                )
                if not options["keep"]:
                    raise _Rollback
        except _Rollback:
            pass
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        finally:
            clear_caches()
        self.stdout.write(json.dumps(result, ensure_ascii=False, sort_keys=False))
