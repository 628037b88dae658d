"""``replay --svg``: one picture per position and a page that steps through them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from tricky_treats.drawing import board_svg
from tricky_treats.i18n import _, language
from tricky_treats.views import PlayerView

if TYPE_CHECKING:
    from rich.console import Console

from tricky_treats.cli.common import CommandError, _write, os_reason

__all__: list[str] = []


class _Frames:
    """The pictures of ``replay --svg``: one SVG per position and a page stepping through them."""

    def __init__(self, folder: Path | None, names: list[str]) -> None:
        self.folder = folder
        self.names = names
        self.captions: list[str] = []
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CommandError(
                    _("cannot write {file}: {reason}").format(file=folder, reason=os_reason(exc))
                ) from None

    def add(self, view: PlayerView, caption: str) -> None:
        if self.folder is None:
            return
        _write(self.folder / f"move-{len(self.captions):03}.svg", board_svg(view).rstrip("\n"))
        self.captions.append(caption)

    def write(self, console: Console) -> None:
        """Write index.html, the page that steps through the pictures written so far."""
        if self.folder is None:
            return
        _write(self.folder / "index.html", _replay_page(self.captions, ", ".join(self.names)))
        console.print(
            _(
                "Pictures of {count} positions in {folder}; open {page} to step through them."
            ).format(count=len(self.captions), folder=self.folder, page=self.folder / "index.html"),
            markup=False,
        )


def _script_json(value: object) -> str:
    """``value`` as JSON that can stand inside a ``<script>`` element as it is.

    A caption holds players' names, which come from any record: ``</script>`` or ``<!--`` in
    one must not end the script or open a comment, so ``<``, ``>`` and ``&`` are written as
    escapes (JSON and JavaScript read them back as the same characters), and so are U+2028
    and U+2029, which older JavaScript reads as line ends.
    """
    text = json.dumps(value, ensure_ascii=False)
    for character, escaped in _SCRIPT_ESCAPES:
        text = text.replace(character, escaped)
    return text


_SCRIPT_ESCAPES = (
    ("&", "\\u0026"),
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def _replay_page(captions: list[str], players: str) -> str:
    """A self-contained HTML page showing move-NNN.svg one at a time (buttons, arrow keys).

    In the language the command speaks: its ``lang``, title, buttons and "position N of M".
    """
    from html import escape

    items = _script_json(captions)
    title = escape(_("Tricky Treats replay: {players}").format(players=players))
    where = _script_json(_("position {number} of {count}"))
    first, previous, next_, last = map(escape, (_("first"), _("previous"), _("next"), _("last")))
    return f"""<!doctype html>
<html lang="{language().replace("_", "-")}"><head><meta charset="utf-8">
<title>{title}</title>
<style>body{{font-family:sans-serif;margin:1em;background:#fdf6e3}}
nav{{display:flex;gap:.5em;align-items:center;margin:.5em 0}}
img{{max-width:100%;height:auto;border:1px solid #ccc}}</style></head>
<body><h1>{title}</h1>
<nav><button id="first">&laquo; {first}</button>
<button id="prev">&#x25C0; {previous}</button>
<button id="next">{next_} &#x25B6;</button>
<button id="last">{last} &raquo;</button>
<span id="where" aria-live="polite"></span></nav>
<p id="caption" aria-live="polite"></p>
<img id="picture" alt="" src="move-000.svg">
<script>
const captions = {items};
const where = {where};
let at = 0;
function show(i) {{
  at = Math.max(0, Math.min(captions.length - 1, i));
  const name = "move-" + String(at).padStart(3, "0") + ".svg";
  document.getElementById("picture").src = name;
  document.getElementById("picture").alt = captions[at];
  document.getElementById("caption").textContent = captions[at];
  document.getElementById("where").textContent = where
    .replace("{{number}}", at + 1).replace("{{count}}", captions.length);
}}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(captions.length - 1);
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowRight") show(at + 1);
  if (e.key === "ArrowLeft") show(at - 1);
}});
show(0);
</script></body></html>"""
