"""Bots in any language (issue 47): the bot protocol, ``exec:`` bots in the ladder and
``simulate``, and bots that misbehave on purpose (``tests/hostile_bot.py``).

Every test is bounded in time: the bots get fractions of a second a move. Every test that
starts a bot checks afterwards that no process of its own is left (``bot_marker``: a word
in each bot's command line, looked for in /proc).
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import tricky_treats as tt
from tests.requirements import NODE_HINT, needs_node, node_path
from tricky_treats.agents import make_agent
from tricky_treats.bot_protocol import (
    PROTOCOL_VERSION,
    BotLimits,
    BotProcess,
    ExecAgent,
    exec_command,
)
from tricky_treats.cli import main
from tricky_treats.host import Table
from tricky_treats.ladder import play_ladder
from tricky_treats.simulation import simulate

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="exec bots run on Linux only"
)

ROOT = Path(__file__).resolve().parent.parent
PYTHON_BOT = ROOT / "examples" / "bots" / "python_bot.py"
JS_BOT = ROOT / "examples" / "bots" / "js_bot.mjs"
HOSTILE = Path(__file__).resolve().with_name("hostile_bot.py")
FAST = BotLimits(move_seconds=0.3, startup_seconds=3.0, restarts=1)
"""Limits that keep a test short: a hostile bot costs at most a few tenths of a second a move."""
PATIENT = BotLimits(move_seconds=10.0)
"""Limits for bots that play well: a busy machine never makes them lose a move."""
_GONE_SECONDS = 5.0
_TEST_SECONDS = 90
"""The most a test here may take: a host that blocked on a bot would hang it for ever."""


class _TooLongError(Exception):
    pass


@pytest.fixture(autouse=True)
def bounded_in_time() -> Iterator[None]:
    """Fail a test that takes over ``_TEST_SECONDS`` (SIGALRM interrupts a blocked call)."""

    def expire(signum: int, frame: object) -> None:
        raise _TooLongError(f"the test took over {_TEST_SECONDS} s: the host waits on a bot")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, _TEST_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _marked(marker: str) -> list[int]:
    """The live processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture
