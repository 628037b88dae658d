"""The engine-speed targets, each printed beside its target, every figure on fresh states.

Run with ``python benchmarks/bench_targets.py``; it prints figures and asserts nothing.
Times are CPU time of this process (``time.process_time``), the best of a few rounds, so
that other programs on a shared machine disturb them less; the first line times a plain
Python loop, to compare machines.

Every figure is taken as a client meets the engine, never by calling one function again and
again on one object (which would time the engine's memos, not its work): every ``new_game``
deals a seed never dealt before, and every other figure is taken on states replayed afresh
from their games' logs (nothing worked out on them yet), each called right after the move
that made it, as a server does. Two lines read a log after it was played instead: in the
compiled build its states were made by the core unread, and build their boards on the first
call (docs/performance.md, "The compact core").

- ``new_game``: at most 50 us, base game and every built-in variant.
- ``scores()`` and ``view(p)``: at most 10 us each, early and late in a game, on every state
  of a game as it is played. "Cold" is a fresh state whose predecessor was never scored or
  viewed.
- Keeping every state of many games: at most 1.5 times the time of not keeping them.
- ``dumps`` then verified ``loads`` of a finished 4-player game: at most 1 ms, a fresh final
  state each time.
- A player record: at most 100 us per seat per move, that is ``dumps(state, player=p)`` for
  every seat after every move of a game, as a server sends them, divided by seats and moves.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import tricky_treats as tt


def best(function: Callable[[], object], number: int, repeat: int = 5) -> float:
    """The best mean CPU time of one call to ``function``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            function()
        times.append((time.process_time() - start) / number)
    return min(times)


def line(label: str, seconds: float, target: float | None = None, unit: str = "us") -> None:
    scale = {"us": 1e6, "ms": 1e3}[unit]
    figure = f"{seconds * scale:9.2f} {unit}"
    if target is None:
        print(f"  {label:<52} {figure}")
        return
    verdict = "ok" if seconds <= target else "OVER"
    print(f"  {label:<52} {figure}   target {target * scale:g} {unit}   {verdict}")


