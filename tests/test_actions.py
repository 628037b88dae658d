"""Actions: values, text notation and the integer encoding."""

from __future__ import annotations

import pytest

import tricky_treats as tt

SPACE = tt.ActionSpace()


@pytest.mark.parametrize("action", SPACE.actions, ids=str)
def test_notation_round_trip(action: tt.Action) -> None:
    assert tt.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("t2k4", tt.TakeCard(slot=2, kid=4)),
        ("  T0K1 ", tt.TakeCard(0, 1)),
        ("v8", tt.VisitHouse(8)),
        ("m2", tt.TrickHouse(2)),
        ("refresh", tt.RefreshMarket()),
        ("PASS", tt.Pass()),
    ],
)
def test_parse(text: str, action: tt.Action) -> None:
    assert tt.parse_action(text) == action


@pytest.mark.parametrize("text", ["", "t2", "k4", "v", "visit 3", "t-1k2", "m1x", "v1.5", "draw"])
def test_malformed_notation(text: str) -> None:
    with pytest.raises(tt.InvalidActionError, match="is not an action"):
        tt.parse_action(text)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(tt.InvalidActionError, match="must be a string"):
        tt.parse_action(3)  # type: ignore[arg-type]


def test_constructor_style_repr() -> None:
    assert repr(tt.TakeCard(2, 4)) == "TakeCard(slot=2, kid=4)"
    assert repr(tt.VisitHouse(3)) == "VisitHouse(house=3)"
    assert repr(tt.TrickHouse(0)) == "TrickHouse(house=0)"
    assert repr(tt.Pass()) == "Pass()"
    assert eval(repr(tt.TakeCard(2, 4)), vars(tt)) == tt.TakeCard(2, 4)


def test_actions_are_frozen_and_hashable() -> None:
    action = tt.TakeCard(1, 2)
    assert {action: 1}[tt.TakeCard(1, 2)] == 1
    with pytest.raises(AttributeError):
        action.slot = 3  # type: ignore[misc]


@pytest.mark.parametrize("bad", [-1, True, 1.0, "1"])
def test_malformed_action_values(bad: object) -> None:
    with pytest.raises(tt.InvalidActionError, match="must be a whole number"):
        tt.VisitHouse(bad)  # type: ignore[arg-type]


def test_action_space_encoding_is_a_bijection_on_a_fixed_range() -> None:
    assert SPACE.size == 5 * 5 + 9 + 3 + 2
    assert [SPACE.encode(SPACE.decode(i)) for i in range(SPACE.size)] == list(range(SPACE.size))
    assert SPACE.encode(tt.TakeCard(0, 0)) == 0
    assert SPACE.encode(tt.VisitHouse(0)) == 25
    assert SPACE.encode(tt.TrickHouse(0)) == 34
    assert SPACE.encode(tt.RefreshMarket()) == 37
    assert SPACE.encode(tt.Pass()) == 38


@pytest.mark.parametrize("code", [-1, 39, True, "3"])
def test_decode_out_of_range(code: object) -> None:
    with pytest.raises(tt.InvalidActionError, match="from 0 to 38"):
        SPACE.decode(code)  # type: ignore[arg-type]


def test_encode_an_action_outside_the_space() -> None:
    with pytest.raises(tt.InvalidActionError, match="not an action of a game with 5 market slots"):
        SPACE.encode(tt.TakeCard(5, 0))


def test_game_action_space_matches_configuration() -> None:
    game = tt.new_game(players=2, seed=1)
    assert game.action_space == SPACE
    assert all(a in game.action_space.actions for a in game.legal_actions())


def test_legal_actions_are_in_canonical_order() -> None:
    game = tt.new_game(players=3, seed=3)
    for _ in range(30):
        codes = [game.action_space.encode(a) for a in game.legal_actions()]
        assert codes == sorted(codes)
        assert len(set(codes)) == len(codes)
        game = game.apply(game.legal_actions()[-1])
