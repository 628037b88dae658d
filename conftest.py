"""Collect the game-AI adapters' doctests where their peers are installed.

``.ci/run`` installs both extras, so CI always runs them; elsewhere the adapter modules
cannot even be imported.
"""

from __future__ import annotations

import importlib.util

_ADAPTERS = "src/tricky_treats/adapters"
_NEEDS = {
    f"{_ADAPTERS}/observation.py": "numpy",
    f"{_ADAPTERS}/pettingzoo.py": "pettingzoo",
    f"{_ADAPTERS}/openspiel.py": "pyspiel",
}

collect_ignore = [path for path, module in _NEEDS.items() if not importlib.util.find_spec(module)]
