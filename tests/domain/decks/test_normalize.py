from __future__ import annotations

import pytest

from decks.domain.normalize import normalize_name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Thu’zad megszégyenítése", "thu'zad megszégyenítése"),
        ("Thu‘zad", "thu'zad"),
        ("Thu´zad", "thu'zad"),
        ("Thu`zad", "thu'zad"),
        ("  Ősi   rúna  ", "ősi rúna"),
        ("ŐSI\tRÚNA", "ősi rúna"),
        ("Ősi\u00a0rúna", "ősi rúna"),
        ("O\u030bsi rúna", "ősi rúna"),  # decomposed double acute -> NFC
        ("Tűzmadár (2020)", "tűzmadár (2020)"),
        ("", ""),
    ],
)
def test_normalize_name(raw, expected):
    assert normalize_name(raw) == expected


def test_distinct_names_stay_distinct():
    assert normalize_name("Isteni érzés") != normalize_name("Isteni érzés (új)")
