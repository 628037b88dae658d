"""Tricks & Treats' variant with special baskets ([4] and the table of the 11 special baskets).

Each test quotes the sentence of ``tricks-and-treats-zh.txt`` (or the ruling of RULES.md) it
checks. Player 0 holds basket 1, player 1 basket 2, player 2 basket 3 (baskets 4 and 5 unowned).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import attrs
import pytest
import tricks_and_treats as tnt
from hypothesis import given, settings
from hypothesis import strategies as st
from tricks_and_treats.__main__ import CHOICES, HELP, SPECIAL_RULES, describe, render

K = tnt.Card.parse
B = tnt.basket_id
EXAMPLES = settings(max_examples=40, deadline=None)


def row_with(special: str, at: int = 2, *others: str) -> tuple[int, ...]:
    """The row 5 3 1 4 2 with ``special`` put at place ``at`` (and ``others`` appended)."""
    row = [5, 3, 1, 4, 2]
    row.insert(at, B(special))
    return (*row, *(B(o) for o in others))


def piles(row: tuple[int, ...], **baskets: str) -> tuple[tuple[tnt.Card, ...], ...]:
    out: list[tuple[tnt.Card, ...]] = [()] * len(row)
    for name, cards in baskets.items():
        key = name[1:] if name[1:].isdigit() else name
        out[row.index(B(key))] = tuple(K(c) for c in cards.split())
    return tuple(out)


def game(row: tuple[int, ...], hand: str = "", **fields: object) -> tnt.TricksAndTreatsState:
    """Three players, player 0 to play ``hand``; the specials are those in ``row``."""
    names = tuple(tnt.basket_name(b) for b in row if b > 6)
    base = attrs.evolve(
        tnt.new_game(3, seed=1, specials=names),
        current_player=0,
        numbers=(1, 2, 3),
        removed_numbers=(4, 5),
        row=row,
        piles=((),) * len(row),
        hands=(tuple(K(c) for c in hand.split()), (), ()),
        step=tnt.Step.PLAY if hand else tnt.Step.DRAW,
    )
    return attrs.evolve(base, **fields)  # type: ignore[arg-type]


def end(row: tuple[int, ...], **baskets: str) -> tnt.TricksAndTreatsState:
    """The game with these piles, ended by player 0 drawing Time's Up."""
    return game(row, deck=(tnt.TIMES_UP,), piles=piles(row, **baskets)).apply("draw")


def all_cards(state: tnt.TricksAndTreatsState) -> Counter[tnt.Card]:
    held = [c for h in state.hands for c in h] + [c for p in state.piles for c in p]
    return Counter([*state.deck, *held, *state.discarded, *state.removed])


# -- set-up [4] ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2])
def test_one_or_two_special_baskets_join_the_row_face_up(count: int) -> None:
    # [4] "從中抽取1~2張正面朝上加入桌面上的提籃卡列中"
    for seed in range(20):
        state = tnt.new_game(4, seed, specials=count)
        assert len(state.config.specials) == count
        assert len(state.row) == 6 + count
        assert sorted(b for b in state.row if b <= 6) == [1, 2, 3, 4, 5, 6]
        assert {tnt.basket_name(b) for b in state.row if b > 6} == set(state.config.specials)
        assert state.view(0).specials == state.config.specials  # face up: everyone sees them
        assert all_cards(state) == Counter([*tnt.CANDY_CARDS, tnt.TIMES_UP])
        assert tnt.TIMES_UP in state.deck[-6:]


def test_the_variant_is_off_by_default_and_leaves_the_basic_deal_alone() -> None:
    # [1.(3)] "特殊提籃卡於基本規則時暫先移除(進階規則時才使用)"
    basic = tnt.new_game(3, seed=1)
    assert basic.config.specials == ()
    assert basic.row == (2, 3, 5, 4, 1)
    variant = tnt.new_game(3, seed=1, specials=["bomb"])
    assert tuple(b for b in variant.row if b <= 6) == basic.row
    assert variant.hands == basic.hands
    assert variant.numbers == basic.numbers


def test_piggy_and_lottery_start_with_three_face_up_cards() -> None:
    # Piggy, Lottery: "遊戲開始時，從糖果卡牌堆上方抽取3張卡牌，正面朝上放置於此提籃卡下方"
    basic = tnt.new_game(3, seed=2)
    state = tnt.new_game(3, seed=2, specials=["piggy", "lottery"])
    assert state.pile(B("piggy")) + state.pile(B("lottery")) == basic.deck[:6]
    assert state.deck == basic.deck[6:]
    assert state.view(1).piles == state.piles


