"""``manage.py validate_deck`` end to end: argument parsing, exit status, JSON and report.

Runs the command through ``ManagementUtility`` (exactly what ``manage.py`` does), so the exit
status is the one a shell sees: ``SystemExit`` carries it.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from unittest.mock import patch

import pytest
from django.core.management import ManagementUtility
from django.db import connections

from tests.services.decks.test_validation import EXAMPLES, ISSUE_KEYS, RESULT_KEYS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def run(*args: str) -> tuple[int, str, str]:
    """Run ``manage.py validate_deck *args``; return (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = 0
    # run_from_argv closes every connection when it ends, which would end the test's
    # transaction on PostgreSQL; keep the connection for the rest of the test.
    with redirect_stdout(out), redirect_stderr(err), patch.object(connections, "close_all"):
        try:
            ManagementUtility(["manage.py", "validate_deck", *args]).execute()
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def test_legal_deck_exits_0_with_a_readable_report():
    status, out, _err = run(str(EXAMPLES / "hkk-legal.txt"), "--format", "hkk", "--lang", "en")
    assert status == 0
    assert "LEGAL" in out and "ILLEGAL" not in out
    assert "Deck: 52 cards, sideboard: 0 cards" in out
    assert "Rule card: Ősi rúna" in out


def test_illegal_deck_exits_1_and_lists_errors_with_lines():
    status, out, _err = run(
        str(EXAMPLES / "wow-illegal.txt"), "--format", "wow-constructed", "--lang", "en"
    )
    assert status == 1
    assert "ILLEGAL" in out
    assert "[line 11] “Blink” is for Mage, but the hero's class is Warrior." in out
    assert "(faction_restriction)" in out


# --- every bundled example gets the verdict its name states ----------------------------------

#: The format each game's examples are written for (as their header comments say).
EXAMPLE_FORMATS = {
    "hkk": "hkk-hagyomanyos",
    "wow": "wow-constructed",
    "bluemoon": "bluemoon-advanced",
}
#: The exit status ``validate_deck`` gives for the verdict in an example's name.
EXIT_BY_VERDICT = {"legal": 0, "illegal": 1, "unverified": 3}
EXAMPLE_FILES = sorted(EXAMPLES.glob("*"))


def test_examples_are_named_by_game_and_verdict():
    assert EXAMPLE_FILES
    verdicts: dict[str, set[str]] = {}
    for path in EXAMPLE_FILES:
        game, _sep, verdict = path.stem.partition("-")
        assert path.suffix == ".txt", path.name
        assert game in EXAMPLE_FORMATS and verdict in EXIT_BY_VERDICT, path.name
        verdicts.setdefault(game, set()).add(verdict)
    # Every game shows an illegal list and one that passes every check the data allows.
    assert {game for game, found in verdicts.items() if "illegal" in found} == set(EXAMPLE_FORMATS)
    assert {game for game, found in verdicts.items() if found - {"illegal"}} == set(EXAMPLE_FORMATS)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_every_example_gets_the_verdict_its_name_states(path):
    game, _sep, verdict = path.stem.partition("-")
    status, out, err = run(str(path), "--format", EXAMPLE_FORMATS[game], "--json", "--lang", "en")
    data = json.loads(out) if out else {}
    problems = [(i["code"], i["card"]) for i in data.get("errors", [])] or err
    assert (status, data.get("status")) == (EXIT_BY_VERDICT[verdict], verdict), problems


@pytest.mark.parametrize(
    ("name", "slug", "status"),
    [("wow-legal.txt", "wow-constructed", 0), ("hkk-illegal.txt", "hkk", 1)],
)
def test_json_output_is_exactly_one_object_of_the_documented_shape(name, slug, status):
    code, out, _err = run(str(EXAMPLES / name), "--format", slug, "--json", "--lang", "en")
    assert code == status
    data = json.loads(out)  # fails if anything else was printed
    assert set(data) == RESULT_KEYS
    assert set(data["counts"]) == {"main", "sideboard"}
    assert data["legal"] is (status == 0)
    assert data["format"] == slug
    for issue in data["errors"] + data["warnings"]:
        assert set(issue) == ISSUE_KEYS
    if status:
        assert data["status"] == "illegal"
        # The bundled HKK catalogue is partial: the unknown name is reported, not an error.
        assert not [i for i in data["errors"] if i["code"] == "unknown_card"]
        unknown = next(i for i in data["warnings"] if i["code"] == "card_not_in_catalogue")
        assert unknown["card"] == "Óriás skorpio"
        assert unknown["line"] == 12
        assert "Óriás skorpió" in unknown["params"]["suggestions"]
        assert data["unknown_cards"] == ["Óriás skorpio"]
    else:
        assert data["status"] == "legal"


def test_json_is_utf8_not_escaped():
    _code, out, _err = run(str(EXAMPLES / "hkk-legal.txt"), "--format", "hkk", "--json")
    assert '"rule_card": "Ősi rúna"' in out


def test_date_option_selects_the_ban_list():
    path = str(EXAMPLES / "hkk-illegal.txt")
    _c, before, _e = run(path, "--format", "hkk-hagyomanyos", "--json", "--date", "2024-12-31")
    _c, after, _e = run(path, "--format", "hkk-hagyomanyos", "--json", "--date", "2025-01-01")
    assert "banned_card" not in {i["code"] for i in json.loads(before)["errors"]}
    assert "banned_card" in {i["code"] for i in json.loads(after)["errors"]}


def test_unknown_format_exits_2():
    status, out, err = run(str(EXAMPLES / "hkk-legal.txt"), "--format", "nope", "--lang", "en")
    assert status == 2
    assert out == ""
    assert "Unknown format: nope." in err


def test_missing_file_exits_2(tmp_path):
    status, _out, err = run(str(tmp_path / "missing.txt"), "--format", "hkk", "--lang", "en")
    assert status == 2
    assert "Cannot read" in err


def test_empty_file_exits_2(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n", encoding="utf-8")
    status, _out, err = run(str(empty), "--format", "hkk", "--lang", "en")
    assert status == 2
    assert "The deck list is empty." in err


def test_binary_file_exits_2(tmp_path):
    binary = tmp_path / "deck.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    status, _out, err = run(str(binary), "--format", "hkk", "--lang", "en")
    assert status == 2
    assert "not a plain text file" in err


def test_bad_date_exits_2():
    status, _out, err = run(
        str(EXAMPLES / "hkk-legal.txt"), "--format", "hkk", "--date", "2025-13-01", "--lang", "en"
    )
    assert status == 2
    assert "YYYY-MM-DD" in err


def test_windows_1250_file_is_read(tmp_path):
    path = tmp_path / "cp1250.txt"
    path.write_bytes((EXAMPLES / "hkk-legal.txt").read_text(encoding="utf-8").encode("cp1250"))
    status, out, _err = run(str(path), "--format", "hkk", "--json")
    assert status == 0
    assert json.loads(out)["follower"] == "A legfőbb követő"


def test_report_is_hungarian_by_default(settings):
    assert settings.LANGUAGE_CODE == "hu"
    status, out_default, _ = run(str(EXAMPLES / "hkk-illegal.txt"), "--format", "hkk")
    _status, out_hu, _ = run(str(EXAMPLES / "hkk-illegal.txt"), "--format", "hkk", "--lang", "hu")
    assert status == 1
    assert out_default == out_hu
