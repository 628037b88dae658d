"""The types of ``Simulator.new_game``'s arguments (``new_game``'s), outside the compiled group.

mypyc checks the arguments of a compiled function against their annotations when it is
called, and raises ``TypeError``; ``new_game`` checks its arguments itself and raises the
library's own errors (a seed of ``1.0``, a first player of ``True``), and takes any truthy
value for a rule option. Named here, in a module mypyc does not compile (it follows no
import), these types are ``Any`` to mypyc and precise to every other type checker.
"""

from __future__ import annotations

from typing import TypeAlias

__all__: list[str] = []

Seed: TypeAlias = int | None
"""A seed: a whole number from 0 to 2**128 - 1, or None for a fresh one."""
Seat: TypeAlias = int
"""A seat: a whole number from 0 to the players less one."""
Flag: TypeAlias = bool
"""A rule option, switched on or off."""
