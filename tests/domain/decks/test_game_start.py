"""HKK game start (decks.domain.game_start): every worked example of the HKK FAQ on rule cards
and first-player rights and of Kódex §48 (docs/rules.md §5 (HKK game start: opening hand and
life points))."""

from __future__ import annotations

import pytest

from decks.domain.game_start import (
    Effect,
    EffectKind,
    PlayerSetup,
    Scope,
    Side,
    compute_game_start,
)
from decks.loaders.game_start import read_effects_csv

EFFECTS = read_effects_csv()
ELETENERGIA = EFFECTS["életenergia (új)"]
SOKSZINUSEG = EFFECTS["sokszínűség"]
TERRGATH = EFFECTS["terrgath"]
BOSEG = EFFECTS["a bőség zavara"]
AROCHOS = EFFECTS["arochos"]
PLAIN_FOLLOWER = Effect("Sima követő", kind=EffectKind.FOLLOWER)
PLAIN_RULE = Effect("Sima szabálylap")


def solo(name, rule_card=None, follower=None):
    return Side([PlayerSetup(name, rule_card, follower)])


def codes(result):
    return [code for code, _ in result.steps]


def test_no_cards_gives_base_values():
    start = compute_game_start(solo("me"), solo("you"))
    me = start.player("me")
    assert (me.hand, me.max_ep, me.start_ep) == (5, 20, 20)


def test_eletenergia_at_opponent_and_terrgath_mine_gives_28():
    # HKK FAQ: "Életenergia (új) (ellenfélnél) és Terrgath (nálam) esetében 28 ÉP-vel kezdek."
    start = compute_game_start(solo("me", follower=TERRGATH), solo("you", rule_card=ELETENERGIA))
    me, you = start.player("me"), start.player("you")
    assert (me.max_ep, me.start_ep) == (28, 28)
    assert (you.max_ep, you.start_ep) == (30, 30)
    assert ("fixed_max_ep", {"card": "Életenergia (új)", "value": 30}) in me.steps
    assert ("ep_change", {"card": "Terrgath", "value": -2}) in me.steps


def test_eletenergia_and_sokszinuseg_gives_30_for_both():
    # HKK FAQ: "Életenergia (új) és Sokszínűség esetén 30 ÉP-vel kezdünk"
    start = compute_game_start(solo("me", SOKSZINUSEG), solo("you", ELETENERGIA))
    assert start.player("me").max_ep == 30
    assert start.player("me").start_ep == 30
    assert start.player("you").max_ep == 30
    assert ("fixed_max_ep_ignored", {"card": "Sokszínűség", "value": 27}) in start.player(
        "me"
    ).steps


def test_sokszinuseg_is_user_scope():
    start = compute_game_start(solo("me", SOKSZINUSEG), solo("you"))
    assert start.player("me").max_ep == 27
    assert start.player("you").max_ep == 20


def test_larger_fixed_value_wins_with_hypothetical_egyugyu():
    # HKK FAQ: "Életenergia (új) és Együgyű esetében is" 30; Együgyű's value is not stated, so a
    # hypothetical fixed value below 30 stands in for it.
    assert EFFECTS["együgyű"].fixed_max_ep is None
    egyugyu = Effect("Együgyű", fixed_max_ep=25, scope=Scope.USER)
    start = compute_game_start(solo("me", egyugyu), solo("you", ELETENERGIA))
    assert start.player("me").max_ep == 30
    alone = compute_game_start(solo("me", egyugyu), solo("you"))
    assert alone.player("me").max_ep == 25


def test_two_boseg_zavara_give_seven_cards_each():
    # HKK FAQ, AK36: "két A bőség zavaránál is csak hét lapot húztok (+3 … és -1 …)"
    start = compute_game_start(solo("me", BOSEG), solo("you", BOSEG))
    for name in ("me", "you"):
        assert start.player(name).hand == 7
        assert codes(start.player(name)).count("hand_change") == 1


def test_boseg_zavara_reaches_the_opponent_without_rule_card():
    start = compute_game_start(solo("me", BOSEG), solo("you"))
    assert start.player("me").hand == 7
    assert start.player("you").hand == 8


def test_different_hand_effects_of_one_player_add_up():
    extra = Effect("Kártyabőség", hand_change=1, kind=EffectKind.FOLLOWER)
    start = compute_game_start(solo("me", BOSEG, extra), solo("you"))
    assert start.player("me").hand == 5 - 1 - 1 + 3 + 1


def test_rule_card_and_follower_give_three_cards():
    start = compute_game_start(solo("me", PLAIN_RULE, PLAIN_FOLLOWER), solo("you"))
    me = start.player("me")
    assert me.hand == 3
    assert codes(me)[:3] == ["base_hand", "rule_card_minus_one", "follower_minus_one"]


def test_epic_follower_draws_five_and_loses_two_max_ep():
    epic = Effect("Fufuka, az álomelf (epikus)", kind=EffectKind.EPIC_FOLLOWER)
    start = compute_game_start(solo("me", follower=epic), solo("you"))
    me = start.player("me")
    assert (me.hand, me.max_ep, me.start_ep) == (5, 18, 18)
    assert "follower_minus_one" not in codes(me)


def test_epic_follower_not_working_at_start_is_a_normal_follower():
    epic = Effect("Lusta epikus", kind=EffectKind.EPIC_FOLLOWER, works_at_start=False)
    me = compute_game_start(solo("me", follower=epic), solo("you")).player("me")
    assert (me.hand, me.max_ep) == (4, 20)
    assert "not_working_at_start" in codes(me)