@pytest.mark.parametrize("bad", [3, -1, ["bomb", "bomb"], ["nope"], ["bomb", "lice", "disco"]])
def test_bad_special_settings_are_refused(bad: object) -> None:
    with pytest.raises(tnt.ConfigurationError, match="special"):
        tnt.new_game(3, seed=1, specials=bad)  # type: ignore[arg-type]


def test_number_cards_still_run_from_one_to_players_plus_two() -> None:
    # [1.(4)] number cards 1 to players + 2, whatever the row holds
    state = game(row_with("bomb", 2, "lice"))
    assert {a.number for a in state.legal_actions() if isinstance(a, tnt.Accuse)} == {2, 3, 4, 5}


# -- when a card is placed ----------------------------------------------------------------------


def test_bomb_lets_the_placer_swap_it_with_a_neighbour_without_the_candy() -> None:
    # Bomb: "該玩家可立即將此提籃卡與其相鄰...的提籃卡進行位置互換(不包括下方糖果卡)"
    row = row_with("bomb")  # 5 3 bomb 1 4 2
    state = game(row, "M1 K4", piles=piles(row, b1="C2")).apply("play M1 bomb")
    assert state.step is tnt.Step.EFFECT
    assert state.current_player == 0
    assert state.legal_actions() == (tnt.Skip(), tnt.Swap(B("bomb"), 1), tnt.Swap(B("bomb"), 3))
    after = state.apply("swap bomb 1")
    assert after.row == (5, 3, 1, B("bomb"), 4, 2)
    assert after.piles == state.piles  # the candy stays where it lay
    assert after.pile(1) == (K("M1"),)
    assert after.pile(B("bomb")) == (K("C2"),)
    assert after.current_player == 1
    assert after.step is tnt.Step.DRAW
    assert state.apply("skip").row == row  # "可立即": may, not must


def test_bomb_neighbours_wrap_around_the_row() -> None:
    # Bomb: "(提籃列最左端與最右端視為相鄰)"
    row = row_with("bomb", 0)  # bomb 5 3 1 4 2
    state = game(row, "M1").apply("play M1 bomb")
    assert set(state.legal_actions()) == {
        tnt.Skip(),
        tnt.Swap(B("bomb"), 5),
        tnt.Swap(B("bomb"), 2),
    }


def test_no_accusing_while_a_special_basket_waits_for_its_placer() -> None:
    # TT-12: the choice is part of placing the card, which ends the turn.
    state = game(row_with("bomb"), "M1").apply("play M1 bomb")
    with pytest.raises(tnt.IllegalActionError, match="bomb basket does"):
        state.apply("accuse 1 2")
    assert state == game(row_with("bomb"), "M1").apply("play M1 bomb")


def test_monte_acts_only_when_a_two_is_placed() -> None:
    # Monte: "當玩家將數字2的糖果卡置於此提籃卡下方時，
    # 該玩家可立即將此提籃卡與其相鄰的提籃卡進行互換"
    row = row_with("monte")
    two = game(row, "M2 M3").apply("play M2 monte")
    assert two.step is tnt.Step.EFFECT
    assert two.apply("swap monte 3").row == (5, B("monte"), 3, 1, 4, 2)
    three = game(row, "M2 M3").apply("play M3 monte")
    assert three.step is tnt.Step.DRAW
    assert three.current_player == 1


def test_magnet_moves_the_top_card_of_another_basket_under_another() -> None:
    # Magnet: "該玩家可立即將其它任一提籃卡下方的最後1張卡牌，移置另一提籃卡下方"
    row = row_with("magnet")
    state = game(row, "M1", piles=piles(row, b1="C2 K4", b2="G1")).apply("play M1 magnet")
    assert tnt.Pull(1, 3) in state.legal_actions()
    assert tnt.Pull(1, B("magnet")) in state.legal_actions()
    assert not any(
        isinstance(a, tnt.Pull) and a.source in (B("magnet"), 3) for a in state.legal_actions()
    )  # not from the magnet itself, nor from an empty pile
    after = state.apply("pull 1 3")
    assert after.pile(1) == (K("C2"),)
    assert after.pile(3) == (K("K4"),)
    assert all_cards(after) == all_cards(state)
    assert after.current_player == 1


