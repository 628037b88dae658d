"""``simulate()`` on Ray: batches of games as Ray tasks (the ``ray`` extra).

Imported only when the Ray backend is asked for; the tasks play ``simulation``'s batches.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from tricky_treats._extras import install_hint
from tricky_treats.errors import ConfigurationError
from tricky_treats.simulation import _BATCHES_AHEAD, GameResult, _default_batch, _play_batch

if TYPE_CHECKING:
    from tricky_treats.simulation import _Batch as Batch

__all__ = ["ray_module", "ray_results"]


def ray_module() -> Any:
    """The ``ray`` package, or a ConfigurationError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ConfigurationError(f"the ray backend needs Ray: {install_hint('ray')}") from None
    return ray


def _ray_batch(batch: Batch) -> list[GameResult]:
    """One task: the batch's games, played in the Ray worker."""
    return list(_play_batch(batch))


def ray_results(
    games: int,
    batches: Callable[[int], Iterator[Batch]],
    batch_size: int | None,
    address: str | None,
) -> Iterator[GameResult]:
    """The results of ``batches`` played as Ray tasks, a few per CPU ahead, as they finish."""
    ray = ray_module()
    started = not ray.is_initialized()
    if started:
        ray.init(address=address)
    remote = ray.remote(_ray_batch)
    pending: list[Any] = []
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        waiting = batches(batch_size or _default_batch(games, cpus))
        ahead = _BATCHES_AHEAD * cpus  # tasks submitted as others finish, never all at once
        pending = [remote.remote(b) for b in itertools.islice(waiting, ahead)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            pending += [remote.remote(b) for b in itertools.islice(waiting, 1)]
            yield from ray.get(ready[0])
    finally:
        for ref in pending:  # interrupted or failed: stop the rest
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
