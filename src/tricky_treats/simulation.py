"""Many games between bots: in this process, on a local process pool, or on a Ray cluster.

``simulate()`` plays games ``0`` to ``games - 1``; game ``i`` is dealt from seed ``seed + i``
(modulo ``2**128``, the range of seeds, so that every seed of that range can start a run)
and its seats rotate by ``i`` so that each agent plays every seat in turn. A game's result
depends only on its index, the seed, the agents and the variants, never on the backend, the
number of processes or the order in which games finish.

The loop is lean: one ``random.Random`` per game, no list of past states, and an agent that
defines ``choose_from_legal(legal_actions, rng)`` (as ``RandomAgent`` does) is asked
directly, without building a ``PlayerView`` for it.

``exec:COMMAND`` agents are programs that speak the bot protocol (``docs/bot-protocol.md``).

The Ray backend needs the ``ray`` extra (``pip install 'tricky-treats[ray]'``); importing
this module never imports Ray.
"""

from __future__ import annotations

import heapq
import math
import os
import pickle
import random
import secrets
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal

import attrs

from tricky_treats._workers import end_with_parent
from tricky_treats.actions import Action
from tricky_treats.agents import Agent, begin_game, end_game, make_agent
from tricky_treats.dealing import MAX_SEED, new_game
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.simulator import Simulator

if TYPE_CHECKING:
    from multiprocessing.queues import Queue

    from tricky_treats.bot_protocol import BotLimits

__all__ = [
    "BACKENDS",
    "MAX_JOBS_PER_CPU",
    "Backend",
    "GameResult",
    "SeatResult",
    "game_seed",
    "max_jobs",
    "simulate",
]

Backend = Literal["inline", "pool", "ray"]
BACKENDS: tuple[Backend, ...] = ("inline", "pool", "ray")
"""Where ``simulate()`` plays: in this process, on local processes, or as Ray tasks."""


_POINT_CATEGORIES = ("total", "pumpkins", "costumes", "tiles", "extras")


@attrs.frozen
class SeatResult:
    """How one seat did in one game; seat 0 plays first."""

    agent: str
    """The agent's spec (``"greedy"``, ``"search:200"``) or, for an agent object, its repr."""
    agent_index: int
    """The agent's position in the ``agents`` given to ``simulate()`` (seats rotate)."""
    total: int
    """Final points."""
    pumpkins: int
    """Points from pumpkins."""
    costumes: int
    """Points from costumes, all kids together."""
    tiles: int
    """Points from trick tiles (the score sheet's ``treats``)."""
    extras: int
    """Points from variants' extra scoring."""
    win: float
    """The seat's share of the win: 1, a fraction for a shared win (R15), or 0."""

    def points(self, category: str) -> int:
        """The points of ``category``: total, pumpkins, costumes, tiles or extras."""
        if category not in _POINT_CATEGORIES:
            raise ConfigurationError(
                f"no score category {brief(category)}; choose from {', '.join(_POINT_CATEGORIES)}"
            )
        value: int = getattr(self, category)
        return value

    def __reduce__(self) -> tuple[type[SeatResult], tuple[Any, ...]]:
        # Results cross process boundaries by the million: pickle them as plain tuples
        # (attrs' default for slotted classes is more than ten times slower).
        return SeatResult, (
            self.agent,
            self.agent_index,
            self.total,
            self.pumpkins,
            self.costumes,
            self.tiles,
            self.extras,
            self.win,
        )