def test_disco_at_ten_candy_removes_them_and_swaps_the_fullest_and_emptiest() -> None:
    # Disco: "當此提籃卡下方的糖果加總數量為10以上時，將此提籃卡下方的所有糖果卡移除。接著，
    # 將糖果加總數量最多的提籃卡與糖果加總數量最少的提籃卡進行位置互換"
    row = row_with("disco")  # 5 3 disco 1 4 2
    full = piles(row, disco="K4 K4", b5="M1", b3="M4", b1="C1", b4="M1", b2="M2")
    state = game(row, "K3", piles=full).apply("play K3 disco")
    assert Counter(state.removed) == Counter([K("K4"), K("K4"), K("K3")])
    # Disco (0 now) is the emptiest, basket 3 (4) the fullest: they trade places.
    assert state.row == (5, B("disco"), 3, 1, 4, 2)
    assert state.pile(B("disco")) == (K("M4"),)
    assert state.pile(3) == ()
    assert state.current_player == 1
    under = game(row, "K1", piles=full).apply("play K1 disco")
    assert under.removed == ()
    assert under.row == row


def test_a_disco_tie_is_decided_by_the_player_who_placed_the_last_card() -> None:
    # Disco: "若...不只1張，則由原先在此提籃卡下方放置最後1張卡牌的玩家決定欲交換的2張提籃卡"
    row = row_with("disco")
    state = game(row, "K3", piles=piles(row, disco="K4 K4", b3="M4")).apply("play K3 disco")
    assert state.step is tnt.Step.EFFECT
    assert state.current_player == 0
    assert set(state.legal_actions()) == {tnt.Swap(3, b) for b in (1, 2, 4, 5, B("disco"))}
    assert tnt.Skip() not in state.legal_actions()  # the swap is not optional
    assert state.apply("swap 3 1").row == (5, 1, B("disco"), 3, 4, 2)


def test_a_magnet_pull_onto_disco_counts() -> None:
    # TT-13: Disco's "糖果加總數量為10以上" is a condition on its pile, however it is reached.
    row = (*row_with("magnet"), B("disco"))
    start = piles(row, disco="K4 K4", b1="K3", b2="M1", b3="M2", b4="M3", b5="G1")
    state = game(row, "M1", piles=start).apply("play M1 magnet").apply("pull 1 disco")
    assert Counter(state.removed) == Counter([K("K4"), K("K4"), K("K3")])


# -- at the end, before scoring -----------------------------------------------------------------


def test_end_effects_come_before_scoring() -> None:
    # [4] "遊戲結束時，須先執行特殊提籃卡的效能。之後，各生存玩家再將數字卡翻至正面，進行分數計算"
    state = end(row_with("bomb"), b3="K4 K4", b1="M4", b2="C3")
    assert state.pile(3) == ()
    assert state.pile(1) == ()
    assert state.scores() == (0, 3, 0)
    assert state.winners() == (1,)
    assert "bomb" in state.effects[0]


def test_bomb_at_the_end_clears_both_neighbours_even_across_the_row_ends() -> None:
    # Bomb: "遊戲結束時，與此提籃卡左右相鄰的2個提籃卡下方的所有糖果卡皆須移除"
    state = end(row_with("bomb", 0), b2="K4", b5="M4", b3="C3")  # bomb 5 3 1 4 2
    assert state.pile(2) == state.pile(5) == ()
    assert state.pile(3) == (K("C3"),)
    assert Counter(state.removed) == Counter([K("K4"), K("M4")])


def test_monte_at_the_end_swaps_its_two_neighbours() -> None:
    # Monte: "遊戲結束時，須將與此提籃卡左右相鄰的2個提籃卡進行位置互換"
    state = end(row_with("monte"), b3="K4 K4", b1="M1")  # 5 3 monte 1 4 2
    assert state.row == (5, 1, B("monte"), 3, 4, 2)
    assert state.scores() == (8, 0, 1)


