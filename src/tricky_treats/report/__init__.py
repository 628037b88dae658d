"""Balance reports: who wins, by how much, how long games last and how they end.

Needs the ``report`` extra (``pip install 'tricky-treats[report]'``) for matplotlib, which
draws the plots; ``import tricky_treats`` never imports this package, and this package
imports matplotlib only to draw.

A report compares one or more *samples*: games of one configuration (player count, bots,
variants), either played here (``play_results``) or read from a file that
``tricky-treats simulate --output`` wrote (``read_results``). The first sample is the
baseline that the others are compared against::

    from tricky_treats.report import Sample, play_results, write_report

    bots = ("greedy", "greedy", "greedy")
    base = Sample("Base game", play_results(bots, games=200, seed=0))
    family = Sample("Family", play_results(bots, variants=["family"], games=200, seed=0))
    write_report([base, family], "report.html")

The same games give the same report, byte for byte. Games are
``tricky_treats.simulation.GameResult`` values (also exported here as ``GameResult``, with
``SeatResult``), whether played or read.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tricky_treats.errors import TrickyTreatsError
from tricky_treats.model import Termination
from tricky_treats.report.stats import (
    ChiSquareTest,
    Interval,
    chi_square_uniform,
    mean_interval,
    newcombe_interval,
    welch_interval,
    wilson_interval,
)
from tricky_treats.simulation import _POINT_CATEGORIES, GameResult, SeatResult

__all__ = [
    "CATEGORIES",
    "Comparison",
    "GameResult",
    "ReportError",
    "Sample",
    "SeatResult",
    "Summary",
    "compare",
    "play_results",
    "read_results",
    "render_report",
    "summarize",
    "write_report",
]

CATEGORIES = _POINT_CATEGORIES
"""The score categories of a simulate record, ``total`` first."""

CATEGORY_TITLES = {
    "total": "total",
    "pumpkins": "pumpkins",
    "costumes": "costumes",
    "tiles": "trick tiles",
    "extras": "variant extras",
}


class ReportError(TrickyTreatsError, ValueError):
    """Games cannot be read or reported as asked; the message names the file and the fix."""


def _as_tuple(results: Iterable[GameResult]) -> tuple[GameResult, ...]:
    return tuple(results)


@attrs.frozen
class Sample:
    """Games of one configuration under a label; ``description`` says where they come from."""

    label: str
    results: tuple[GameResult, ...] = attrs.field(converter=_as_tuple)
    description: str = ""

    def __attrs_post_init__(self) -> None:
        if not self.results:
            raise ReportError(f"sample {self.label!r} has no games; play or read at least one")
        counts = {len(r.seats) for r in self.results}
        if len(counts) > 1:
            raise ReportError(
                f"sample {self.label!r} mixes games of {sorted(counts)} players; "
                "put each player count in a sample of its own"
            )

    @property
    def players(self) -> int:
        """The number of seats in every game of the sample."""
        return len(self.results[0].seats)


# -- reading and playing -------------------------------------------------------------------------


def read_results(path: str | Path) -> tuple[GameResult, ...]:
    """The games in a ``.jsonl`` or ``.csv`` file written by ``tricky-treats simulate --output``.

    Raises ``ReportError`` naming the file and line of anything it cannot read.
    """
    path = Path(path)
    if path.suffix not in (".jsonl", ".csv"):
        raise ReportError(f"{path}: expected a .jsonl or .csv file from 'simulate --output'")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path} is not a text file") from None
    results = _read_jsonl(path, text) if path.suffix == ".jsonl" else _read_csv(path, text)
    if not results:
        raise ReportError(f"{path} holds no games; write it with 'simulate --output {path.name}'")
    return tuple(results)


_SEAT_FIELDS = ("total", "pumpkins", "costumes", "tiles", "extras", "win")


def _number(value: Any, where: str, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ReportError(f"{where}: {field} must be a number, got {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise ReportError(f"{where}: {field} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise ReportError(f"{where}: {field} must be a finite number, got {value!r}")
    return number


def _whole(value: Any, where: str, field: str) -> int:
    number = _number(value, where, field)
    if number != int(number):
        raise ReportError(f"{where}: {field} must be a whole number, got {value!r}")
    return int(number)


def _seat(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A seat's checked fields; ``agent_index`` only where the file holds it (CSV does not)."""
    missing = [f for f in ("agent", *_SEAT_FIELDS) if f not in raw]
    if missing:
        raise ReportError(f"{where}: a seat lacks {', '.join(missing)}")
    win = _number(raw["win"], where, "win")
    if not 0 <= win <= 1:
        raise ReportError(f"{where}: win must be a share from 0 to 1, got {raw['win']!r}")
    fields = {c: _whole(raw[c], where, c) for c in CATEGORIES}
    if raw.get("agent_index") is not None:
        fields["agent_index"] = _whole(raw["agent_index"], where, "agent_index")
    return fields | {"agent": str(raw["agent"]), "win": win}