@attrs.frozen
class GameResult:
    """The result of one game, as ``simulate()`` plays it and ``simulate --output`` writes it.

    The balance report (``tricky_treats.report``) reads those files back into this class.
    """

    game: int
    """The game's index, from 0."""
    seed: int
    """The seed that dealt it (``seed + game``, modulo ``2**128``)."""
    actions: int
    """How many actions the game took."""
    termination: str | None
    """Why it ended (a ``Termination`` value), or None if no end was triggered."""
    seats: tuple[SeatResult, ...]
    """One entry per seat, in seat order."""
    fallbacks: tuple[str, ...] = ()
    """The moves exec bots failed, each with the reason and the fallback's action."""

    def __reduce__(self) -> tuple[type[GameResult], tuple[Any, ...]]:
        values = (self.game, self.seed, self.actions, self.termination, self.seats)
        return GameResult, (*values, self.fallbacks)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object that ``simulate --output FILE.jsonl`` writes (``fallbacks`` if any)."""
        document: dict[str, Any] = {
            "game": self.game,
            "seed": self.seed,
            "actions": self.actions,
            "termination": self.termination,
            "seats": [attrs.asdict(seat) for seat in self.seats],
        }
        if self.fallbacks:
            document["fallbacks"] = list(self.fallbacks)
        return document


@attrs.frozen
class _Batch:
    """Games ``first`` to ``first + count - 1``: what one task plays."""

    first: int
    count: int
    seed: int
    agents: tuple[str | Agent, ...]
    labels: tuple[str, ...]
    variants: tuple[str, ...]
    bot_limits: BotLimits | None = None
    fallback: str = "random"


def simulate(
    games: int,
    agents: Sequence[str | Agent],
    *,
    players: int | None = None,
    seed: int | None = None,
    variants: Iterable[str] = (),
    backend: Backend = "pool",
    jobs: int | None = None,
    address: str | None = None,
    batch_size: int | None = None,
    ordered: bool = True,
    bot_limits: BotLimits | None = None,
    fallback: str = "random",
) -> Iterator[GameResult]:
    """Play ``games`` games between ``agents`` and yield each game's result as it is known.

    ``agents`` are agent specs (``"random"``, ``"greedy"``, ``"search:200"``) or agent
    objects, one per seat; a single agent fills all ``players`` seats. ``players`` defaults
    to the number of agents; when given, ``agents`` must name one agent or exactly one per
    seat. Game ``i`` is dealt from seed ``seed + i`` (modulo ``2**128``: the seeds stay in
    range); without a seed, one of 63 bits is drawn from the operating system (read it back
    from the results).

    ``backend`` is ``"inline"`` (this process), ``"pool"`` (``jobs`` local processes, all
    cores by default and at most ``MAX_JOBS_PER_CPU`` per core; one job plays in this
    process) or ``"ray"`` (Ray tasks on the cluster at ``address``, or on the Ray this
    process is already connected to, or on a local one).
    ``batch_size`` is how many games one task plays (chosen from the number of games and
    workers when None); batches are made as workers need them, never all at once, so the
    memory used does not grow with ``games``. Results come in game order when ``ordered``,
    else as games finish.
    Agent objects must pickle for the pool and Ray backends. ``exec:COMMAND`` agents play
    within ``bot_limits`` (``BotLimits()`` by default), and the built-in ``fallback`` bot
    plays the moves they fail; ``GameResult.fallbacks`` says which and why.

    Raises ``ConfigurationError`` at once, before any game, if the options do not make a
    game; errors of a game itself are raised when its result is reached.

    >>> results = list(simulate(3, ["greedy", "random"], seed=7, backend="inline"))
    >>> [r.seed for r in results], [s.agent for s in results[1].seats]
    ([7, 8, 9], ['random', 'greedy'])
    """
    from tricky_treats.bot_protocol import check_fallback, exec_command, is_exec_spec

    seats = _seat_agents(agents, players)
    labels = tuple(agent if isinstance(agent, str) else repr(agent) for agent in seats)
    for agent in seats:  # a bad spec reported now rather than in a worker (no program started)
        if isinstance(agent, str):
            exec_command(agent) if is_exec_spec(agent) else make_agent(agent)
    check_fallback(fallback)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ConfigurationError(f"games must be a whole number of at least 0, got {games!r}")
    if backend not in BACKENDS:
        raise ConfigurationError(
            f"no backend {brief(backend)}; choose from {', '.join(map(repr, BACKENDS))}"
        )
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ConfigurationError(f"jobs must be at least 1, got {brief(jobs)}")
    if jobs is not None and jobs > max_jobs():
        raise ConfigurationError(
            f"jobs must be at most {max_jobs()} here ({MAX_JOBS_PER_CPU} per CPU core; more "
            f"processes than that only share the same cores), got {brief(jobs)}"
        )
    if batch_size is not None and (
        isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1
    ):
        raise ConfigurationError(f"batch_size must be at least 1, got {batch_size!r}")
    if address is not None and backend != "ray":
        raise ConfigurationError("address is for the ray backend: add backend='ray'")
    if seed is None:
        seed = secrets.randbits(63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigurationError(f"seed must be an integer, got {brief(seed)}")
    if isinstance(variants, str):
        raise ConfigurationError(
            f"variants must be a list of names, got the string {brief(variants)}"
        )
    variant_names = tuple(variants)
    new_game(players=len(seats), seed=seed, variants=variant_names)  # checks the setup now
    if backend == "ray":
        from tricky_treats._ray_tasks import ray_module

        ray_module()  # a clear error now if Ray is missing

    def batch(first: int, count: int) -> _Batch:
        return _Batch(first, count, seed, seats, labels, variant_names, bot_limits, fallback)

    def batches(size: int) -> Iterator[_Batch]:
        for first in range(0, games, size):
            yield batch(first, min(size, games - first))

    def run() -> Iterator[GameResult]:
        if games == 0:
            return
        workers = min(jobs or _cpus(), games)
        if backend == "inline" or (backend == "pool" and workers == 1):
            results: Iterator[GameResult] = _play_batch(batch(0, games))
        elif backend == "pool":
            size = batch_size or _default_batch(games, workers)
            results = _pool_results(batches(size), games, workers, size)
        else:
            from tricky_treats._ray_tasks import ray_results

            results = ray_results(games, batches, batch_size, address)
        yield from _in_order(results) if ordered else results

    return run()


def _seat_agents(agents: Sequence[str | Agent], players: int | None) -> tuple[str | Agent, ...]:
    if isinstance(agents, str):
        raise ConfigurationError(
            f"agents must be a sequence of agents, one per seat, got the string {brief(agents)}"
        )
    chosen = tuple(agents)
    if not chosen:
        raise ConfigurationError("agents is empty: give one agent per seat, or one for all")
    if players is None:
        return chosen
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ConfigurationError(f"players must be a number of seats, got {players!r}")
    if len(chosen) == 1:
        return chosen * players
    if len(chosen) != players:
        raise ConfigurationError(
            f"{len(chosen)} agents for {players} players: give one agent per seat, "
            "or a single agent for every seat"
        )
    return chosen


def _cpus() -> int:
    return os.cpu_count() or 1


MAX_JOBS_PER_CPU = 4
"""The most pool processes per CPU core ``simulate()`` starts (``jobs``)."""


def max_jobs() -> int:
    """The most processes the pool backend may start here: ``MAX_JOBS_PER_CPU`` per core."""
    return MAX_JOBS_PER_CPU * _cpus()


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a run started from ``seed``: ``seed + game``, modulo 2**128.

    Every seed from 0 to ``2**128 - 1`` can start a run; the games after the last seed wrap
    round to 0.
    """
    return (seed + game) % MAX_SEED