def test_piggy_goes_to_the_emptiest_basket_or_the_least_total_held_once() -> None:
    # Piggy: "將此提籃卡下方所有糖果卡移置糖果加總數量最少的提籃卡下方。
    # 若不只1張提籃卡符合上述條件，則移置糖果加總數量次少且只有1張提籃卡符合的提籃卡下方"
    row = row_with("piggy")
    pig = "M4 M3 M2"
    tied = end(row, piggy=pig, b5="G1", b3="K4", b1="C2")  # 0 twice (4, 2), 1 once (5)
    assert tied.pile(5) == (K("G1"), K("M4"), K("M3"), K("M2"))
    assert tied.pile(B("piggy")) == ()
    single = end(row, piggy=pig, b5="G1", b3="K4", b1="C2", b4="G2")  # only basket 2 has 0
    assert single.pile(2) == (K("M4"), K("M3"), K("M2"))
    nothing = end(row, piggy=pig, b5="G1", b3="G1", b2="G1", b1="C2", b4="C2")  # 1, 2 tied
    assert nothing.pile(B("piggy")) == (K("M4"), K("M3"), K("M2"))


def test_lottery_goes_to_the_basket_with_as_many_cards() -> None:
    # Lottery: "移置與此提籃卡具有相同卡牌張數的提籃卡下方。若不只1張提籃卡符合上述條件，則移置其中
    # 糖果加總數量較少的提籃卡下方。若仍不只1張提籃卡符合上述條件，此卡牌將無任何效能"
    row = row_with("lottery")
    lot = "M1 M1 M1"
    fewer = end(row, lottery=lot, b5="K4 K4 K4", b1="C1 C1 C2", b2="G4")
    assert fewer.pile(1) == tuple(map(K, ["C1", "C1", "C2", "M1", "M1", "M1"]))
    tie = end(row, lottery=lot, b5="C1 C1 C2", b1="C1 C1 C2")
    assert tie.pile(B("lottery")) == tuple(map(K, lot.split()))
    none = end(row, lottery=lot, b5="C1 C1")  # TT-15: no basket with as many cards
    assert none.pile(B("lottery")) == tuple(map(K, lot.split()))


@pytest.mark.parametrize(
    ("candy", "expected"),
    [("M1", (2, 5, 3, "slide", 1, 4)), ("M2", (3, "slide", 1, 4, 2, 5))],
)
def test_electric_slide_moves_every_basket_right_on_odd_and_left_on_even(
    candy: str, expected: tuple[int | str, ...]
) -> None:
    # Electric Slide: "若為奇數，則所有提籃卡須右移1格位置。若為偶數，則所有提籃卡須左移1格位置"
    state = end(row_with("slide"), slide=candy, b1="K4")
    assert state.row == tuple(B(str(b)) for b in expected)
    assert state.piles == piles(row_with("slide"), slide=candy, b1="K4")  # the candy stays


def test_popular_gives_ten_to_baskets_of_its_parity() -> None:
    # Popular: "若為偶數，則加總後具有偶數糖果數量的提籃卡可額外獲得10分。
    # 若為奇數，則加總後具有奇數糖果數量的提籃卡可額外獲得10分"
    even = end(row_with("popular"), popular="M2", b1="M4", b2="C3")
    assert even.scores() == (14, 3, 10)  # basket 3 holds 0 candy: even
    odd = end(row_with("popular"), popular="M3", b1="M4", b2="C3")
    assert odd.scores() == (4, 13, 0)


def test_favorite_doubles_the_leading_candy_unless_three_kinds_lead() -> None:
    # Favorite: "具有最多數量的糖果種類...此種糖果每顆可獲得2分。若有2種糖果數量最多，則此2種的每顆
    # 糖果皆可獲得2分。若有3種糖果數量最多，此卡牌將無任何效能"
    one = end(row_with("favorite"), favorite="K3 M1 K1", b1="K4 M4", b2="C3 C4", b3="K1")
    assert one.scores() == (12, 7, 2)
    two = end(row_with("favorite"), favorite="K2 M2", b1="K4 M4", b2="C3 C4")
    assert two.scores() == (16, 7, 0)
    three = end(row_with("favorite"), favorite="K1 M1 C1", b1="K4 M4", b2="C3 C4")
    assert three.scores() == (8, 7, 0)


def test_bad_candy_scores_nothing_and_beats_favorite() -> None:
    # Bad Candy: "具有最多數量的糖果種類，各玩家在計算分數時，此種糖果每顆可獲得0分"
    bad = end(row_with("badcandy"), badcandy="C3", b1="K4 M4", b2="C3 C4", b3="C1 G2")
    assert bad.scores() == (8, 0, 2)
    # TT-14: both name chocolate; Bad Candy comes later in the table, so it decides.
    row = row_with("favorite", 2, "badcandy")
    both = end(row, favorite="C4", badcandy="C1", b1="C4 M1", b2="M2")
    assert both.scores() == (1, 2, 0)


