"""A tiny SVG writer: panels of elements, escaped text, and the icons as shared symbols."""

from __future__ import annotations

import html

from tricky_treats.components import (
    TrickIcon,
)
from tricky_treats.drawing.style import _INK

__all__: list[str] = []


# -- a tiny SVG writer ---------------------------------------------------------------------------


def _e(text: object) -> str:
    """``text`` escaped for XML content and attribute values."""
    return html.escape(str(text), quote=True)


class _Panel:
    """One part of the picture: its elements, in its own coordinates, and its size."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.items: list[str] = []

    def add(self, item: str) -> None:
        self.items.append(item)

    def text(
        self,
        x: float,
        y: float,
        content: object,
        *,
        size: int = 13,
        weight: str = "normal",
        fill: str = _INK,
        anchor: str = "start",
    ) -> None:
        self.add(
            f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}">{_e(content)}</text>'
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = "none",
        stroke: str = _INK,
        radius: float = 6,
        extra: str = "",
    ) -> None:
        self.add(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{radius:g}" '
            f'fill="{fill}" stroke="{stroke}"{extra}/>'
        )

    def use(self, symbol: str, x: float, y: float, size: float, label: str) -> None:
        self.add(
            f'<use href="#tt-{symbol}" x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}">'
            f"<title>{_e(label)}</title></use>"
        )

    def heading(self, content: str) -> None:
        self.text(0, 18, content, size=16, weight="bold")


_SYMBOLS = (
    # A spiderweb: spokes and two rings.
    '<symbol id="tt-spiderweb" viewBox="0 0 24 24"><g fill="none" stroke="#333" '
    'stroke-width="1.2"><path d="M12 1V23M1 12H23M4.2 4.2L19.8 19.8M19.8 4.2L4.2 19.8"/>'
    '<circle cx="12" cy="12" r="4"/><circle cx="12" cy="12" r="8.5"/></g></symbol>'
    # A toilet paper roll with its tail.
    '<symbol id="tt-toilet-paper" viewBox="0 0 24 24"><path d="M4 17V22H14" fill="none" '
    'stroke="#333" stroke-width="1.2"/><rect x="3" y="5" width="13" height="12" rx="1" '
    'fill="#fff" stroke="#333" stroke-width="1.2"/><ellipse cx="16" cy="11" rx="3.5" ry="6" '
    'fill="#f2f2f2" stroke="#333" stroke-width="1.2"/><ellipse cx="16" cy="11" rx="1.2" '
    'ry="2.2" fill="#333"/></symbol>'
    # A crashed egg: a white splat round a yolk.
    '<symbol id="tt-egg" viewBox="0 0 24 24"><path d="M2 15Q3 9 8 11Q10 4 15 9Q21 7 22 14'
    'Q23 21 12 21Q1 21 2 15Z" fill="#fff" stroke="#333" stroke-width="1.2"/>'
    '<circle cx="12" cy="15" r="4" fill="#f5b800" stroke="#b37f00"/></symbol>'
    # A pumpkin.
    '<symbol id="tt-pumpkin" viewBox="0 0 24 24"><ellipse cx="12" cy="14.5" rx="10.5" '
    'ry="8" fill="#f07c12" stroke="#9a4700"/><ellipse cx="12" cy="14.5" rx="4" ry="8" '
    'fill="none" stroke="#9a4700"/><path d="M11 7Q11 3 14 2" fill="none" stroke="#3d7a1f" '
    'stroke-width="2.5"/></symbol>'
)
_ICON_SYMBOL = {
    TrickIcon.SPIDERWEB: "spiderweb",
    TrickIcon.TOILET_PAPER: "toilet-paper",
    TrickIcon.EGG: "egg",
}
