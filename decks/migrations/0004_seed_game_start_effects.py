"""Seed the HKK game-start effects with exactly the values the HKK FAQ on rule cards and
first-player rights states (docs/rules.md §5 (HKK game start: opening hand and life points)).

The rows mirror ``decks/data/game_start_effects.csv`` at the time of writing (kept inline so
this migration never changes meaning when the CSV is edited later; a test checks they still
agree). A row without any stated value is seeded with ``values_known=False``: the FAQ names the
card as acting at game start but gives no number. Reversible: the reverse removes the rows. The
``source`` notes below are those a fresh install gets; ``0006_relabel_sources`` brings databases
seeded with the first wording up to date.
"""

import unicodedata

from django.db import migrations

# name, kind, fixed_max_ep, ep_change, hand_change, start_ep, horde_hand, scope, source
ROWS = [
    (
        "Életenergia (új)", "rule_card", 30, None, None, None, None, "everyone",
        'HKK FAQ "Kétféle szabálylap/követő van": fixed max ÉP; 28 example (at the opponent, '
        "sets mine) implies value 30 and scope everyone; kind inferred",
    ),
    (
        "Sokszínűség", "rule_card", 27, None, None, None, None, "user",
        'HKK FAQ pair paragraph "Sokszínűségnél mindketten 27 ÉP-vel kezdenek, azaz összesen '
        '54-gyel": 27, affects its user; kind inferred',
    ),
    (
        "Terrgath", "follower", None, -2, None, None, None, "user",
        'HKK FAQ "Terrgath -2 ÉP", "(nálam)"; kind inferred (szabálylap/követő not stated)',
    ),
    (
        "A bőség zavara", "rule_card", None, None, 3, None, None, "everyone",
        "HKK FAQ AK36 (+3 cards, do not stack); docs/rules.md §7 lists it as affecting everyone",
    ),
    (
        "Arochos", "follower", None, None, None, 1, None, "user",
        'HKK FAQ "Arochos … továbbra is 1 ÉP-vel kezd", does not change max ÉP; '
        "decks/data/hkk/cards-sample.csv has Arochos (2020) as a horde commander, printed hand "
        "unknown",
    ),
    (
        "Együgyű", "rule_card", None, None, None, None, None, "user",
        "HKK FAQ names it as a fixed max ÉP card below 30; value, kind and scope not stated",
    ),
    (
        "A fájdalom szépsége", "rule_card", None, None, None, None, None, "everyone",
        "HKK FAQ pair paragraph: affects everyone, applies once; no hand/ÉP value stated",
    ),
    (
        "Lassan járj!", "rule_card", None, None, None, None, None, "everyone",
        "HKK FAQ pair paragraph: affects everyone, applies once; no hand/ÉP value stated",
    ),
    (
        "Lépéselőny", "rule_card", None, None, None, None, None, "user",
        "HKK FAQ pair paragraph: affects its user (2 VP, 1 SZK each); no hand/ÉP value",
    ),
]


def _normalise(name):
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def seed(apps, schema_editor):
    GameStartEffect = apps.get_model("decks", "GameStartEffect")
    for name, kind, fixed, ep, hand, start, horde, scope, source in ROWS:
        values = (fixed, ep, hand, start, horde)
        GameStartEffect.objects.get_or_create(
            normalized_name=_normalise(name),
            defaults={
                "name": name,
                "kind": kind,
                "fixed_max_ep": fixed,
                "ep_change": ep,
                "hand_change": hand,
                "start_ep": start,
                "horde_hand": horde,
                "scope": scope,
                "works_at_start": True,
                "values_known": any(value is not None for value in values),
                "source": source,
            },
        )


def unseed(apps, schema_editor):
    GameStartEffect = apps.get_model("decks", "GameStartEffect")
    GameStartEffect.objects.filter(
        normalized_name__in=[_normalise(row[0]) for row in ROWS]
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("decks", "0003_game_start_effect")]

    operations = [migrations.RunPython(seed, unseed)]