def _default_batch(games: int, workers: int) -> int:
    """Enough batches per worker to balance the load, few enough to keep the overhead low."""
    return max(1, min(256, math.ceil(games / (workers * 16))))


def _in_order(results: Iterator[GameResult]) -> Iterator[GameResult]:
    """``results`` sorted by game index, each yielded as soon as all before it are known."""
    waiting: list[tuple[int, GameResult]] = []
    expected = 0
    for result in results:
        heapq.heappush(waiting, (result.game, result))
        while waiting and waiting[0][0] == expected:
            yield heapq.heappop(waiting)[1]
            expected += 1


# -- playing -------------------------------------------------------------------------------------

_Chooser = Callable[[Sequence[Action], random.Random], Action]


def _play_batch(batch: _Batch) -> Iterator[GameResult]:
    """Play the games of ``batch`` one after another, yielding each result."""
    count = len(batch.agents)
    built = [_agent(a, batch) for a in batch.agents]
    # The agents that hear of each game's start and end (exec bots): most runs have none.
    hooked = [a for a in built if hasattr(a, "begin_game") or hasattr(a, "end_game")]
    try:
        for index in range(batch.first, batch.first + batch.count):
            order = [(index + seat) % count for seat in range(count)]
            yield _play_one(
                index,
                game_seed(batch.seed, index),
                [built[i] for i in order],
                [(batch.labels[i], i) for i in order],
                batch.variants,
                hooked,
            )
    finally:  # a batch given up (an error, a closed iterator) leaves no bot running
        end_game(hooked, None)


