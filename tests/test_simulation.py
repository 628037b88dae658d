"""simulate(): the same games on every backend, streamed results, options that mean what they say."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.requirements import engine_hint
from tricky_treats.cli import main
from tricky_treats.simulation import GameResult, simulate


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_result_is_the_game_that_play_game_plays() -> None:
    [result] = simulate(1, ["greedy", "random"], seed=21, backend="inline")
    states = tt.play_game(tt.new_game(2, seed=21), [tt.GreedyAgent(), tt.RandomAgent()], seed=21)
    final = states[-1]
    assert result.actions == len(final.history) == len(states) - 1
    assert [seat.total for seat in result.seats] == [sheet.total for sheet in final.scores()]
    assert [seat.win for seat in result.seats] == [
        1 / len(final.winners()) if p in final.winners() else 0 for p in range(2)
    ]
    assert result.termination == final.outcome().termination.value  # type: ignore[union-attr]


def test_seats_rotate_from_game_to_game() -> None:
    results = list(simulate(3, ["greedy", "random", "random"], seed=1, backend="inline"))
    assert [[s.agent_index for s in r.seats] for r in results] == [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
    ]
    assert [r.seats[0].agent for r in results] == ["greedy", "random", "random"]


def test_inline_and_pool_play_the_same_games() -> None:
    agents = ["greedy", "random", "random"]
    inline = list(simulate(8, agents, seed=40, backend="inline"))
    pool = list(simulate(8, agents, seed=40, backend="pool", jobs=2, batch_size=3))
    unordered = list(simulate(8, agents, seed=40, backend="pool", jobs=2, ordered=False))
    assert [r.game for r in inline] == list(range(8))
    assert [r.seed for r in inline] == list(range(40, 48))
    assert pool == inline
    assert sorted(unordered, key=lambda r: r.game) == inline


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork only on Linux")
def test_pool_workers_fork_unless_another_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing
    import threading

    methods: list[str] = []
    real_get_context = multiprocessing.get_context

    def recording_get_context(method: str | None = None) -> object:
        methods.append(str(method))
        return real_get_context(method)

    monkeypatch.setattr(multiprocessing, "get_context", recording_get_context)
    inline = list(simulate(4, ["random", "random"], seed=7, backend="inline"))
    # A thread of an earlier test (a server, a browser driver) may still be ending: give it
    # time, then run as a program with no other thread does, whatever is left of it.
    deadline = time.monotonic() + 10
    while threading.active_count() > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    with monkeypatch.context() as alone:
        alone.setattr(threading, "active_count", lambda: 1)
        assert list(simulate(4, ["random", "random"], seed=7, backend="pool", jobs=2)) == inline
    # Forking a process that runs another thread is unsafe: then the workers are spawned.
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        spawned = list(simulate(4, ["random", "random"], seed=7, backend="pool", jobs=2))
    finally:
        stop.set()
        other.join()
    assert spawned == inline
    assert methods == ["fork", "spawn"]


def test_a_random_agent_is_asked_without_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_view(self: tt.GameState, player: int) -> tt.PlayerView:
        raise AssertionError("simulate built a view for an agent that needs none")

    expected = list(simulate(3, ["random", "random"], seed=5, backend="inline"))
    monkeypatch.setattr(tt.GameState, "view", no_view)
    assert list(simulate(3, ["random", "random"], seed=5, backend="inline")) == expected


def test_a_single_agent_fills_every_seat_of_players() -> None:
    [result] = simulate(1, ["random"], players=4, seed=3, backend="inline")
    assert [s.agent for s in result.seats] == ["random"] * 4
    assert [s.agent_index for s in result.seats] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": ["greedy", "random"], "players": 3}, "2 agents for 3 players"),
        ({"agents": ["random"], "players": 5}, "for 2 to 4 players, got 5"),
        ({"agents": ["random", "random", "random", "random", "random"]}, "got 5"),
        ({"agents": []}, "agents is empty"),
        ({"agents": ["random"], "players": -2}, "players must be a number of seats, got -2"),
        ({"agents": ["random"] * 2, "variants": "family"}, "got the string 'family'"),
        ({"agents": "random,random"}, "got the string 'random,random'"),
        ({"agents": ["random", "wizard"]}, "no agent 'wizard'"),
        ({"agents": ["random"] * 2, "backend": "cloud"}, "no backend 'cloud'"),
        ({"agents": ["random"] * 2, "jobs": 0}, "jobs must be at least 1"),
        ({"agents": ["random"] * 2, "batch_size": 0}, "batch_size must be at least 1"),
        ({"agents": ["random"] * 2, "address": "auto"}, "address is for the ray backend"),
        ({"agents": ["random"] * 2, "seed": "1"}, "seed must be an integer"),
        ({"agents": ["random"] * 2, "variants": ["chess"]}, "no variant called 'chess'"),
    ],
)
def test_bad_options_are_refused_before_any_game(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(tt.ConfigurationError, match=message):
        simulate(games=2, **kwargs)  # type: ignore[arg-type]


def test_ray_backend_without_ray_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as when not installed
    with pytest.raises(tt.ConfigurationError, match=engine_hint("ray").pattern):
        simulate(2, ["random", "random"], backend="ray")


def test_without_a_seed_one_of_63_bits_is_drawn_from_the_os(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[int] = []

    def randbits(bits: int) -> int:
        drawn.append(bits)
        return 2**62 + 12345

    monkeypatch.setattr("tricky_treats.simulation.secrets.randbits", randbits)
    results = list(simulate(2, ["random", "random"], backend="inline"))
    assert drawn == [63]
    assert [r.seed for r in results] == [2**62 + 12345, 2**62 + 12346]


def test_importing_the_library_or_simulation_never_imports_ray() -> None:
    code = (
        "import sys, tricky_treats, tricky_treats.simulation, tricky_treats.cli; "
        "print(sorted(m for m in ('ray', 'pyspiel', 'open_spiel') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


class WaitsForTheFirstResult:
    """Plays randomly, but holds its second game until the test has seen the first result.

    If results were sent only when a whole batch is done, the test would never see the first
    result, and the agent gives up with an error after 30 s.
    """

    def __init__(self, flag: str) -> None:
        self.flag = flag
        self.games = 0

    def choose(
        self, view: tt.PlayerView, legal_actions: Sequence[tt.Action], rng: random.Random
    ) -> tt.Action:
        if not view.history:
            self.games += 1
            if self.games == 2:
                deadline = time.monotonic() + 30
                while not os.path.exists(self.flag):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the first game's result was not sent on its own")
                    time.sleep(0.01)
        return legal_actions[rng.randrange(len(legal_actions))]


def test_pool_results_come_as_games_end_not_when_the_batch_ends(tmp_path: Path) -> None:
    flag = tmp_path / "first-result-seen"
    agent = WaitsForTheFirstResult(str(flag))
    seen: list[GameResult] = []
    for result in simulate(
        3, [agent], players=2, seed=8, backend="pool", jobs=2, batch_size=3, ordered=False
    ):
        seen.append(result)
        flag.touch()
    assert sorted(r.game for r in seen) == [0, 1, 2]


class FailingAgent:
    """Raises on its first move, or ends its process at once (as an out-of-memory kill)."""

    def __init__(self, exit_code: int | None = None) -> None:
        self.exit_code = exit_code

    def choose(
        self, view: tt.PlayerView, legal_actions: Sequence[tt.Action], rng: random.Random
    ) -> tt.Action:
        if self.exit_code is not None:
            os._exit(self.exit_code)
        raise ValueError("this bot is broken")


def test_an_error_in_a_pool_worker_is_raised_here_with_its_traceback() -> None:
    with pytest.raises(ValueError, match="this bot is broken") as info:
        list(simulate(4, [FailingAgent(), "random"], seed=1, backend="pool", jobs=2))
    assert "raised in a simulate worker process" in "".join(info.value.__notes__)
    assert "in choose" in "".join(info.value.__notes__)


def test_a_pool_worker_that_dies_is_reported_not_waited_for() -> None:
    with pytest.raises(RuntimeError, match="stopped with exit code 3 before its games"):
        list(simulate(4, [FailingAgent(exit_code=3), "random"], seed=1, jobs=2))


# -- the command ---------------------------------------------------------------------------------


def test_cli_players_fills_seats_with_a_single_bot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "games.jsonl"
    common = ["simulate", "--games", "2", "--seed", "4", "--quiet", "--output", str(output)]
    status, out, _ = _run(capsys, *common, "--agents", "random", "--players", "4")
    assert status == 0
    assert "2 games, 4 players, seeds 4 to 5" in out
    lines = [json.loads(line) for line in output.read_text().splitlines()]
    assert [len(line["seats"]) for line in lines] == [4, 4]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5", "--agents", "random"], "for 2 to 4 players, got 5"),
        (["--players", "3", "--agents", "greedy,random"], "2 agents for 3 players"),
        (["--backend", "inline", "--jobs", "2"], "--jobs is for the pool backend"),
        (["--address", "auto"], "--address is for the ray backend"),
        (["--batch-size", "0"], "--batch-size must be at least 1"),
        (["--agents", ","], "--agents is empty"),
    ],
)
def test_cli_simulate_options_mean_what_they_say(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, "simulate", "--games", "2", "--quiet", *argv)
    assert status == 2
    assert message in " ".join(err.split())
    assert "Traceback" not in out + err


def test_cli_help_says_what_players_and_seed_do(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--players N how many seats, 2 to 4 (default: one per bot of --agents, else 2)" in text
    assert "game i uses SEED+i modulo 2**128 (default: drawn from the operating system, 63" in text
    assert "--backend {inline,pool,ray}" in text


def test_cli_without_a_seed_draws_a_fresh_one_and_prints_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = iter([2**62 + 7, 99])
    monkeypatch.setattr(
        "tricky_treats.cli._simulate_command.secrets.randbits", lambda bits: next(drawn)
    )
    argv = ["simulate", "--games", "2", "--agents", "random,random", "--jobs", "1", "--quiet"]
    assert "seeds 4611686018427387911 to 4611686018427387912" in _run(capsys, *argv)[1]
    assert "seeds 99 to 100" in _run(capsys, *argv)[1]


def test_cli_progress_advances_once_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    """Ten games: a plain line at every tenth of the way is a line per game."""
    argv = ["simulate", "--games", "10", "--agents", "random,random", "--jobs", "2", "--seed", "1"]
    status, _, err = _run(capsys, *argv)
    assert status == 0
    label = "Playing random, random on 2 process(es)"
    lines = err.splitlines()
    assert lines[0] == f"{label}: 10 games..."
    assert [line.split(" in ")[0] for line in lines[1:]] == [
        f"{label}: {done}/10" for done in range(1, 11)
    ]


def test_ctrl_c_stops_simulate_without_worker_tracebacks(tmp_path: Path) -> None:
    output = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "tricky_treats", "simulate", "--games", "1000000",
               "--agents", "random", "--players", "2", "--jobs", "2", "--seed", "1",
               "--quiet", "--output", str(output)]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As at a terminal: a run started in the background by a shell (nohup, `&`) inherits
        # SIGINT ignored, and a program that starts so keeps ignoring it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while not (output.exists() and output.stat().st_size > 0):  # workers are playing
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no game finished in 120 s"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: to every process of the job
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130
    assert "Traceback" not in out + err
    assert "KeyboardInterrupt" not in out + err
    assert "Interrupted after" in err
    lines = output.read_text().splitlines()
    assert [json.loads(line)["game"] for line in lines] == list(range(len(lines)))