def test_horde_commander_draws_its_number_and_changes_both_ep():
    horde = Effect("Horda", kind=EffectKind.HORDE_COMMANDER, horde_hand=7, ep_change=-4)
    me = compute_game_start(solo("me", follower=horde), solo("you")).player("me")
    assert (me.hand, me.max_ep, me.start_ep) == (7, 16, 16)


def test_horde_commander_not_working_at_start_falls_back():
    horde = Effect(
        "Horda", kind=EffectKind.HORDE_COMMANDER, horde_hand=7, ep_change=-4, works_at_start=False
    )
    me = compute_game_start(solo("me", follower=horde), solo("you")).player("me")
    assert (me.hand, me.max_ep) == (4, 20)


def test_horde_commander_with_unknown_number_is_flagged():
    horde = Effect("Horda", kind=EffectKind.HORDE_COMMANDER)
    me = compute_game_start(solo("me", follower=horde), solo("you")).player("me")
    assert me.hand == 5
    assert "horde_hand_unknown" in codes(me)


def test_arochos_starts_at_one_and_keeps_max():
    start = compute_game_start(solo("me", follower=AROCHOS), solo("you", ELETENERGIA))
    me = start.player("me")
    assert (me.start_ep, me.max_ep, me.hand) == (1, 30, 4)
    assert start.player("you").start_ep == 30


def test_pair_sokszinuseg_each_member_starts_at_27():
    # HKK FAQ: "Sokszínűségnél mindketten 27 ÉP-vel kezdenek, azaz összesen 54-gyel."
    team = Side([PlayerSetup("A1", SOKSZINUSEG), PlayerSetup("A2", SOKSZINUSEG)])
    other = Side([PlayerSetup("B1"), PlayerSetup("B2")])
    start = compute_game_start(team, other)
    assert start.player("A1").start_ep + start.player("A2").start_ep == 54
    assert start.player("B1").max_ep == 20


def test_pair_user_rule_card_is_shared_even_if_declared_once():
    team = Side([PlayerSetup("A1", SOKSZINUSEG), PlayerSetup("A2")])
    start = compute_game_start(team, solo("B"))
    assert start.player("A2").max_ep == 27
    assert "pair_rule_cards_differ" in codes(start.player("A2"))
    assert start.player("B").max_ep == 20


def test_pair_everyone_effect_applies_once():
    # HKK FAQ: "A fájdalom szépsége csak egyszer fog kisülni"; modelled with a hand effect.
    everyone = Effect("A fájdalom szépsége", hand_change=1, scope=Scope.EVERYONE)
    team = Side([PlayerSetup("A1", everyone), PlayerSetup("A2", everyone)])
    other = Side([PlayerSetup("B1"), PlayerSetup("B2")])
    start = compute_game_start(team, other)
    assert start.player("A1").hand == 5
    assert start.player("B2").hand == 6
    assert codes(start.player("B2")).count("hand_change") == 1


def test_pair_follower_stays_personal():
    team = Side([PlayerSetup("A1", follower=TERRGATH), PlayerSetup("A2")])
    start = compute_game_start(team, solo("B"))
    assert start.player("A1").max_ep == 18
    assert start.player("A2").max_ep == 20


def test_start_rule_and_base_parameters():
    start = compute_game_start(
        solo("me", PLAIN_RULE), solo("you"), base_hand=6, base_ep=25, start_rule_hand_change=-1
    )
    assert start.player("me").hand == 4
    assert start.player("you").hand == 5
    assert start.player("you").max_ep == 25


@pytest.mark.parametrize("players", [[], [PlayerSetup("a"), PlayerSetup("b"), PlayerSetup("c")]])
def test_bad_side_size_is_rejected(players):
    with pytest.raises(ValueError):
        compute_game_start(Side(players), solo("x"))


def test_duplicate_player_name_is_rejected():
    with pytest.raises(ValueError):
        compute_game_start(solo("x"), solo("x"))


def test_effects_loader_rejects_bad_rows(tmp_path):
    from decks.loaders.base import CatalogueFormatError

    path = tmp_path / "effects.csv"
    header = "name,kind,fixed_max_ep,ep_change,hand_change,start_ep,horde_hand,scope,source\n"
    path.write_text(header + "X,rule_card,abc,,,,,user,\n", encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match="row 2"):
        read_effects_csv(path)
    path.write_text(header + "X,rule_card,,,,,,somebody,\n", encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match="row 2: scope"):
        read_effects_csv(path)
    path.write_text(header + "X,rule_card,,,,,,user,\nx,follower,,,,,,user,\n", encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match="row 3"):
        read_effects_csv(path)


def test_shipped_effects_hold_only_stated_values():
    assert ELETENERGIA.fixed_max_ep == 30 and ELETENERGIA.scope is Scope.EVERYONE
    assert SOKSZINUSEG.fixed_max_ep == 27 and SOKSZINUSEG.scope is Scope.USER
    assert TERRGATH.ep_change == -2
    assert BOSEG.hand_change == 3
    assert AROCHOS.start_ep == 1 and AROCHOS.fixed_max_ep is None
    assert EFFECTS["a fájdalom szépsége"].hand_change is None


def test_effect_accepts_plain_strings_and_rejects_unknown_scope():
    effect = Effect("X", scope="everyone", kind="horde_commander", horde_hand=6)
    assert effect.scope is Scope.EVERYONE and effect.kind is EffectKind.HORDE_COMMANDER
    start = compute_game_start(solo("me", follower=effect), solo("you"))
    assert start.player("me").hand == 6
    with pytest.raises(ValueError):
        Effect("Y", scope="somebody")
