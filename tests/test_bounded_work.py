"""Work bounded by the input in the command line and helpers (issue 27, item 18).

Each absurd request is refused early and clearly, or done lazily: a huge player count, a file
that never ends, a billion games, the last seed, a thousand processes, an hour-long search,
an enormous indent, an event naming a seat no game has.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import resource
import subprocess
import sys
import textwrap
from collections.abc import Generator
from pathlib import Path
from typing import cast

import pytest

import tricky_treats as tt
from tricky_treats import agents, cli, simulation
from tricky_treats.cli import main
from tricky_treats.event_records import event_from_json, event_schema, event_to_json

jsonschema = pytest.importorskip("jsonschema", reason="pip install -e '.[dev]'")


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the command, expect a usage error (exit status 2), return what it printed."""
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse refuses its own arguments this way
        status = exit.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert status == 2, out + err
    assert "Traceback" not in out + err
    return " ".join(err.split())


def _no_bots(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every bot the command builds (a huge table once built ten million)."""
    built: list[str] = []
    original = agents.make_agent

    def counting(spec: str) -> tt.Agent:
        built.append(spec)
        return original(spec)

    monkeypatch.setattr(cli, "make_agent", counting)
    return built


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "10000000"], "argument --players: expected 2 to 8, got 10,000,000"),
        (["--players", "9"], "argument --players: expected 2 to 8, got 9"),
        (["--players", "9" * 5000], "argument --players: expected 2 to 8, got a number of 5,000"),
        (["--players", "four"], "argument --players: expected a whole number from 2 to 8"),
        (["--seats", ",".join(["greedy"] * 9)], "--seats names more than 8 seats"),
        (["--names", ",".join("ABCDEFGHI")], "--names names more than 8 players"),
        (["--seed", str(2**128)], "argument --seed: expected 0 to"),
        (["--seed", "-1"], "argument --seed: expected 0 to"),
    ],
)
def test_play_refuses_an_absurd_table_before_building_it(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    built = _no_bots(monkeypatch)
    assert message in _refused(capsys, "play", *argv)
    assert built == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--jobs", "100000"], f"argument --jobs: expected 1 to {simulation.max_jobs()}"),
        (["--jobs", "0"], "argument --jobs: expected 1 to"),
        (["--players", "100"], "argument --players: expected 2 to 8"),
        (["--seed", str(2**128)], "argument --seed: expected 0 to"),
    ],
)
def test_simulate_refuses_absurd_arguments(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in _refused(capsys, "simulate", "--games", "1", "--quiet", *argv)


def test_simulate_refuses_more_jobs_than_a_few_per_core() -> None:
    with pytest.raises(tt.ConfigurationError, match=r"jobs must be at most \d+ here"):
        list(simulation.simulate(1, ["random"] * 2, seed=1, jobs=simulation.max_jobs() + 1))


def test_the_seeds_of_a_run_wrap_round_instead_of_leaving_the_range() -> None:
    last = 2**128 - 1
    results = simulation.simulate(3, ["random", "greedy"], seed=last, backend="inline")
    assert [r.seed for r in results] == [last, 0, 1]
    assert simulation.game_seed(last, 2) == 1


def test_simulate_prints_the_seeds_of_a_wrapped_run(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "--games", "3", "--seed", str(2**128 - 1), "--jobs", "1", "--quiet"])
    out = " ".join(capsys.readouterr().out.split())
    assert status == 0
    assert f"seeds {2**128 - 1} to 1" in out


def _limited(code: str, megabytes: int) -> subprocess.CompletedProcess[str]:
    """Run Python ``code`` in a child whose address space is capped at ``megabytes``."""

    def cap() -> None:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap,
        check=False,
    )


def test_a_billion_games_in_batches_of_one_start_at_once() -> None:
    """Batches are made as workers need them: the run starts in a capped address space."""
    result = _limited(
        """
        import itertools
        from tricky_treats.simulation import simulate
        games = simulate(10**9, ["random", "random"], seed=1, jobs=2, batch_size=1)
        print([r.game for r in itertools.islice(games, 4)])
        games.close()
        """,
        megabytes=1024,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[0, 1, 2, 3]"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [["replay", "/dev/zero"], ["play", "--load", "/dev/zero"]])
def test_a_file_that_never_ends_is_refused_without_reading_it_all(command: list[str]) -> None:
    result = _limited(
        f"""
        import sys
        from tricky_treats.cli import main
        sys.exit(main({command!r}))
        """,
        megabytes=1024,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert "larger than a record may be" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr


def test_a_large_file_is_refused_by_size(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (tt.MAX_RECORD_BYTES + 1))
    assert "larger than a record may be" in _refused(capsys, "replay", str(big))


def test_an_hour_long_search_is_refused() -> None:
    with pytest.raises(tt.ConfigurationError, match=r"from 1 to 5,000"):
        agents.make_agent("search:1000000")
    assert agents.make_agent(f"search:{agents.MAX_SEARCH_ITERATIONS}").iterations == 5_000  # type: ignore[attr-defined]


@pytest.mark.parametrize("indent", [9, 10_000, -1, "\t", 2.0])
def test_dumps_refuses_an_absurd_indent(indent: object) -> None:
    game = tt.new_game(2, seed=1)
    for player in (None, 0):
        with pytest.raises(tt.ConfigurationError, match=r"indent must be None or 0 to 8"):
            tt.dumps(game, player, indent=indent)  # type: ignore[arg-type]
    assert tt.loads(tt.dumps(game, indent=8)) == game


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"type": "passed", "player": 10**4000}, r"\$\.player: expected 0 to 7"),
        ({"type": "passed", "player": 8}, r"\$\.player: expected 0 to 7"),
        ({"type": "game-over", "winners": [0, 8]}, r"\$\.winners"),
        ({"type": "game-over", "winners": [0] * 9}, r"\$\.winners"),
        (
            {"type": "pumpkin-taken", "player": 0, "house": 9, "mean": False},
            r"\$\.house: expected 0 to 8",
        ),
        ('{"type": "passed", "player": 1' + "0" * 5000 + "}", r"a number too long"),
        ('{"type": "passed", "player": 1}' + " " * 70_000, r"more than the limit"),
    ],
)
def test_event_from_json_refuses_numbers_no_game_holds(event: object, path: str) -> None:
    with pytest.raises(tt.RecordError, match=path):
        event_from_json(event)


def test_the_event_schema_has_the_same_ranges_as_the_reader() -> None:
    validator = jsonschema.Draft202012Validator(event_schema())
    card = event_to_json(tt.CardRevealed(9, tt.new_game(2, seed=1).setup.deck[0]))
    highest = [
        {"type": "passed", "player": 7},
        {**card, "slot": 9},
        {"type": "house-visited", "player": 7, "house": 8, "matching": 100, "treat": "candy",
         "treats": 100},
        {"type": "street-bonus-taken", "player": 7, "street": 5, "treat": "gummy", "treats": 100,
         "first": True},
        {"type": "game-over", "winners": list(range(8))},
    ]  # fmt: skip
    for event in highest:
        validator.validate(event)
        event_from_json(event)
        for key, value in event.items():
            if isinstance(value, int) and not isinstance(value, bool):
                over = {**event, key: value + 1}
                assert not validator.is_valid(over), over
                with pytest.raises(tt.RecordError):
                    event_from_json(over)


def test_describe_event_names_a_missing_seat() -> None:
    with pytest.raises(tt.UnknownPlayerError, match=r"names seat 5, but names has 2 players"):
        tt.describe_event(tt.Passed(5), ["Ann", "Bo"])
    with pytest.raises(tt.UnknownPlayerError):
        tt.describe_event(tt.GameOver((0, 3)), ["Ann", "Bo"])


def test_closing_a_lazy_run_early_stops_its_workers() -> None:
    """Closing a run early stops the pool: nothing is left playing the other games."""
    games = simulation.simulate(10**6, ["random"] * 2, seed=3, jobs=2, batch_size=1)
    assert [r.game for r in itertools.islice(games, 2)] == [0, 1]
    cast("Generator[simulation.GameResult, None, None]", games).close()
    assert multiprocessing.active_children() == []