def bot_marker() -> Iterator[str]:
    """A word for the bots' command lines; afterwards, no process with it may be left."""
    marker = f"tt-test-{uuid.uuid4().hex}"
    yield marker
    deadline = time.monotonic() + _GONE_SECONDS
    while (left := _marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"bot processes left behind: {left}"


def hostile(mode: str, marker: str, *more: str) -> list[str]:
    return [sys.executable, str(HOSTILE), mode, marker, *more]


def spec(command: list[str]) -> str:
    return "exec:" + " ".join(command)


def python_bot(marker: str) -> list[str]:
    return [sys.executable, str(PYTHON_BOT), marker]


# -- the example bots in the ladder -------------------------------------------------------------


def test_the_python_example_bot_plays_the_ladder_without_a_fallback(bot_marker: str) -> None:
    games = play_ladder([spec(python_bot(bot_marker)), "random"], 2, seed=5, bot_limits=PATIENT)
    assert len(games) == 2
    for game in games:
        assert game.fallbacks == ()
        seat = game.bots.index(spec(python_bot(bot_marker)))
        assert game.moves[seat] > 10
        assert game.seconds[seat] > 0  # the bot's own process, counted by its CPU time


@needs_node()
def test_the_javascript_example_bot_plays_the_ladder_without_a_fallback(bot_marker: str) -> None:
    node = spec(["node", str(JS_BOT), bot_marker])
    games = play_ladder(
        [node, spec(python_bot(bot_marker)), "random"], 2, seed=5, bot_limits=PATIENT
    )
    assert len(games) == 6
    assert all(game.fallbacks == () for game in games)
    assert {bot for game in games for bot in game.bots} == {
        node,
        spec(python_bot(bot_marker)),
        "random",
    }


def test_the_node_skip_names_what_to_install() -> None:
    assert NODE_HINT.endswith("apt-get install nodejs")
    assert (node_path() is None) == (needs_node().args[0])


def test_an_exec_bot_makes_the_same_games_from_the_same_deals(bot_marker: str) -> None:
    def played() -> list[tuple[float, tuple[int, int]]]:
        games = play_ladder(
            [spec(python_bot(bot_marker)), "greedy"], 4, seed=11, bot_limits=PATIENT
        )
        return [(game.score, game.moves) for game in games]

    assert played() == played()


def test_exec_bots_play_the_same_games_on_a_pool_of_processes(bot_marker: str) -> None:
    bots = [spec(python_bot(bot_marker)), "greedy"]
    here = play_ladder(bots, 4, seed=3, bot_limits=PATIENT)
    pool = play_ladder(bots, 4, seed=3, jobs=2, bot_limits=PATIENT)
    assert [(g.score, g.moves) for g in pool] == [(g.score, g.moves) for g in here]
    inline = list(simulate(4, bots, seed=9, backend="inline", bot_limits=PATIENT))
    pooled = list(simulate(4, bots, seed=9, backend="pool", jobs=2, bot_limits=PATIENT))
    assert [r.seats for r in pooled] == [r.seats for r in inline]
    assert all(r.fallbacks == () for r in inline)


def test_the_transcript_in_the_docs_is_what_a_game_sends() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bot_transcript.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -- what the host sends -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variants", "seat"), [(2, (), 0), (3, ("any-mean-house",), 1)])
def test_a_bot_gets_the_record_dumps_writes_its_legal_actions_and_the_end(
    bot_marker: str, players: int, variants: tuple[str, ...], seat: int
) -> None:
    heard: list[tuple[str, str]] = []
    bot = ExecAgent(
        python_bot(bot_marker), limits=PATIENT, transcript=lambda *line: heard.append(line)
    )
    agents: list[tt.Agent] = [tt.GreedyAgent() for _ in range(players)]
    agents[seat] = bot
    states = tt.play_game(tt.new_game(players, seed=4, variants=variants), agents, seed=4)
    sent = [line for direction, line in heard if direction == ">"]
    assert sent[0] == f"hello {PROTOCOL_VERSION}"
    moves = [json.loads(line.removeprefix("move ")) for line in sent if line.startswith("move ")]
    turns = [s for s in states if s.current_player == seat]
    assert len(moves) == len(turns) > 5
    for move, state in zip(moves, turns, strict=True):
        assert move["view"] == json.loads(tt.dumps(state, player=seat))
        assert move["legal_actions"] == [str(a) for a in state.legal_actions()]
        assert move["time_left"] == 10.0
        assert move["game_time_left"] is None
    final = states[-1]
    end = json.loads(sent[-2].removeprefix("end "))
    assert end == {
        "winners": list(final.winners()),
        "view": json.loads(tt.dumps(final, player=seat)),
    }
    assert sent[-1] == "quit"
    assert bot.fallbacks == []


def test_a_bot_is_told_the_time_it_has_left_and_is_out_when_it_is_spent(
    bot_marker: str,
) -> None:
    heard: list[str] = []
    limits = BotLimits(move_seconds=0.5, game_seconds=0.6)
    bot = ExecAgent(
        hostile("slow", bot_marker), limits=limits, transcript=lambda _, line: heard.append(line)
    )
    tt.play_game(tt.new_game(2, seed=2), [bot, tt.RandomAgent()], seed=2)
    told = [json.loads(line[5:]) for line in heard if line.startswith("move ")]
    banks = [move["game_time_left"] for move in told]
    assert told[0]["time_left"] == 0.5  # the move's limit, the smaller
    assert banks == sorted(banks, reverse=True)
    assert all(m["time_left"] == min(0.5, m["game_time_left"]) for m in told)
    assert 2 <= len(told) <= 6  # a bot that takes 0.15 s a move has four moves' time or so
    assert "is out of time (its 0.6 s for the game are spent)" in str(bot.fallbacks[-1])


def test_the_handshake_gives_the_bots_name_author_and_version(bot_marker: str) -> None:
    bot = BotProcess(hostile("double", bot_marker))
    assert bot.start() is None
    assert (bot.name, bot.author, bot.version) == ("hostile double", "the tests", 1)
    assert bot.alive
    bot.finish()
    assert not bot.alive


# -- hostile bots in the ladder -----------------------------------------------------------------

KILLED = "is out of the game (started 2 times)"

HOSTILE_MODES = {
    # mode: what the log says of its first failed move, and whether it is out for the rest
    "sleep": ("gave no answer in 0.30 s", True),
    "late": ("gave no answer in 0.30 s", True),
    "cpu-hog": ("gave no answer in 0.30 s", True),
    "flood-info": ("gave no answer in 0.30 s", True),
    "flood-stderr": ("gave no answer in 0.30 s", True),
    "flood-no-newline": ("wrote a line longer than 65536 bytes", True),
    "huge-line": ("wrote a line longer than 65536 bytes", True),
    "garbage": ("answered 'thinking about it...' where 'action <notation>' was expected", True),
    "binary": ("wrote a line that is not UTF-8", True),
    "exit-mid-line": ("exited with code 0 in mid-line, after 'action t0'", True),
    "crash": ("exited with code 1; its last error output: '...", True),
    "close-stdout": ("closed its output", True),
    "crash-at-start": ("exited with code 3 before it was ready", True),
    "silent-start": ("did not answer hello with ready in 1 s", True),
    "illegal": ("answered 'pass', which is not a legal action now", False),
    "nonsense": ("answered 'jump', which is no action", False),
}


@pytest.mark.parametrize("mode", list(HOSTILE_MODES))
def test_a_hostile_bot_loses_its_moves_and_the_ladder_finishes(mode: str, bot_marker: str) -> None:
    said, out = HOSTILE_MODES[mode]
    bot = spec(hostile(mode, bot_marker))
    limits = attrs.evolve(FAST, startup_seconds=1.0) if mode == "silent-start" else FAST
    started = time.monotonic()
    games = play_ladder([bot, "random"], 2, seed=1, bot_limits=limits)
    assert time.monotonic() - started < 30
    assert len(games) == 2
    for game in games:
        seat = game.bots.index(bot)
        # Every move of the bot's was the fallback's, and the game went to its end.
        assert len(game.fallbacks) == game.moves[seat] > 5
        assert f"seat {seat}, move " in game.fallbacks[0]
        assert said in game.fallbacks[0]
        assert (KILLED in game.fallbacks[-1]) == out


def test_a_crashed_bots_last_error_output_is_in_the_log(bot_marker: str) -> None:
    games = play_ladder([spec(hostile("crash", bot_marker)), "random"], 2, bot_limits=FAST)
    assert "RuntimeError: the bot crashed on purpose" in games[0].fallbacks[0]
    games = play_ladder([spec(hostile("crash-at-start", bot_marker)), "random"], 2, bot_limits=FAST)
    assert "its last error output: 'cannot find my weights'" in games[0].fallbacks[0]


def test_a_bot_of_another_protocol_version_is_out_at_once(bot_marker: str) -> None:
    bot = ExecAgent(hostile("version", bot_marker), limits=FAST)
    tt.play_game(tt.new_game(2, seed=1), [tt.RandomAgent(), bot], seed=1)
    reasons = [f.reason for f in bot.fallbacks]
    assert reasons[0] == "speaks protocol version '7'; this host speaks 1"
    assert set(reasons[1:]) == {"is out of the game: it " + reasons[0]}


def test_a_bot_that_failed_once_is_started_again_and_plays(bot_marker: str, tmp_path: Path) -> None:
    bot = ExecAgent(hostile("fail-once", bot_marker, str(tmp_path / "flag")), limits=FAST)
    final = tt.play_game(tt.new_game(2, seed=1), [bot, tt.RandomAgent()], seed=1)[-1]
    assert final.is_over
    assert [f.move for f in bot.fallbacks] == [0]
    assert bot.fallbacks[0].reason == "exited with code 5"


def test_the_command_line_says_why_each_move_fell_back(
    bot_marker: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = spec(hostile("garbage", bot_marker))
    status = main(["ladder", "--bots", f"{bot},random", "--games", "2", "--move-seconds", "0.3"])
    captured = capsys.readouterr()
    assert status == 0
    assert "Elo ratings" in captured.out
    lines = [line for line in captured.err.splitlines() if "fell back" in line or "played" in line]
    assert len(lines) > 10
    assert f"{bot} against random, seed 0: seat 0, move 0: {bot} answered 'thinking" in lines[0]
    status = main(["simulate", "--agents", f"{bot},random", "--games", "1", "--quiet",
                   "--backend", "inline", "--seed", "1", "--fallback", "greedy"])  # fmt: skip
    assert status == 0
    assert "game 0: seat 0, move 0:" in capsys.readouterr().err


def test_simulate_keeps_the_fallbacks_of_each_game(bot_marker: str) -> None:
    bots = [spec(hostile("nonsense", bot_marker)), "random"]
    results = list(simulate(2, bots, seed=1, backend="inline", bot_limits=FAST))
    for result in results:
        assert result.fallbacks
        assert result.to_dict()["fallbacks"] == list(result.fallbacks)
        assert pickle.loads(pickle.dumps(result)) == result
    (quiet,) = simulate(1, ["random", "random"], seed=1, backend="inline")
    assert "fallbacks" not in quiet.to_dict()


# -- the limits ----------------------------------------------------------------------------------


def _first_move(bot: BotProcess, seconds: float = 2.0) -> tt.GameState:
    game = tt.new_game(2, seed=1)
    answer = bot.ask(tt.dumps(game, player=0), game.legal_actions(), seconds)
    assert answer.failure is None, answer.failure
    assert answer.action in game.legal_actions()
    return game


def test_a_fork_bomb_stops_at_its_first_fork_and_threads_still_work(bot_marker: str) -> None:
    bot = BotProcess(hostile("fork-bomb", bot_marker))
    game = tt.new_game(2, seed=1)
    answer = bot.ask(tt.dumps(game, player=0), game.legal_actions(), 10.0)
    bot.finish()
    assert answer.action is not None
    assert answer.notes == ("processes started 0, refused 52; threads work",)


def test_a_bot_allowed_processes_cannot_leave_its_group_and_they_end_with_it(
    bot_marker: str,
) -> None:
    bot = BotProcess(hostile("linger", bot_marker), BotLimits(processes=1))
    game = tt.new_game(2, seed=1)
    answer = bot.ask(tt.dumps(game, player=0), game.legal_actions(), 5.0)
    assert answer.notes == ("started a child, which stayed in its session",)
    deadline = time.monotonic() + _GONE_SECONDS
    while len(_marked(bot_marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(_marked(bot_marker)) == 2  # the bot and the child it started
    bot.finish()  # the fixture checks that both are gone


def test_the_memory_and_file_limits_hold(bot_marker: str, tmp_path: Path) -> None:
    small = BotLimits(memory_bytes=256 * 1024**2, file_bytes=1024**2)
    memory = BotProcess(hostile("memory", bot_marker), small)
    game = tt.new_game(2, seed=1)
    answer = memory.ask(tt.dumps(game, player=0), game.legal_actions(), 5.0)
    memory.finish()
    assert answer.notes == ("memory refused",)
    big_file = tmp_path / "big"
    writer = BotProcess(hostile("big-file", bot_marker, str(big_file)), small)
    answer = writer.ask(tt.dumps(game, player=0), game.legal_actions(), 5.0)
    writer.finish()
    assert answer.notes == ("file refused: File too large",)
    assert big_file.stat().st_size <= 1024**2


def test_the_cpu_limit_ends_a_bot_that_computes_without_end(bot_marker: str) -> None:
    bot = BotProcess(hostile("cpu-at-start", bot_marker), BotLimits(cpu_seconds=1))
    started = time.monotonic()
    failure = bot.start()
    assert failure is not None
    assert failure.kind == "start"
    assert failure.message.startswith("was killed by SIGXCPU before it was ready (a bot may")
    assert time.monotonic() - started < 8  # not the 10 s of the startup time


def test_a_bot_sees_none_of_the_hosts_environment_but_what_it_needs(
    bot_marker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_PASSWORD", "hunter2")
    bot = BotProcess(hostile("environment", bot_marker))
    game = tt.new_game(2, seed=1)
    answer = bot.ask(tt.dumps(game, player=0), game.legal_actions(), 5.0)
    bot.finish()
    (note,) = answer.notes
    names = set(note.removeprefix("environment ").split())
    assert "PATH" in names
    assert names <= {"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ"}


def test_a_bot_that_does_not_read_its_input_fails_the_move(bot_marker: str) -> None:
    bot = BotProcess(hostile("deaf", bot_marker))
    game = _first_move(bot)  # it reads this one, then no more
    padding = json.dumps({"padding": "x" * 1024**2})  # more than a pipe holds
    started = time.monotonic()
    answer = bot.ask(padding, game.legal_actions(), 0.5)
    assert time.monotonic() - started < 3
    assert answer.failure is not None
    assert (answer.failure.kind, answer.failure.message) == (
        "not-reading",
        "did not read its input",
    )
    assert not bot.alive


def test_a_bot_that_ignores_quit_is_ended_all_the_same(bot_marker: str) -> None:
    bot = BotProcess(hostile("ignore-quit", bot_marker))
    _first_move(bot)
    started = time.monotonic()
    bot.finish()
    assert time.monotonic() - started < 2
    assert not bot.alive


def test_lines_sent_out_of_turn_are_noted_and_ignored(bot_marker: str) -> None:
    bot = BotProcess(hostile("double", bot_marker))
    game = _first_move(bot)  # its second answer came in the same write as the first
    answer = bot.ask(tt.dumps(game, player=0), game.legal_actions(), 2.0)
    bot.finish()
    assert answer.failure is None
    assert answer.notes[0].startswith("(sent out of turn) action ")


def test_kill_from_another_thread_ends_a_waiting_ask(bot_marker: str) -> None:
    bot = BotProcess(hostile("sleep", bot_marker))
    game = tt.new_game(2, seed=1)
    answers: list[object] = []
    asking = threading.Thread(
        target=lambda: answers.append(bot.ask(tt.dumps(game, player=0), game.legal_actions(), 60))
    )
    asking.start()
    time.sleep(0.5)
    bot.kill()
    asking.join(timeout=5)
    assert not asking.is_alive()
    (answer,) = answers
    assert isinstance(answer, tt.bot_protocol.BotAnswer)
    assert answer.failure is not None
    assert answer.failure.message == "was ended by the host while it thought"
    assert answer.seconds < 5
    assert not bot.alive
    bot.finish()


def test_bots_can_be_asked_from_asyncio_at_once(bot_marker: str) -> None:
    game = tt.new_game(2, seed=1)
    bots = [BotProcess(python_bot(bot_marker)) for _ in range(2)]

    async def ask_both() -> list[tt.bot_protocol.BotAnswer]:
        record = tt.dumps(game, player=0)
        asks = [asyncio.to_thread(b.ask, record, game.legal_actions(), 5.0) for b in bots]
        return list(await asyncio.gather(*asks))

    answers = asyncio.run(ask_both())
    for bot in bots:
        bot.finish()
    assert [a.action for a in answers] == [answers[0].action] * 2
    assert answers[0].action in game.legal_actions()


# -- configuration -------------------------------------------------------------------------------


def test_an_exec_bot_that_cannot_run_is_refused_before_any_game() -> None:
    with pytest.raises(tt.ConfigurationError, match="no program 'no-such-bot' on PATH"):
        play_ladder(["exec:no-such-bot --fast", "random"], 2)
    with pytest.raises(tt.ConfigurationError, match="names no command"):
        list(simulate(1, ["exec:  ", "random"], backend="inline"))
    with pytest.raises(tt.ConfigurationError, match="No closing quotation"):
        exec_command("exec:python3 'bot.py")
    with pytest.raises(tt.ConfigurationError, match="the fallback is a built-in bot"):
        play_ladder([f"exec:{sys.executable} {PYTHON_BOT}", "random"], 2, fallback="exec:x")
    with pytest.raises(tt.ConfigurationError, match="exec: bots play tricky-treats only"):
        play_ladder([f"exec:{sys.executable} {PYTHON_BOT}", "random"], 2, game="hack-trick")


def test_a_bot_name_never_runs_a_program_where_exec_bots_are_not_asked_for() -> None:
    # make_agent names the built-in bots: a web table, a saved table, `play` take those only.
    with pytest.raises(tt.ConfigurationError, match="no agent 'exec'"):
        make_agent(f"exec:{sys.executable} {PYTHON_BOT}")
    with pytest.raises(tt.ConfigurationError, match="no agent 'exec'"):
        Table.new(["Ann", "Bot"], seed=1, bots={1: f"exec:{sys.executable} {PYTHON_BOT}"})


@pytest.mark.parametrize(
    ("field", "value"),
    [("move_seconds", 0), ("move_seconds", "1"), ("processes", 1.5), ("processes", True),
     ("memory_bytes", 1024), ("game_seconds", -1.0), ("restarts", -1)],
)  # fmt: skip
def test_bot_limits_refuse_what_is_no_limit(field: str, value: object) -> None:
    with pytest.raises(tt.ConfigurationError, match=f"BotLimits.{field} must be"):
        BotLimits(**{field: value})  # type: ignore[arg-type]


def test_the_cpu_limit_follows_the_time_a_game_may_take() -> None:
    assert BotLimits().process_cpu_seconds == 10 + 100 + 10
    assert BotLimits(game_seconds=30, startup_seconds=5).process_cpu_seconds == 45
    assert BotLimits(cpu_seconds=7).process_cpu_seconds == 7


def test_an_exec_agent_copies_for_another_process_without_its_processes(bot_marker: str) -> None:
    bot = ExecAgent(python_bot(bot_marker), limits=FAST, fallback=tt.GreedyAgent(), label="mine")
    bot.begin_game(tt.new_game(2, seed=1))
    copy = pickle.loads(pickle.dumps(bot))
    assert (copy.command, copy.limits, copy.fallback, copy.label) == (
        bot.command,
        FAST,
        tt.GreedyAgent(),
        "mine",
    )
    bot.end_game(None)


def test_an_exec_agent_must_be_told_of_its_game(bot_marker: str) -> None:
    game = tt.new_game(2, seed=1)
    bot = ExecAgent(python_bot(bot_marker))
    with pytest.raises(tt.ConfigurationError, match="call begin_game"):
        bot.choose(game.view(0), game.legal_actions(), __import__("random").Random(0))