def test_lice_eliminate_the_players_with_the_most_of_the_lousy_candy() -> None:
    # Lice: "擁有此種糖果最多數量的提籃卡玩家，將遭致淘汰。
    # 若有多位玩家的提籃卡符合上述條件，皆須遭致淘汰"
    state = end(row_with("lice"), lice="G3 K1", b1="G4", b2="G2 G2 K4", b3="G1")
    assert state.alive == (False, False, True)
    assert state.winners() == (2,)
    assert state.view(1).numbers == (1, 2, 3)


def test_lice_that_would_eliminate_everyone_eliminate_nobody() -> None:
    # TT-16: "皆須遭致淘汰" would leave no winner; [3] always has one, so nobody is eliminated.
    state = end(row_with("lice"), lice="G3", b1="G4", b2="G4", b3="G4")
    assert state.alive == (True, True, True)
    assert "nobody is eliminated" in state.effects[-1]


def test_lice_pass_over_eliminated_players_and_unowned_baskets() -> None:
    # TT-16: only a player still in the game can be eliminated; an unowned basket has nobody.
    row = row_with("lice")
    state = game(
        row,
        deck=(tnt.TIMES_UP,),
        piles=piles(row, lice="G3", b3="G4 G4", b4="G4 G4 G4", b1="G2", b2="G1"),
        alive=(True, True, False),
    ).apply("draw")
    assert state.alive == (False, True, False)
    assert state.winners() == (1,)


def test_two_specials_act_in_the_order_of_the_table() -> None:
    # TT-14: Bomb comes before Piggy in the table. Piggy first would send its cards to basket 3
    # (1 candy, the least) and the bomb would then destroy them; the bomb first empties baskets
    # 3 and 1 (a tie at 0), so the piggy's cards go to the least total held once: the bomb's 3.
    row = row_with("bomb", 2, "piggy")  # 5 3 bomb 1 4 2 piggy
    pig = "M4 M3 M2"
    state = end(row, piggy=pig, b3="K1", b1="C2", bomb="G3", b5="G4", b4="C4 C1", b2="G3 G3")
    assert state.pile(1) == state.pile(3) == ()
    assert state.pile(B("bomb")) == tuple(map(K, f"G3 {pig}".split()))
    assert [e.split(":")[0] for e in state.effects] == ["bomb", "piggy"]


def test_no_end_effects_when_the_last_survivor_wins() -> None:
    # TT-18: [3.(1)] ends the game with a winner and no scoring, so nothing is left to do.
    row = row_with("bomb")
    state = game(row, piles=piles(row, b3="K4"), alive=(True, True, False)).apply("accuse 1 2")
    assert state.is_over
    assert state.winners() == (0,)
    assert state.pile(3) == (K("K4"),)
    assert state.effects == ()


# -- notation, views, records, invariants ------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["play K4 bomb", "swap bomb 3", "swap 3 disco", "pull 1 magnet", "skip", "play G2 6"]
)
def test_special_notation_round_trips(text: str) -> None:
    action = tnt.parse_action(text)
    assert str(action) == text
    assert eval(repr(action), vars(tnt)) == action
    assert tnt.parse_action(text.upper()) == action


def test_views_show_the_specials_and_what_they_did() -> None:
    state = end(row_with("slide"), slide="M1")
    view = state.view(2)
    assert view.effects == state.effects
    assert view.row == state.row
    pending = game(row_with("bomb"), "M1").apply("play M1 bomb")
    assert pending.view(1).pending == B("bomb")


def test_records_of_the_variant_round_trip_and_old_records_still_load() -> None:
    state = tnt.new_game(3, seed=4, specials=["magnet", "disco"])
    rng = random.Random(4)
    while not state.is_over:
        legal = [a for a in state.legal_actions() if not isinstance(a, tnt.Accuse)]
        state = state.apply(legal[rng.randrange(len(legal))])
    data = json.loads(tnt.dumps(state))
    assert data["version"] == 2
    assert data["config"]["specials"] == ["magnet", "disco"]
    assert tnt.loads(tnt.dumps(state)) == state
    # A version 1 record, written by the engine before the variant existed (basic game).
    old = (Path(__file__).parent / "records" / "basic-v1.json").read_text()
    assert json.loads(old)["version"] == 1
    loaded = tnt.loads(old)
    assert loaded.config == tnt.Config(3, 7)
    assert loaded.alive == (False, True, True)
    assert loaded.current_player == 1
    assert loaded.pile(4) == tuple(map(K, ["K2", "G1", "K3", "G2", "M1"]))
    data = json.loads(old)
    data["version"] = 3
    with pytest.raises(tnt.RecordError, match="expected one of 1, 2"):
        tnt.loads(json.dumps(data))


