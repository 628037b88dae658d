"""Adapters to game-AI frameworks. Each module needs its extra; this package imports nothing.

- ``tricky_treats.adapters.observation``: a versioned encoding of a ``PlayerView`` as a flat
  numeric array, and the legal-action mask (numpy; in both extras below).
- ``tricky_treats.adapters.pettingzoo``: a PettingZoo AEC environment
  (``pip install 'tricky-treats[pettingzoo]'``).
- ``tricky_treats.adapters.openspiel``: the OpenSpiel game ``python_tricky_treats``
  (``pip install 'tricky-treats[openspiel]'``).

``import tricky_treats`` imports none of them, nor numpy, PettingZoo or OpenSpiel.
"""

from __future__ import annotations

__all__: list[str] = []
