"""The equivalence digest: a SHA-256 over everything many random games show, step by step.

``tt.Simulator`` (its compact core, plain or compiled with mypyc) must play exactly as the
reference rules (``GameState.apply()``, ``tricky_treats.rules``). This module plays seeded
random games of every built-in variant and rule option, 2 to 4 players, plus configurations
the core does not cover (6 kids per player), and hashes at every step: the legal actions,
the view of every seat (as its player record, ``dumps(game, player=seat)``, holds it), the
score sheets and each seat's total, the events of the move (half of the moves), a refused
move's error and message, and every fifth move the game's record and its boards field by
field. ``digest(games)`` plays the games on a simulator (made of the first state for an even
seed, dealt by ``Simulator.new_game`` for an odd one) and reads its ``state()`` at each step;
``digest(games, reference=True)`` plays the same games by ``apply()`` alone, so equal digests
mean equal games. Boards are hashed field by field, with sets sorted: two equal sets
may print their members in different orders.

A helper module, not a test file: ``tests/test_core_equivalence.py`` compares the two
digests in one process, and ``python tests/core_equivalence.py --games N`` prints the digest
of the installed build (plain or compiled), for CI to compare builds.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Iterator
from typing import Any

import attrs

import tricky_treats as tt
from tricky_treats.errors import TrickyTreatsError

__all__ = ["CONFIGURATIONS", "canonical", "digest", "options_for", "play_and_hash"]

_SIX_KIDS = attrs.evolve(
    tt.base_components(), rules=attrs.evolve(tt.base_components().rules, kids_per_player=6)
)
_FOUR_KIDS_SMALL_MARKET = attrs.evolve(
    tt.base_components(),
    rules=attrs.evolve(tt.base_components().rules, kids_per_player=4, market_size=3),
)

CONFIGURATIONS: tuple[dict[str, Any], ...] = (
    {},
    {"variants": ["family"]},
    {"variants": ["open-objectives"]},
    {"variants": ["any-mean-house"]},
    {"variants": ["family", "open-objectives"]},
    {"any_mean_house": True},
    {"refresh_ends_turn": True},
    {"refresh_ends_turn": True, "any_mean_house": True, "variants": ["family"]},
    {"first_player": 1},
    {"components": _FOUR_KIDS_SMALL_MARKET},
    {"components": _SIX_KIDS},  # outside the core's limits: the rules play it
)
"""``new_game`` keyword arguments of the configurations played, in turn."""


def options_for(players: int, configuration: dict[str, Any]) -> dict[str, Any]:
    """``configuration`` for ``players``: its first player, if any, a seat of theirs."""
    options = dict(configuration)
    if options.get("first_player", 0) >= players:
        options["first_player"] = players - 1
    return options


def canonical(value: object) -> object:
    """``value`` as nested tuples of its public fields, sets sorted (their order is none)."""
    cls = type(value)
    if attrs.has(cls):
        return (
            cls.__name__,
            *(
                (field.name, canonical(getattr(value, field.name)))
                for field in attrs.fields(cls)
                if not field.name.startswith("_")
            ),
        )
    if isinstance(value, frozenset | set):
        return ("set", *sorted(map(canonical, value), key=repr))
    if isinstance(value, tuple | list):
        return tuple(map(canonical, value))
    if isinstance(value, dict):
        return ("dict", *sorted((repr(k), canonical(v)) for k, v in value.items()))
    return repr(value)


def play_and_hash(
    seed: int, configuration: dict[str, Any], players: int, sink: Any, *, reference: bool = False
) -> int:
    """Play one random game, feeding what it shows at each step to ``sink.update``.

    On a ``Simulator`` (its ``state()`` read at every step), or with ``reference`` by
    ``GameState.apply()`` alone. Returns the number of moves played.
    """
    rng = random.Random(seed)
    options = options_for(players, configuration)
    game = tt.new_game(players, seed=seed, **options)
    sim = None
    if not reference:  # started both ways: from the state, or dealt straight into the core
        if seed % 2:
            sim = tt.Simulator.new_game(players, seed=seed, **options)
        else:
            sim = tt.Simulator(game)
    space = game.action_space
    moves = 0

    def feed(*parts: object) -> None:
        for part in parts:
            sink.update(repr(canonical(part)).encode())
            sink.update(b"\x00")

    while True:
        if sim is not None:
            game = sim.state()
            legal = sim.legal_actions()
            assert legal == game.legal_actions()
            totals: tuple[object, ...] = (sim.scores(), sim.winners(), sim.is_over, sim.turn)
            assert sim.current_player == game.current_player
        else:
            legal = game.legal_actions()
            totals = (
                tuple(sheet.total for sheet in game.scores()),
                game.winners(),
                game.is_over,
                game.turn,
            )
        feed("legal", [str(action) for action in legal], "totals", totals)
        for seat in range(players):  # the view, as the seat's record holds it
            feed("view", seat, tt.dumps(game, player=seat))
        feed("scores", game.scores(), game.winners(), game.outcome())
        if moves % 5 == 0 or game.is_over:
            feed("record", tt.dumps(game), canonical(game.players))
        if game.is_over:
            return moves
        # A refused move: its error and message, and the state unchanged.
        code = rng.randrange(space.size)
        refused = space.decode(code)
        if refused not in legal:
            before = repr(game), game.players, game.market
            try:
                if sim is not None:
                    sim.play(code)
                else:
                    game.apply(refused)
            except TrickyTreatsError as error:
                feed("refused", type(error).__name__, str(error))
            else:
                raise AssertionError(f"{refused} was applied though not legal")
            if sim is not None:
                assert sim.state() == game
                game = sim.state()
            assert (repr(game), game.players, game.market) == before
            assert game.legal_actions() == legal
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.5:
            after, events = game.apply_with_events(action)
            feed("events", events)
        else:
            after = game.apply(action) if sim is None else game
        if sim is not None:
            sim.play(space.encode(action))
        else:
            game = after
        moves += 1


def _games(games: int) -> Iterator[tuple[int, dict[str, Any], int]]:
    for number in range(games):
        yield number, CONFIGURATIONS[number % len(CONFIGURATIONS)], 2 + number % 3


def digest(games: int, *, reference: bool = False) -> str:
    """The SHA-256 of ``games`` random games: on simulators, or by ``apply()`` (``reference``)."""
    sink = hashlib.sha256()
    for seed, configuration, players in _games(games):
        sink.update(f"game {seed} {players} {sorted(configuration)}".encode())
        play_and_hash(seed, configuration, players, sink, reference=reference)
    return sink.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games to play")
    parser.add_argument("--reference", action="store_true", help="play by the reference rules only")
    args = parser.parse_args(argv)
    import tricky_treats as tt

    print(f"core: {'compiled' if tt.__compiled__ else 'pure Python'}", file=sys.stderr)
    print(digest(args.games, reference=args.reference))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
