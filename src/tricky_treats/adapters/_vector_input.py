"""What the vector env takes from its caller, checked: its size, its seeds, its actions.

Private to ``adapters.vector``; each check raises the library's error with a short message
naming the first bad value (``errors.brief``), before anything of the env changes.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np
import numpy.typing as npt

from tricky_treats.errors import ConfigurationError, brief

__all__ = ["MAX_ENVS", "checked_size", "first_no_code", "seeds_of"]

MAX_ENVS = 16_384
"""The most envs one ``TrickyTreatsVectorEnv`` steps: its arrays take about 27 KB per env at 4
players (450 MB at the most), beside each game's simulator."""

_SEEDS_END = 1 << 63
"""Seeds are below this: ``infos["seed"]`` holds them as int64."""


def checked_size(num_envs: object) -> int:
    """``num_envs``, a whole number from 1 to ``MAX_ENVS``; else ``ConfigurationError``."""
    if type(num_envs) is not int or not 1 <= num_envs <= MAX_ENVS:
        raise ConfigurationError(
            f"num_envs must be a whole number from 1 to {MAX_ENVS:,}, got {brief(num_envs)}"
        )
    return num_envs


def first_no_code(actions: object, found: npt.NDArray[Any]) -> tuple[int, Any] | None:
    """The first env whose action is no code (a bool, a masked value), with that value.

    ``found`` is ``np.asarray(actions)``, which reads a bool as 0 or 1 among ints and the
    value under a mask as any other.
    """
    if found.dtype.kind == "b":
        return 0, found[0]
    if isinstance(actions, np.ma.MaskedArray):
        masked = np.flatnonzero(np.ma.getmaskarray(actions))
        if len(masked):
            env = int(masked[0])
            return env, actions[env]
        return None
    if isinstance(actions, list | tuple):
        for env, value in enumerate(actions):
            if isinstance(value, bool | np.bool_):
                return env, value
    return None


def seeds_of(seed: object, n: int) -> list[int]:
    """The games' seeds of ``reset(seed=seed)`` for ``n`` envs, each checked.

    ``ConfigurationError`` for anything but None, a whole number or ``n`` of them (Python's or
    numpy's ints, never bools), or a seed outside 0 to 2**63 - 1 (``infos["seed"]`` holds
    int64s); the message names the first bad one, cut short.
    """
    if seed is None:
        return [secrets.randbits(63) for _ in range(n)]
    if _whole(seed):
        first = int(seed)  # type: ignore[call-overload]
        if not 0 <= first <= _SEEDS_END - n:
            raise ConfigurationError(
                f"reset(seed=s) deals env i the seed s + i, so s must be a whole number from 0 "
                f"to 2**63 - {n} for {n} envs, got {brief(seed)}"
            )
        return list(range(first, first + n))
    if not isinstance(seed, list | tuple | np.ndarray) or np.ndim(seed) != 1:
        raise ConfigurationError(
            f"reset takes a seed (a whole number), {n} seeds (a list, one per env) or None, "
            f"got {brief(seed)}"
        )
    if len(seed) != n:
        raise ConfigurationError(f"reset needs {n} seeds, one per env, got {len(seed)}")
    seeds: list[int] = []
    for env, value in enumerate(seed):
        if not _whole(value) or not 0 <= int(value) < _SEEDS_END:
            raise ConfigurationError(
                f"env {env}: a seed must be a whole number from 0 to 2**63 - 1, got {brief(value)}"
            )
        seeds.append(int(value))
    return seeds


def _whole(value: object) -> bool:
    """Whether ``value`` is a whole number: an int or a numpy integer, never a bool."""
    return type(value) is int or isinstance(value, np.integer)