def _game(raw: Mapping[str, Any], seats: list[dict[str, Any]], where: str) -> GameResult:
    missing = [f for f in ("game", "seed", "actions", "termination") if f not in raw]
    if missing:
        raise ReportError(f"{where}: a game lacks {', '.join(missing)}")
    if not 2 <= len(seats) <= 8:
        raise ReportError(f"{where}: a game needs 2 or more seats, got {len(seats)}")
    shares = math.fsum(s["win"] for s in seats)
    if abs(shares - 1) > 1e-6:
        raise ReportError(f"{where}: the seats' win shares add up to {shares:g}, not 1")
    game = _whole(raw["game"], where, "game")
    for position, seat in enumerate(seats):
        # simulate rotates the agents by the game's index: seat s of game g is agent g + s.
        index = seat.setdefault("agent_index", (game + position) % len(seats))
        if not 0 <= index < len(seats):
            raise ReportError(
                f"{where}: agent_index must name one of the game's {len(seats)} agents "
                f"(0 to {len(seats) - 1}), got {index}"
            )
    termination = raw["termination"]
    return GameResult(
        game=game,
        seed=_whole(raw["seed"], where, "seed"),
        actions=_whole(raw["actions"], where, "actions"),
        termination=None if termination in (None, "", "none") else str(termination),
        seats=tuple(SeatResult(**seat) for seat in seats),
    )


def _read_jsonl(path: Path, text: str) -> list[GameResult]:
    results = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReportError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(raw, dict) or not isinstance(raw.get("seats"), list):
            raise ReportError(f"{where}: expected a game object with a list of seats")
        seats = []
        for seat in raw["seats"]:
            if not isinstance(seat, dict):
                raise ReportError(f"{where}: each seat must be an object, got {seat!r}")
            seats.append(_seat(seat, where))
        results.append(_game(raw, seats, where))
    return results


def _read_csv(path: Path, text: str) -> list[GameResult]:
    rows = csv.DictReader(text.splitlines())
    needed = {"game", "seed", "actions", "termination", "seat", "agent", *_SEAT_FIELDS}
    missing = sorted(needed - set(rows.fieldnames or ()))
    if missing:
        raise ReportError(f"{path}: the header lacks the columns {', '.join(missing)}")
    games: dict[str, tuple[dict[str, Any], list[dict[str, Any]], str]] = {}
    for number, row in enumerate(rows, start=2):
        where = f"{path}, line {number}"
        key = row["game"]
        first, seats, _ = games.setdefault(key, (row, [], where))
        if any(row[f] != first[f] for f in ("seed", "actions", "termination")):
            raise ReportError(f"{where}: game {key} has rows that disagree on its seed or end")
        if _whole(row["seat"], where, "seat") != len(seats):
            raise ReportError(f"{where}: the rows of game {key} must list seats 0, 1, ... in order")
        seats.append(_seat(row, where))
    return [_game(row, seats, where) for row, seats, where in games.values()]