def _agent(agent: str | Agent, batch: _Batch) -> Agent:
    from tricky_treats.bot_protocol import exec_agent, is_exec_spec

    if not isinstance(agent, str):
        return agent
    return (
        exec_agent(agent, batch.bot_limits, batch.fallback)
        if is_exec_spec(agent)
        else make_agent(agent)
    )


def _play_one(
    index: int,
    seed: int,
    agents: list[Agent],
    labels: list[tuple[str, int]],
    variants: tuple[str, ...],
    hooked: list[Agent],
) -> GameResult:
    """One game; the agents draw from one ``random.Random(seed)``, as in ``play_game``.

    The ``hooked`` agents hear of its start and end (``begin_game``, ``end_game``).
    """
    sim = Simulator.new_game(len(agents), seed=seed, variants=variants)  # no state built
    rng = random.Random(seed)
    # An agent that needs no view chooses from the legal actions directly, and the moves
    # are played on a simulator: no state is built but for the agents that read a view.
    direct: list[_Chooser | None] = [getattr(a, "choose_from_legal", None) for a in agents]
    actions = 0
    if hooked:
        begin_game(hooked, sim.state())
    try:
        seat = sim.current_player
        while seat is not None:
            legal = sim.legal_actions()
            choose = direct[seat]
            if choose is not None:
                action = choose(legal, rng)
            else:
                action = agents[seat].choose(sim.state().view(seat), legal, rng)
            sim.play_action(action)
            actions += 1
            seat = sim.current_player
    finally:
        if hooked:
            end_game(hooked, sim.state() if sim.current_player is None else None)
    won = sim.winners()
    share = 1 / len(won)
    trigger = sim._trigger  # scored by the core, without building the final state
    return GameResult(
        game=index,
        seed=seed,
        actions=actions,
        termination=trigger.reason.value if trigger else None,
        seats=tuple(
            SeatResult(
                agent=label,
                agent_index=agent_index,
                total=total,
                pumpkins=pumpkins,
                costumes=costumes,
                tiles=tiles,
                extras=extras,
                win=share if seat in won else 0.0,
            )
            for seat, ((total, pumpkins, costumes, tiles, extras), (label, agent_index)) in (
                enumerate(zip(sim._points(), labels, strict=True))
            )
        ),
        fallbacks=_fallbacks(hooked),
    )


def _fallbacks(hooked: list[Agent]) -> tuple[str, ...]:
    """The moves the exec bots among ``hooked`` failed in the game just played."""
    if not hooked:
        return ()
    from tricky_treats.bot_protocol import fallbacks_of

    return fallbacks_of(hooked)


# -- the local process pool ----------------------------------------------------------------------

_FLUSH_SECONDS = 0.05

# What a worker sends back: results, or the error that stopped it.
_Message = tuple[Literal["results"], list[GameResult]] | tuple[Literal["error"], BaseException]


def _pool_worker(tasks: Queue[_Batch | None], results: Queue[_Message], parent: int) -> None:
    """Play batches until told to stop, sending each result when its game ends.

    Results of quick games are grouped (a send every 50 ms at most) to cut the overhead. A
    worker ends with its parent, however that ends (SIGTERM, SIGKILL): on Linux the kernel
    sends it SIGTERM when the parent dies; elsewhere it sees that it has a new parent while
    it waits for a batch.
    """
    end_with_parent(parent)
    while (batch := _next_batch(tasks, parent)) is not None:
        try:
            pending: list[GameResult] = []
            flushed = -math.inf
            for result in _play_batch(batch):
                pending.append(result)
                now = time.monotonic()
                # A game that took long goes out at once (its send is 50 ms overdue).
                if now - flushed >= _FLUSH_SECONDS:
                    results.put(("results", pending))
                    pending, flushed = [], now
            if pending:
                results.put(("results", pending))
        except Exception as exc:
            results.put(("error", _sendable(exc)))
            return


