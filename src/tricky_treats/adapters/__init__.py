"""Adapters to game-AI frameworks. Each module needs its extra; this package imports nothing.

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

``import tricky_treats`` imports none of them, nor numpy, gymnasium, PettingZoo or OpenSpiel,
and neither does importing this package: ``import tricky_treats.adapters.gym`` registers
``tricky_treats/TrickyTreats-v0`` in Gymnasium's registry.
"""

from __future__ import annotations

__all__: list[str] = []