def play_results(
    agents: Sequence[str],
    *,
    variants: Sequence[str] = (),
    games: int = 200,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[], None] | None = None,
) -> tuple[GameResult, ...]:
    """Play ``games`` games between ``agents`` (one per seat) as ``tricky-treats simulate`` does.

    Game ``i`` is dealt from seed ``seed + i`` and the bots rotate seats from game to game, so
    the results equal those of ``simulate --seed SEED --games GAMES --output`` and do not
    depend on ``jobs``, the number of processes. ``on_game()`` is called as each game ends,
    e.g. to show progress.
    """
    from tricky_treats.agents import make_agent
    from tricky_treats.dealing import new_game

    if games < 1:
        raise ReportError(f"play at least one game, got games={games}")
    if jobs < 1:
        raise ReportError(f"jobs must be at least 1, got {jobs}")
    for spec in agents:
        make_agent(spec)  # a clear error for an unknown bot before any game starts
    new_game(players=len(agents), seed=seed, variants=variants)  # and for a bad setup
    return _simulate(list(agents), list(variants), games, seed, jobs, on_game)


def _simulate(
    agents: list[str],
    variants: list[str],
    games: int,
    seed: int,
    jobs: int,
    on_game: Callable[[], None] | None = None,
) -> tuple[GameResult, ...]:
    """The one place that plays games: ``simulation.simulate``, so both give the same games."""
    from tricky_treats.simulation import simulate

    played = simulate(
        games,
        agents,
        seed=seed,
        variants=variants,
        backend="pool" if jobs > 1 else "inline",
        jobs=jobs,
    )
    results = []
    # Closed however the loop ends (Ctrl-C, an error in on_game): the pool's workers are
    # ended now, as simulate's are, not whenever the generator is collected.
    try:
        for result in played:
            results.append(result)
            if on_game is not None:
                on_game()
    finally:
        close = getattr(played, "close", None)
        if close is not None:
            close()
    return tuple(results)


# -- summaries -----------------------------------------------------------------------------------


@attrs.frozen
class Summary:
    """The numbers a report shows for one sample."""

    sample: Sample
    games: int
    seat_wins: tuple[Interval, ...]
    """Each seat's win rate (seat 0 plays first), with Wilson intervals."""
    seat_test: ChiSquareTest
    """Whether the seats win equally often."""
    agent_wins: tuple[tuple[str, int, Interval], ...]
    """Each bot's seat-games and win rate, when the sample has more than one kind of bot."""
    points: Mapping[str, Interval]
    """Mean points per player and game by category, with t intervals over games."""
    spread: Mapping[str, tuple[float, float, float, float, float]]
    """Minimum, lower quartile, median, upper quartile and maximum of a player's points."""
    length: Interval
    """Mean number of actions per game, with a t interval."""
    length_spread: tuple[float, float, float, float, float]
    terminations: tuple[tuple[str, int, Interval], ...]
    """How games ended: reason, games and share with a Wilson interval."""

    @property
    def fair_share(self) -> float:
        """The win rate of every seat in a perfectly balanced game."""
        return 1 / self.sample.players


