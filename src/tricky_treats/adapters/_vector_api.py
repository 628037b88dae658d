"""Gymnasium's conventions shared by the vector envs (needs gymnasium and numpy).

Private to ``adapters.vector`` and ``adapters.gym``: the types of a batch, the render modes,
the seeds of ``reset`` with ``np_random`` seeded as Gymnasium seeds it, and ``call``,
``get_attr``, ``set_attr`` and ``render`` for envs whose games share one env object.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from gymnasium.vector import VectorEnv

from tricky_treats.adapters._text import view_text
from tricky_treats.adapters._vector_input import seeds_of
from tricky_treats.errors import ConfigurationError
from tricky_treats.simulator import Simulator

__all__ = [
    "RENDER_MODES",
    "Actions",
    "Observations",
    "Seed",
    "SharedCalls",
    "checked_render_mode",
    "reset_seeds",
]

Observations = npt.NDArray[np.float32]
"""A batch of observations, ``(num_envs, observation_size)``."""
Actions = npt.NDArray[np.int64]
"""A batch of action codes, ``(num_envs,)``."""
Seed = int | np.integer[Any] | Sequence[int] | npt.NDArray[np.integer[Any]] | None
"""What ``reset(seed=...)`` takes: a whole number, one per env, or None."""

RENDER_MODES = ("ansi",)
"""The render modes: ``"ansi"``, each game's view of the player to move as text."""


def checked_render_mode(render_mode: object) -> str | None:
    """``render_mode``, None or one of ``RENDER_MODES``; else ``ConfigurationError``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigurationError(
            f"render_mode must be None or one of {list(RENDER_MODES)}, got {render_mode!r}"
        )
    return render_mode


def reset_seeds(env: VectorEnv[Any, Any, Any], seed: Seed) -> list[int]:
    """The games' seeds of ``env.reset(seed=seed)``, ``env.np_random`` seeded as Gymnasium's.

    A seed ``s`` gives env ``i`` the seed ``s + i`` and seeds ``np_random`` with
    ``seeding.np_random(s)``; a list gives each env its seed and seeds ``np_random`` with
    them all (its ``np_random_seed`` then -1, unknown); None draws the seeds from
    ``np_random``. Every seed is checked before anything changes.
    """
    n = env.num_envs
    if seed is None:
        drawn: list[int] = env.np_random.integers(0, 1 << 63, size=n, dtype=np.int64).tolist()
        return drawn
    seeds = seeds_of(seed, n)
    if isinstance(seed, int | np.integer):
        env._np_random, env._np_random_seed = seeding.np_random(int(seed))
    else:
        env._np_random, env._np_random_seed = np.random.default_rng(seeds), -1
    return seeds


class SharedCalls:
    """``call``, ``get_attr``, ``set_attr`` and ``render`` of a vector env of shared games."""

    num_envs: int
    render_mode: str | None

    @property
    def simulators(self) -> tuple[Simulator, ...]:
        raise NotImplementedError  # pragma: no cover - each env has its games

    def render(self) -> tuple[str, ...] | None:
        """With ``render_mode="ansi"``, each game's view of its player to move, as text.

        The agent's view, in an env where the agent is to move in every game.
        """
        if self.render_mode is None:
            return None
        texts = []
        for sim in self.simulators:
            state = sim.state()
            seat = state.current_player
            assert seat is not None  # a finished game is dealt again at once
            texts.append(view_text(state.view(seat)))
        return tuple(texts)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """The env's attribute ``name`` (called with the arguments if a method), per env.

        The games share this one env object (there are no sub-env objects), so the value
        is read or the method called once, and given once per env, as ``SyncVectorEnv``
        gives its sub-envs' values.
        """
        value = getattr(self, name)
        if callable(value):
            value = value(*args, **kwargs)
        return (value,) * self.num_envs

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The env's attribute ``name``, once per env (see ``call``)."""
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | object) -> None:
        """Set the env's public attribute ``name`` to ``values``, one value or one per env.

        The games share the env, so values given per env must all be the same one; else
        ``ConfigurationError``, and nothing changes. Only ``render_mode`` is checked here:
        the others are set as given.
        """
        if name.startswith("_") or not hasattr(self, name):
            raise ConfigurationError(f"set_attr sets a public attribute of the env, not {name!r}")
        value = values
        if isinstance(values, list | tuple):
            first = values[0]
            if len(values) != self.num_envs or any(not _same(v, first) for v in values):
                raise ConfigurationError(
                    f"set_attr({name!r}): the {self.num_envs} envs share one value; give it "
                    f"alone or {self.num_envs} times"
                )
            value = first
        if name == "render_mode":
            value = checked_render_mode(value)
        setattr(self, name, value)


def _same(value: object, other: object) -> bool:
    """Whether two values given to ``set_attr`` are one: the same object, or equal scalars."""
    scalars = str | int | float | bool
    return value is other or (
        isinstance(value, scalars) and type(value) is type(other) and value == other
    )
