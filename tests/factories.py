"""factory_boy factories and small builders shared by the tournament tests.

Tournaments, entries and deck lists are created through the services (so the tests exercise
the real paths); the factories cover plain rows (users, players, formats). ``hkk_catalogue``
is a fixture: import it into a test module to load the bundled HKK sample catalogue.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import factory
import pytest
from django.contrib.auth import get_user_model

from decks.loaders import hkk as hkk_loader
from decks.models import Format, Game
from decks.selectors.cache import clear_caches
from decks.services.catalogue_sync import catalogue_sync
from hkk_tournament.celery import app
from tournaments import services
from tournaments.management.commands.simulate_tournament import build_legal_deck
from tournaments.models import Entry, Player, Tournament
from tournaments.permissions import SYSTEM

#: Format rows as the decks seed migration creates them (recreated after a transactional
#: test flushed the database).
HKK_FORMATS = {
    "hkk": {"min_main": 45, "sideboard_mode": "any", "colour_limit": None},
    "hkk-paros": {
        "min_main": 50,
        "sideboard_mode": "exact",
        "sideboard_size": 30,
        "colour_limit": 3,
        "colours_not_counted": ["Színtelen", "Bufa"],
        "params": {"pair": True},
    },
}


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n}")


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game
        django_get_or_create = ("slug",)

    slug = "hkk"
    name = "Hatalom Kártyái"


class FormatFactory(factory.django.DjangoModelFactory[Format]):
    """An HKK format row (get-or-create by slug, so the seeded rows are reused)."""

    class Meta:
        model = Format
        django_get_or_create = ("slug",)

    slug = "hkk"
    game = factory.SubFactory(GameFactory)
    name = factory.LazyAttribute(lambda f: f.slug)
    rule_set = "hkk"
    copy_limit = 3
    default_tiebreakers = factory.LazyFunction(lambda: ["buchholz", "game_points"])


def ensure_format(slug: str = "hkk") -> Format:
    """The format ``slug`` (created with the seed's parameters when a flush removed it)."""
    return FormatFactory.create(slug=slug, **HKK_FORMATS.get(slug, {}))


def load_hkk_catalogue() -> None:
    """Load the bundled HKK sample catalogue into the current database (idempotent)."""
    ensure_format("hkk")
    ensure_format("hkk-paros")
    catalogue_sync(
        game_slug="hkk",
        cards=hkk_loader.parse_sample_csv(),
        edition_names=hkk_loader.parse_editions(),
    )
    clear_caches()


@pytest.fixture
def eager_celery():
    """Tasks run in-process for this test, even when ``CELERY_BROKER_URL`` is set in the
    environment (the settings then turn eager mode off for the whole session)."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = saved


@pytest.fixture
def hkk_catalogue(db):
    """The HKK sample catalogue inside the test's transaction."""
    load_hkk_catalogue()
    yield
    clear_caches()


def hkk_deck(*, rule_card: str | None = "Ősi rúna", seed: int = 0, format_slug: str = "hkk") -> str:
    """A legal deck list for ``format_slug`` with ``rule_card`` (``None`` = no rule card;
    needs the catalogue)."""
    text, _ = build_legal_deck(
        format_slug=format_slug, rng=random.Random(seed), rule_card=rule_card or ""
    )
    return text


ILLEGAL_DECK = "Pakli:\n3 Gigaököl\n"


def make_tournament(
    *,
    entries: int = 0,
    kind: str = Tournament.Kind.INDIVIDUAL,
    format_slug: str = "hkk",
    decks: bool = True,
    owner=None,
    **options,
) -> tuple[Tournament, list[Entry]]:
    """A tournament in registration with ``entries`` entries (players "P1"…, or teams "T1"…).

    ``decks=True`` submits a legal list for every member (needs ``hkk_catalogue``); otherwise
    every entry gets an organiser override so it can be paired without lists. ``options``
    are ``services.TournamentSettings`` fields, or ``details``.
    """
    if kind == Tournament.Kind.PAIR and format_slug == "hkk":
        format_slug = "hkk-paros"  # the format decides the kind (docs/rules.md §7)
    ensure_format(format_slug)
    fields = set(services.TournamentSettings.__dataclass_fields__)
    settings = services.TournamentSettings(**{k: v for k, v in options.items() if k in fields})
    t = services.tournament_create(
        owner=owner,
        name="Test event",
        format_slug=format_slug,
        kind=kind,
        settings=settings,
        **{k: v for k, v in options.items() if k not in fields},
    )
    t = services.tournament_open_registration(actor=SYSTEM, tournament=t)
    made = []
    for i in range(1, entries + 1):
        if kind == Tournament.Kind.PAIR:
            e = services.entry_register_pair(
                tournament=t, name=f"T{i}", player_a=f"P{i}A", player_b=f"P{i}B"
            )
        else:
            e = services.entry_register_player(tournament=t, player_name=f"P{i}")
        made.append(e)
        if decks:
            submit_decks(t, e, seed=i, format_slug=format_slug)
        else:
            services.entry_override_deck(actor=SYSTEM, entry=e, reason="test without decks")
    return t, made


def publish_first_round(tournament: Tournament, seed: int = 3):
    """Pair the next round of the started ``tournament`` (``seed``), publish it and store the
    standings (the state a public event's pages show during a round); returns the round."""
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=tournament, seed=seed)
    )
    services.standings_refresh(tournament_id=tournament.pk)
    return rnd


def submit_decks(
    tournament: Tournament,
    entry: Entry,
    *,
    seed: int = 0,
    rule_cards: Sequence[str | None] | None = None,
    format_slug: str = "hkk",
):
    """Submit a legal list for every member of ``entry`` (same rule card unless given)."""
    subs = []
    members = list(entry.members.select_related("player").order_by("seat"))
    for i, member in enumerate(members):
        rc = rule_cards[i] if rule_cards is not None else "Ősi rúna"
        subs.append(
            services.deck_submit(
                actor=SYSTEM,
                tournament=tournament,
                entry=entry,
                player=member.player,
                text=hkk_deck(rule_card=rc, seed=seed * 10 + i, format_slug=format_slug),
            )
        )
    return subs


def store_standings(tournament: Tournament, names: Sequence[str]) -> None:
    """Store a standings snapshot of ``len(names)`` made-up rows for ``tournament`` (rank = the
    position, entry ids ``1_000_001…``, match points falling), as the standings task would: a
    big field without building it."""
    from django.utils import timezone

    from tournaments.models import StandingsSnapshot

    rows = [
        {
            "rank": i,
            "entry": 1_000_000 + i,
            "name": name,
            "match_points": max(0, 39 - i // 50),
            "game_points": 10,
            "matches_played": 13,
            "dropped": False,
            "tiebreakers": {"buchholz": "150", "game_points": "7/3"},
        }
        for i, name in enumerate(names, start=1)
    ]
    snapshot, _ = StandingsSnapshot.objects.get_or_create(
        tournament=tournament, defaults={"computed_at": timezone.now()}
    )
    snapshot.rows = rows
    snapshot.version += 1
    snapshot.computed_at = timezone.now()
    snapshot.save()


def staff_user(tournament: Tournament, role: str = "organiser", **fields):
    """A new user appointed ``role`` (``organiser`` or ``judge``) of ``tournament``: the actor of
    a service call that needs that role (services check their actor)."""
    user = UserFactory(**fields)
    services.staff_appoint(actor=SYSTEM, tournament=tournament, user=user, role=role)
    return user