def _next_batch(tasks: Queue[_Batch | None], parent: int) -> _Batch | None:
    """The next batch, or None when told to stop or when the parent has gone."""
    import queue

    while True:
        try:
            return tasks.get(timeout=_PARENT_POLL_SECONDS)
        except queue.Empty:
            if os.getppid() != parent:
                return None


_PARENT_POLL_SECONDS = 1.0


def _sendable(exc: Exception) -> BaseException:
    """``exc`` with the worker's traceback as a note, or a RuntimeError if it cannot pickle."""
    exc.add_note("(raised in a simulate worker process:)\n" + traceback.format_exc())
    try:
        pickle.dumps(exc)
    except Exception:
        return RuntimeError(f"a simulate worker failed: {exc!r}")
    return exc


_BATCHES_AHEAD = 4
"""Batches queued per worker, beyond those being played: enough to keep every worker busy."""


def _pool_results(
    batches: Iterator[_Batch], games: int, workers: int, size: int
) -> Iterator[GameResult]:
    import multiprocessing  # here: importing the library stays quick
    import queue

    context: Any = (
        multiprocessing.get_context("fork")
        if _fork_is_safe()
        else multiprocessing.get_context("spawn")
    )
    tasks: Queue[_Batch | None] = context.Queue()
    results: Queue[_Message] = context.Queue()
    processes = [
        context.Process(target=_pool_worker, args=(tasks, results, os.getpid()), daemon=True)
        for _ in range(workers)
    ]
    try:
        # Workers start with Ctrl-C ignored: the interrupt is this process's to handle, and
        # workers must not print tracebacks. A spawned or forked Python keeps an ignored
        # SIGINT ignored. They start before the first task is queued, which starts the
        # queue's feeder thread: a fork then copies a process with no other thread.
        with _sigint_ignored():
            for process in processes:
                process.start()
        # Batches are queued as games come back, a few per worker ahead: a run of a billion
        # games never holds a billion batches.
        window = _BATCHES_AHEAD * workers * size
        queued = received = 0
        while received < games:
            while queued < games and queued - received < window:
                batch = next(batches)
                tasks.put(batch)
                queued += batch.count
                if queued == games:
                    for _ in range(workers):
                        tasks.put(None)
            try:
                kind, payload = results.get(timeout=0.2)
            except queue.Empty:
                # A worker that died (killed, out of memory) never sends its games: say so
                # rather than wait for ever.
                for process in processes:
                    if process.exitcode not in (None, 0):
                        raise RuntimeError(
                            f"a simulate worker process stopped with exit code "
                            f"{process.exitcode} before its games were played"
                        ) from None
                continue
            if kind == "error":
                assert isinstance(payload, BaseException)
                raise payload
            assert isinstance(payload, list)
            received += len(payload)
            yield from payload
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            if process.pid is not None:
                process.join()
        tasks.cancel_join_thread()  # batches left in the queue: nobody will read them
        tasks.close()
        results.close()


def _fork_is_safe() -> bool:
    """Whether the pool forks its workers (where it is safe) rather than spawns them.

    A forked worker starts in milliseconds with everything this process has imported and
    worked out; a spawned one imports the library again (about 0.4 s of CPU). Forking is
    safe only on Linux and only while this process runs no other thread (a thread holding a
    lock at the fork would leave that lock held in the worker for ever), so a program with
    threads of its own gets spawned workers.
    """
    return sys.platform.startswith("linux") and threading.active_count() == 1


class _sigint_ignored:  # noqa: N801 - used as a context manager, reads as one
    """Ignore SIGINT inside the block (only where Python allows: the main thread)."""

    def __enter__(self) -> None:
        self.previous: Any = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