def play(players: int, seed: int, **options: object) -> list[tt.GameState]:
    """Every state of a random game, first to last."""
    game = tt.new_game(players, seed=seed, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    states = [game]
    while not game.is_over:
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
        states.append(game)
    return states


def replay(states: Sequence[tt.GameState]) -> list[tt.GameState]:
    """Fresh copies of ``states`` (nothing worked out on them yet), by replaying the log."""
    first = states[0]
    game = tt.start_game(first.config, first.setup.components)
    fresh = [game]
    for action in states[-1].history:
        game = game.apply(action)
        fresh.append(game)
    return fresh


def per_state(
    games: Sequence[list[tt.GameState]],
    call: Callable[[tt.GameState], object],
    part: slice,
    *,
    cold: bool = False,
    listed: bool = False,
    read_later: bool = False,
) -> float:
    """Mean CPU time of ``call`` on the states ``part`` of each game, each state fresh.

    As a server does: each game is replayed from its start, and ``call`` runs on every state
    right after the move that made it (only the states of ``part`` are timed). With
    ``read_later`` the game is replayed first and its states are read afterwards, in order (a
    log browsed after it was played: in the compiled build those states were made by the
    core, unread, and build their boards on the first call); with ``cold`` each state comes
    from its own replay, so nothing was worked out on the states before it.
    """
    best_time = float("inf")
    for _ in range(3):
        total = 0.0
        count = 0
        for states in games:
            if not (cold or read_later):
                timed = set(range(len(states))[part])
                for number, state in enumerate(_replayed(states)):
                    if listed:
                        state.legal_actions()
                    start = time.process_time()
                    call(state)
                    if number in timed:
                        total += time.process_time() - start
                        count += 1
                continue
            fresh = replay(states)
            chosen = fresh[part]
            if cold:
                chosen = [replay(states)[fresh.index(s)] for s in chosen]
            if listed:  # as in play, where the legal actions were listed to check the move
                for state in chosen:
                    state.legal_actions()
            start = time.process_time()
            for state in chosen:
                call(state)
            total += time.process_time() - start
            count += len(chosen)
        best_time = min(best_time, total / count)
    return best_time


def _replayed(states: Sequence[tt.GameState]) -> Iterator[tt.GameState]:
    """The states of ``states``' game made afresh one by one, each after the previous is used."""
    first = states[0]
    game = tt.start_game(first.config, first.setup.components)
    yield game
    for action in states[-1].history:
        game = game.apply(action)
        yield game


def keeping_ratio(games: int, players: int, *, freeze: bool = False) -> tuple[float, int, float]:
    """CPU time of playing ``games`` keeping every state, over the time not keeping them.

    Also returns the garbage collector's CPU time per kept state, in seconds.
    """
    collecting = [0.0, 0.0]  # since when, and how long in all

    def timer(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = time.process_time()
        else:
            collecting[1] += time.process_time() - collecting[0]

    def run(keep: bool) -> tuple[float, int]:
        kept: list[list[tt.GameState]] = []
        gc.collect()
        collecting[1] = 0.0
        start = time.process_time()
        for seed in range(games):
            states = play(players, seed)
            if keep:
                kept.append(states)
                if freeze:
                    gc.freeze()
        elapsed = time.process_time() - start
        count = sum(map(len, kept))
        del kept
        if freeze:
            gc.unfreeze()
        gc.collect()
        return elapsed, count

    ratios = []
    per_state = []
    count = 0
    gc.callbacks.append(timer)
    try:
        for _ in range(3):
            plain, _ = run(False)
            keeping, count = run(True)
            ratios.append(keeping / plain)
            per_state.append(collecting[1] / count)
    finally:
        gc.callbacks.remove(timer)
    return min(ratios), count, min(per_state)


BASE_TOML = Path(tt.__file__).parent / "data" / "base.toml"

VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    ("family", {}),
    ("family + open-objectives", {}),
    ("open-objectives", {}),
    ("any-mean-house", {}),
    ("card-data", {"card-data": {"file": str(BASE_TOML)}}),
)
"""Every built-in variant, and the combination the performance page has always shown."""


def new_games(players: int, seeds: Iterator[int], **options: object) -> float:
    """The best mean CPU time of ``new_game``, every call dealing a seed never dealt before.

    Many short rounds: on a shared machine, some of them meet no other program's work.
    """

    def deal() -> tt.GameState:
        return tt.new_game(players, seed=next(seeds), **options)  # type: ignore[arg-type]

    return best(deal, 250, repeat=20)


def per_final_state(
    games: Sequence[list[tt.GameState]], call: Callable[[tt.GameState], object]
) -> float:
    """Mean CPU time of ``call`` on the final state of each game, replayed afresh each round."""
    best_time = float("inf")
    for _ in range(3):
        finals = [replay(states)[-1] for states in games]
        start = time.process_time()
        for final in finals:
            call(final)
        best_time = min(best_time, (time.process_time() - start) / len(finals))
    return best_time


def per_record_text(games: Sequence[list[tt.GameState]]) -> float:
    """Mean CPU time of a verified ``loads`` of each game's record, each text written afresh."""
    best_time = float("inf")
    for _ in range(3):
        texts = [tt.dumps(replay(states)[-1]) for states in games]
        start = time.process_time()
        for text in texts:
            tt.loads(text)
        best_time = min(best_time, (time.process_time() - start) / len(texts))
    return best_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games for the keeping ratio")
    args = parser.parse_args()

    print(f"tricky-treats {tt.__version__}")
    line("calibration: a 1000-step Python loop", best(lambda: sum(range(1000)), 2000))

    print("new_game, every call a seed never dealt before:")
    seeds = iter(range(10**9))
    line("4 players, base game", new_games(4, seeds), 50e-6)
    for label, options in VARIANTS:
        line(
            f"4 players, {label}",
            new_games(4, seeds, variants=label.split(" + "), variant_options=options or None),
            50e-6,
        )
    line("3 players, base game", new_games(3, seeds), 50e-6)
    line("2 players, base game", new_games(2, seeds), 50e-6)

    games = [play(4, seed) for seed in range(10)]
    family = [play(4, seed, variants=["family"]) for seed in range(10)]
    early, late = slice(1, 11), slice(-11, -1)
    print("scores() and view(p), 4 players, every state as the game is played, each fresh:")
    for label, part in (("early (states 1-10)", early), ("late (last 10)", late)):
        line(f"scores(), {label}", per_state(games, lambda s: s.scores(), part), 10e-6)
        line(
            f"view(current player), {label}",
            per_state(games, lambda s: s.view(s.current_player or 0), part),
            10e-6,
        )
        line(
            f"view(p), all 4 seats, per view, {label}",
            per_state(games, lambda s: [s.view(p) for p in range(4)], part) / 4,
            10e-6,
        )
    line(
        "view(current player), late, legal actions listed",
        per_state(games, lambda s: s.view(s.current_player or 0), late, listed=True),
        10e-6,
    )
    line("scores(), family variant, late", per_state(family, lambda s: s.scores(), late), 10e-6)
    line(
        "view(current player), family variant, late",
        per_state(family, lambda s: s.view(s.current_player or 0), late),
        10e-6,
    )
    line(
        "scores(), late, a log read after it was played",
        per_state(games, lambda s: s.scores(), late, read_later=True),
    )
    line(
        "view(p), all 4 seats, per view, late, a log read after it was played",
        per_state(games, lambda s: [s.view(p) for p in range(4)], late, read_later=True) / 4,
    )
    line("scores(), cold state, late", per_state(games, lambda s: s.scores(), late, cold=True))
    line(
        "view(current player), cold state, late",
        per_state(games, lambda s: s.view(s.current_player or 0), late, cold=True),
    )

    print(f"keeping every state of {args.games} random 4-player games:")
    ratio, count, collector = keeping_ratio(args.games, 4)
    verdict = "ok" if ratio <= 1.5 else "OVER"
    print(
        f"  {'time keeping / time not keeping':<52} {ratio:9.2f} x    target 1.5 x   "
        f"{verdict}   ({count:,} states)"
    )
    line("garbage collector time per kept state", collector)
    ratio, _, _ = keeping_ratio(args.games, 4, freeze=True)
    print(f"  {'the same, calling gc.freeze() after each game':<52} {ratio:9.2f} x")

    moves = sum(len(states) - 1 for states in games) / len(games)
    print(f"records of finished 4-player games ({moves:.0f} actions on average), each fresh:")
    line(
        "dumps(game) then verified loads(text)",
        per_final_state(games, lambda s: tt.loads(tt.dumps(s))),
        1e-3,
        "ms",
    )
    line("dumps(game) alone", per_final_state(games, tt.dumps), unit="ms")
    line("loads(text) alone (verified)", per_record_text(games), unit="ms")
    line(
        "dumps(game, player=0) of a final state",
        per_final_state(games, lambda s: tt.dumps(s, player=0)),
        unit="ms",
    )
    print("player records, 4 players, every seat after every move, each state fresh:")
    line(
        "dumps(state, player=p), per seat per move",
        per_state(games, lambda s: [tt.dumps(s, player=p) for p in range(4)], slice(None)) / 4,
        100e-6,
    )
    line(
        "view(p) alone, per seat per move",
        per_state(games, lambda s: [s.view(p) for p in range(4)], slice(None)) / 4,
    )


if __name__ == "__main__":
    main()
