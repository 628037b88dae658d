"""Adapters to game-AI frameworks. Each module needs its extra.

- ``tricky_treats.adapters.observation``: a versioned encoding of a ``PlayerView`` as a flat
  numeric array, and the legal-action mask (numpy; in both extras below).
- ``tricky_treats.adapters.vector``: N games stepped at once, a ``gymnasium.vector.VectorEnv``
  (``pip install 'tricky-treats[pettingzoo]'``, which brings gymnasium and numpy).
- ``tricky_treats.adapters.gym``: one seat against chosen opponents, a ``gymnasium.Env``
  registered as ``tricky_treats/TrickyTreats-v0``, and its batched form (the same extra).
- ``tricky_treats.adapters.pettingzoo``: a PettingZoo AEC environment
  (``pip install 'tricky-treats[pettingzoo]'``).
- ``tricky_treats.adapters.openspiel``: the OpenSpiel game ``python_tricky_treats``
  (``pip install 'tricky-treats[openspiel]'``).

Where gymnasium is installed, importing this package registers
``tricky_treats/TrickyTreats-v0`` in Gymnasium's registry (by name: the env's module is
imported by ``gymnasium.make`` when first made), as Gymnasium users expect of a package of
environments. ``import tricky_treats`` imports none of this, nor numpy or gymnasium.
"""

from __future__ import annotations

import importlib.util

__all__: list[str] = []

if importlib.util.find_spec("gymnasium") is not None:
    import gymnasium

    if "tricky_treats/TrickyTreats-v0" not in gymnasium.registry:  # gym.ENV_ID
        gymnasium.register(
            id="tricky_treats/TrickyTreats-v0",
            entry_point="tricky_treats.adapters.gym:TrickyTreatsEnv",
            vector_entry_point="tricky_treats.adapters.gym:TrickyTreatsSeatVectorEnv",
        )
