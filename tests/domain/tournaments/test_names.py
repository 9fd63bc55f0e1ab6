"""Person names in two parts, shown in the language's order (issue 21, item 3)."""

from __future__ import annotations

from tournaments.domain.names import PersonName, family_first, split_name


def test_hungarian_writes_the_family_name_first_and_english_the_given_name() -> None:
    assert family_first("hu") and family_first(None) and family_first("")
    assert not family_first("en") and not family_first("en-gb")


def test_a_name_is_split_in_the_languages_order() -> None:
    assert split_name("Kovács  Anna", family_first=True) == PersonName("Kovács", "Anna")
    assert split_name("Anna Kovács", family_first=False) == PersonName("Kovács", "Anna")
    assert split_name("Kovács Anna Mária", family_first=True) == PersonName("Kovács", "Anna Mária")
    assert split_name("Anna Maria Kovacs", family_first=False) == PersonName("Kovacs", "Anna Maria")


def test_a_single_word_is_a_family_name_alone() -> None:
    for order in (True, False):
        assert split_name("  Madonna ", family_first=order) == PersonName("Madonna", "")
        assert split_name("", family_first=order) == PersonName("", "")


def test_shown_stored_and_sorted() -> None:
    anna = PersonName("Kovács", "Anna")
    assert anna.shown(family_first=True) == "Kovács Anna" == anna.stored
    assert anna.shown(family_first=False) == "Anna Kovács"
    assert PersonName("Cher").shown(family_first=False) == "Cher"
    names = [PersonName("Új", "Ubul"), PersonName("Kovács", "Béla"), PersonName("Kovács", "Anna")]
    assert [n.stored for n in sorted(names, key=PersonName.sort_key)] == [
        "Kovács Anna",
        "Kovács Béla",
        "Új Ubul",
    ]
