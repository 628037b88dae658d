"""A griffe extension for the API reference: doctest examples render as code blocks.

The docstrings are Markdown and keep their examples as plain ``>>>`` lines, which
``pytest --doctest-modules`` runs. Markdown would read ``>>>`` as nested block quotes, so this
extension wraps each run of example lines (up to the next blank line) in a ``pycon`` fence
before mkdocstrings renders the docstring. The source is not changed.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every doctest block wrapped in a fenced ``pycon`` code block."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if in_fence or not stripped.startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        if out and out[-1].strip():
            out.append("")
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one."""
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