@EXAMPLES
@given(
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
    st.sampled_from([0.0, 0.02, 0.3]),
    st.one_of(st.integers(1, 2), st.lists(st.sampled_from(tnt.SPECIALS), max_size=2, unique=True)),
)
def test_invariants_hold_with_special_baskets(
    players: int, seed: int, play: int, accuse: float, specials: int | list[str]
) -> None:
    rng = random.Random(play)
    state = tnt.new_game(players, seed, specials=specials)
    states = [state]
    while not state.is_over:
        legal = state.legal_actions()
        calm = [a for a in legal if not isinstance(a, tnt.Accuse)]
        pool = legal if not calm or rng.random() < accuse else calm
        state = state.apply(pool[rng.randrange(len(pool))])
        states.append(state)
    for s in states[:: max(1, len(states) // 12)] + states[-1:]:
        expected = [*tnt.CANDY_CARDS] + ([] if s.times_up else [tnt.TIMES_UP])
        assert all_cards(s) == Counter(expected)  # cards conserved, removed ones included
        assert sorted(s.row) == sorted(state.row)  # baskets only move
        assert len(s.piles) == len(s.row)
        for p in range(players):
            assert s.determinize(p, rng).view(p) == s.view(p)  # views leak nothing
    final = states[-1]
    assert any(final.alive)
    assert sum(final.returns()) == pytest.approx(1.0)
    assert tnt.loads(tnt.dumps(final)) == final


def test_a_magnet_pull_is_no_placing_for_bomb_monte_or_magnet() -> None:
    # TT-12: they act when "玩家將...糖果卡置於此提籃卡下方" (a player places a card from hand).
    row = (*row_with("magnet"), B("bomb"))
    state = game(row, "M1", piles=piles(row, b1="K2")).apply("play M1 magnet")
    after = state.apply("pull 1 bomb")
    assert after.step is tnt.Step.DRAW
    assert after.current_player == 1
    assert after.pile(B("bomb")) == (K("K2"),)


def test_disco_swaps_nothing_when_every_pile_is_alike() -> None:
    # TT-13: with the most and the fewest the same, there is nothing to exchange.
    row = row_with("disco")
    state = game(row, "K2", piles=piles(row, disco="K4 K4")).apply("play K2 disco")
    assert state.row == row
    assert state.current_player == 1


def test_lice_on_two_kinds_and_never_on_a_player_without_that_candy() -> None:
    # TT-16: each kind tied for the most has lice; a player with none of it is not "最多".
    two = end(row_with("lice"), lice="G2 K2", b1="G3", b2="K4", b3="M4")
    assert two.alive == (False, False, True)
    nobody = end(row_with("lice"), lice="C3", b1="G3", b2="K4", b3="M4")
    assert nobody.alive == (True, True, True)
    assert "nobody has lice" in nobody.effects[-1]


def test_special_baskets_take_places_all_along_the_row() -> None:
    # TT-10: "加入桌面上的提籃卡列中" gives no place: any place, drawn from the seed.
    places = {tnt.new_game(3, seed, specials=["lice"]).row.index(B("lice")) for seed in range(40)}
    assert places == set(range(6))


# -- the console explains them (issue 38) -------------------------------------------------------


def test_the_first_screens_say_what_each_special_basket_in_play_does() -> None:
    start = tnt.new_game(3, seed=3, specials=["bomb", "lice"])
    text = render(start.view(0))
    assert "  bomb basket: whoever plays a card under it may swap the bomb basket card" in text
    assert "  lice basket: at the end the candy kind most under it has lice" in text
    assert "disco" not in text  # not in play
    assert all(len(line) <= 80 for line in text.splitlines())
    later = start
    while len(later.history) < 2 * later.num_players:
        later = later.apply(later.legal_actions()[0])
    assert "  bomb: whoever" not in render(later.view(0))  # said once, at the start
    assert set(SPECIAL_RULES) == set(tnt.SPECIALS)
    assert set(CHOICES) == {"bomb", "monte", "magnet", "disco"}
    # help explains every special basket in words (it pointed at RULES.md only).
    flat = " ".join(HELP.split())
    for name, rule in SPECIAL_RULES.items():
        assert f"{tnt.basket_name(B(name))}: {rule}" in flat


def test_the_bomb_choice_says_the_candy_stays() -> None:
    row = row_with("bomb")
    state = game(row, hand="K2", piles=piles(row, b3="M1")).apply("play K2 bomb")
    assert state.step is tnt.Step.EFFECT
    mine = " ".join(render(state.view(0)).split())
    assert (
        "the basket cards change places, the candy under them stays where it lies (TT-17)" in mine
    )
    assert "waits for player 0's choice" in render(state.view(1))


def test_what_the_specials_did_is_told_once_not_on_every_screen() -> None:
    state = end(row_with("lice"), lice="G3 K1", b1="G4", b2="G2 G2 K4", b3="G1")
    assert state.effects
    assert "special basket:" not in render(state.view(0))
    before = game(row_with("lice"), deck=(tnt.TIMES_UP,), piles=state.piles)
    told = describe(before, tnt.Draw(), 0)
    assert "special basket: lice:" in told


def test_lice_say_which_candy_has_lice_and_why_a_player_is_out() -> None:
    # Issue 38: Lice knocked a player out at Time's Up with no explanation.
    state = end(row_with("lice"), lice="G3 K1", b1="G4", b2="G2 G2 K4", b3="G1")
    said = state.effects[-1]
    assert said.startswith("lice: gummy has lice (the most candy under the lice basket); ")
    assert "player 0 and player 1, whose baskets hold the most of it (4 gummy), are out" in said


def test_piggy_and_lottery_take_their_three_cards_in_the_order_the_specials_were_drawn() -> None:
    # TT-11: "遊戲開始時，從糖果卡牌堆上方抽取3張卡牌", after the hands; with both out, in
    # the order of config.specials (issue 38: RULES.md said Piggy first, the engine did this).
    state = tnt.new_game(3, 41, specials=2)
    assert state.config.specials == ("lottery", "piggy")
    basic = tnt.new_game(3, 41)  # the same deal without the variant
    assert state.hands == basic.hands
    assert state.pile(B("lottery")) == basic.deck[:3]
    assert state.pile(B("piggy")) == basic.deck[3:6]
    assert state.deck == basic.deck[6:]


def _effects_of_random_games(games: int) -> list[tnt.Effect]:
    """What the specials did in ``games`` random games, every pair of specials taking turns."""
    pairs = [(a, b) for a in tnt.SPECIALS for b in tnt.SPECIALS if a < b]
    effects: list[tnt.Effect] = []
    for seed in range(games):
        state = tnt.new_game(2 + seed % 3, seed, specials=list(pairs[seed % len(pairs)]))
        rng = random.Random(seed)
        while not state.is_over:
            legal = [a for a in state.legal_actions() if not isinstance(a, tnt.Accuse)]
            state = state.apply(legal[rng.randrange(len(legal))])
        effects.extend(state.effects)
    return effects


def test_every_effect_is_told_in_the_texts_chinese_and_as_before_in_english() -> None:
    # Issue 39: the special baskets' effects were English in a Chinese console.
    from tricks_and_treats._i18n import LANGUAGES, _

    from tricky_treats.i18n import speaking

    effects = _effects_of_random_games(220)
    assert len({e.message for e in effects}) >= 15  # most kinds of effect, not a few
    with speaking("zh_Hant", LANGUAGES):
        told = [e.told(_) for e in effects]
    for effect, chinese in zip(effects, told, strict=True):
        assert effect.told(str) == effect  # English: the text itself
        # Only the notation stays Latin: cards (K3) and the rulings' numbers (TT-16).
        assert set(re.findall(r"[A-Za-z]{2,}", chinese)) <= {"TT"}, (effect, chinese)
        assert "提籃" in chinese
    assert any("蝨子" in t for t in told)
    assert any("薄荷糖" in t or "軟糖" in t or "巧克力" in t or "玉米糖" in t for t in told)


def test_the_effects_read_as_before_in_english() -> None:
    state = end(row_with("bomb"), b5="M3", b3="G2")  # the bomb's neighbours: 3 and 1
    assert state.effects == ("bomb: the candy of basket 3 and basket 1 is gone",)
    assert isinstance(state.effects[0], str)
    assert state.effects[0].message == "bomb: the candy of {baskets} is gone"
