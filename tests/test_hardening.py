"""Hostile arguments get the library's own errors, quickly, with short messages (issues 10, 16)."""

from __future__ import annotations

from typing import Any

import pytest

import tricky_treats as tt


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("t" + "0" * 5000 + "k1", r"is not an action"),
        ("t٣k٢", r"ASCII digits"),
        ("v²", r"is not an action"),
        ("v1000", r"is not an action"),
        ("x" * 10**6, r"\(1000002 characters\)"),
    ],
)
def test_action_notation_is_short_ascii(text: str, problem: str) -> None:
    with pytest.raises(tt.InvalidActionError, match=problem) as caught:
        tt.parse_action(text)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"players": 10**7}, r"at most 8 players .* got 10000000"),
        ({"players": 10**5000}, r"at most 8 players"),
        ({"players": ["x"] * 100}, r"at most 8 players .* got 100"),
        ({"players": ["a" * 10**6, "b"]}, r"at most 64 printable characters"),
        ({"players": ["Ann", "B\x1bo"]}, r"printable"),
        ({"players": 3, "variants": [5]}, r"variants are given by name .* got 5"),
        ({"players": 3, "variants": 5}, r"variants must be a list of variant names"),
        ({"players": 3, "variants": ["family"] * 100}, r"at most 16 variants"),
        ({"players": 3, "variant_options": "x"}, r"variant_options must map variant names"),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": None}},
            r"variant_options must map variant names",
        ),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": {"x": 1e999}}},
            r"is inf, which JSON cannot hold",
        ),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": {"x": {1: 2}}}},
            r"keys are strings",
        ),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": {"x": object()}}},
            r"is a object, not a JSON value",
        ),
        ({"players": 3, "seed": 2**200}, r"seed must be a whole number from 0 to 2\*\*128 - 1"),
        ({"players": 3, "seed": -1}, r"seed must be a whole number"),
        ({"players": 3, "seed": "42"}, r"seed must be a whole number"),
    ],
)
def test_new_game_refuses_hostile_arguments(arguments: dict[str, Any], problem: str) -> None:
    with pytest.raises(tt.ConfigurationError, match=problem) as caught:
        tt.new_game(**arguments)
    assert len(str(caught.value)) < 400


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def test_deeply_nested_variant_options_are_refused_before_they_can_break_saving() -> None:
    with pytest.raises(tt.ConfigurationError, match=r"nested deeper than"):
        tt.new_game(players=3, variants=["family"], variant_options={"family": _nested(5000)})
    game = tt.new_game(players=3, variants=["family"], variant_options={"family": _nested(6)})
    assert tt.loads(tt.dumps(game)) == game