def _five_numbers(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    ordered = sorted(values)

    def quantile(q: float) -> float:
        # Linear interpolation between order statistics (numpy's and R's default).
        position = q * (len(ordered) - 1)
        below = math.floor(position)
        above = min(below + 1, len(ordered) - 1)
        return ordered[below] + (ordered[above] - ordered[below]) * (position - below)

    return (ordered[0], quantile(0.25), quantile(0.5), quantile(0.75), ordered[-1])


def _ending(result: GameResult) -> str:
    """How ``result``'s end was triggered: a ``Termination`` value, or ``"none"``."""
    return result.termination or "none"


def _reasons(results: Iterable[GameResult]) -> list[str]:
    seen = {_ending(r) for r in results}
    known = [t.value for t in Termination if t.value in seen]
    return known + sorted(seen - set(known))


def summarize(sample: Sample) -> Summary:
    """The numbers of a report for ``sample``."""
    results = sample.results
    n = len(results)
    wins = [math.fsum(r.seats[s].win for r in results) for s in range(sample.players)]
    by_agent: dict[str, list[float]] = {}
    for result in results:
        for seat in result.seats:
            by_agent.setdefault(seat.agent, []).append(seat.win)
    agent_wins = (
        tuple(
            (agent, len(shares), wilson_interval(math.fsum(shares), len(shares)))
            for agent, shares in sorted(by_agent.items())
        )
        if len(by_agent) > 1
        else ()
    )
    # The game is the unit: a player's points within one game are not independent of the
    # others', so intervals use each game's mean over its players.
    points = {c: mean_interval([_game_mean(r, c) for r in results]) for c in CATEGORIES}
    spread = {
        c: _five_numbers([float(seat.points(c)) for r in results for seat in r.seats])
        for c in CATEGORIES
    }
    lengths = [float(r.actions) for r in results]
    counts = dict.fromkeys(_reasons(results), 0)
    for result in results:
        counts[_ending(result)] += 1
    return Summary(
        sample=sample,
        games=n,
        seat_wins=tuple(wilson_interval(w, n) for w in wins),
        seat_test=chi_square_uniform(wins),
        agent_wins=agent_wins,
        points=points,
        spread=spread,
        length=mean_interval(lengths),
        length_spread=_five_numbers(lengths),
        terminations=tuple((r, c, wilson_interval(c, n)) for r, c in counts.items()),
    )


def _game_mean(result: GameResult, category: str) -> float:
    return math.fsum(seat.points(category) for seat in result.seats) / len(result.seats)


@attrs.frozen
class Comparison:
    """How ``other`` differs from ``baseline``: each difference is other minus baseline."""

    baseline: Summary
    other: Summary
    seat_wins: tuple[Interval, ...]
    """Differences of each seat's win rate (Newcombe); empty if the player counts differ."""
    points: Mapping[str, Interval]
    """Differences of the mean points per player by category (Welch)."""
    length: Interval
    """Difference of the mean game length in actions (Welch)."""
    terminations: tuple[tuple[str, Interval], ...]
    """Differences of the share of games that end each way (Newcombe)."""


def compare(baseline: Summary, other: Summary) -> Comparison:
    """The differences between two samples' numbers, with their intervals."""
    a, b = other.sample.results, baseline.sample.results
    seat_wins: tuple[Interval, ...] = ()
    if baseline.sample.players == other.sample.players:
        seat_wins = tuple(
            newcombe_interval(
                mine.estimate * other.games, other.games, theirs.estimate * baseline.games,
                baseline.games,
            )
            for mine, theirs in zip(other.seat_wins, baseline.seat_wins, strict=True)
        )  # fmt: skip
    points = {
        c: welch_interval([_game_mean(r, c) for r in a], [_game_mean(r, c) for r in b])
        for c in CATEGORIES
    }
    length = welch_interval([float(r.actions) for r in a], [float(r.actions) for r in b])
    mine = {reason: count for reason, count, _ in other.terminations}
    theirs = {reason: count for reason, count, _ in baseline.terminations}
    reasons = _reasons([*a, *b])
    terminations = tuple(
        (
            reason,
            newcombe_interval(
                mine.get(reason, 0), other.games, theirs.get(reason, 0), baseline.games
            ),
        )
        for reason in reasons
    )
    return Comparison(baseline, other, seat_wins, points, length, terminations)


# -- the report ----------------------------------------------------------------------------------


def render_report(samples: Sequence[Sample], title: str = "Tricky Treats balance report") -> str:
    """The report on ``samples`` as one self-contained HTML page (plots embedded as SVG).

    Raises ``ReportError`` if matplotlib (the ``report`` extra) is missing.
    """
    if not samples:
        raise ReportError("a report needs at least one sample of games")
    labels = [s.label for s in samples]
    if len(set(labels)) != len(labels):
        raise ReportError(f"give every sample its own label, got {labels}")
    from tricky_treats.report._html import render

    summaries = [summarize(s) for s in samples]
    comparisons = [compare(summaries[0], s) for s in summaries[1:]]
    return render(title, summaries, comparisons)


def write_report(
    samples: Sequence[Sample], path: str | Path, title: str = "Tricky Treats balance report"
) -> Path:
    """Write ``render_report(samples, title)`` to ``path`` and return the path."""
    path = Path(path)
    if not path.parent.is_dir():  # say so before the plots take their time
        raise ReportError(f"cannot write {path}: there is no folder {path.parent}")
    html = render_report(samples, title)
    try:
        path.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
