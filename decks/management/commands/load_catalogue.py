"""``manage.py load_catalogue``: load every bundled card catalogue (idempotent).

WoW TCG (``decks/data/wowtcg/wow_tcg.csv`` + the WoWTCG-Tracker print list in
``decks/data/wowtcg/tracker/`` + ``sets.csv``: every official set), HKK (sample CSV + name-only
entries of the usage statistics + name-known entries for the cards the HKK FAQ on rule cards
and first-player rights names, ``hkk/faq-named-cards.csv`` + every edition of ``editions.json``
with its release date)
and, when ``decks/loaders/bluemoon.py`` exists and exposes ``load_bundled()``, Blue Moon.
Prints created / updated / unchanged per game and the time.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from decks.loaders import CatalogueFormatError, hkk, hkk_faq, optional_module, wowtcg
from decks.selectors.cache import clear_caches
from decks.services.catalogue_sync import catalogue_sync


def bundled_catalogues():
    """Yield ``(game_slug, cards, edition_names, edition table)`` for every bundled catalogue:
    WoW TCG (CSV + Tracker print list, set table with blocks and release dates), HKK (sample +
    name-only entries of the usage statistics, ``hkk.parse_bundled``, plus the FAQ-named cards,
    ``hkk_faq.with_faq_named``; every edition with its release date) and Blue Moon."""
    wow_cards = wowtcg.parse_bundled()
    yield "wow", wow_cards, wowtcg.editions(wow_cards), wowtcg.parse_sets()
    hkk_cards = hkk_faq.with_faq_named(hkk.parse_bundled())
    yield "hkk", hkk_cards, hkk.parse_editions(), hkk.parse_edition_releases()
    bluemoon = optional_module("decks.loaders.bluemoon")
    if bluemoon is not None and hasattr(bluemoon, "load_bundled"):
        yield "bluemoon", bluemoon.load_bundled(), None, ()


#: The coverage a game starts with when the bundled data creates it (the HKK data is a sample;
#: docs/rules.md §17 (Card data sources and coverage)).
BUNDLED_COVERAGE: dict[str, str] = {"hkk": str(hkk.BUNDLED_COVERAGE)}


class Command(BaseCommand):
    """``load_catalogue``: sync every bundled catalogue (``bundled_catalogues``) in one transaction
    and print the counts per game and the time taken (silent at ``--verbosity 0``); idempotent.
    Malformed bundled data (``CatalogueFormatError``) is a ``CommandError`` and writes nothing.
    """

    help = _("Load the bundled card catalogues (WoW TCG, HKK sample, Blue Moon); idempotent.")

    def handle(self, *args, **options):
        started = time.perf_counter()
        try:
            with transaction.atomic():
                results = [
                    catalogue_sync(
                        game_slug=game,
                        cards=cards,
                        edition_names=names,
                        editions=table,
                        coverage=BUNDLED_COVERAGE.get(game),
                    )
                    for game, cards, names, table in bundled_catalogues()
                ]
        except CatalogueFormatError as exc:
            raise CommandError(
                _("Bundled card data is malformed: %(error)s") % {"error": exc}
            ) from exc
        clear_caches()
        elapsed = time.perf_counter() - started
        if options["verbosity"] < 1:
            return
        for result in results:
            self.stdout.write(
                _(
                    "%(game)s: %(created)d created, %(updated)d updated, "
                    "%(unchanged)d unchanged, %(editions)d new editions"
                )
                % {
                    "game": result.game,
                    "created": result.created,
                    "updated": result.updated,
                    "unchanged": result.unchanged,
                    "editions": result.editions_created,
                }
            )
        self.stdout.write(self.style.SUCCESS(_("Done in %(seconds).2f s.") % {"seconds": elapsed}))
