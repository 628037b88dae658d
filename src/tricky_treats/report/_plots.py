"""The report's plots: matplotlib figures saved as SVG with stable bytes.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot, so no global figure state
and no GUI backend), and saved with a fixed SVG hash salt and no date, so the same numbers
always give the same bytes.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tricky_treats._extras import install_hint
from tricky_treats.report.stats import Interval

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tricky_treats.report import Comparison, Summary

PALETTE = ("#1b6ca8", "#e07b39", "#3a9b5b", "#b8405e", "#7a5fb0", "#8c6d46", "#555555")
"""One colour per sample, colour-blind-friendly enough and the same in every figure."""

_STYLE: dict[str, Any] = {
    "svg.hashsalt": "tricky-treats",  # ids of clip paths are hashes: fix their salt
    "svg.fonttype": "path",  # text as outlines: no font needed to view the report
    "font.family": "DejaVu Sans",  # ships with matplotlib, so the same glyphs everywhere
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    # Labels are samples' and agents' names, shown as written: "$x$" is no formula (and
    # "$\\frac$" no crash).
    "text.parse_math": False,
}


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        from tricky_treats.report import ReportError

        raise ReportError(f"the report's plots need matplotlib: {install_hint('report')}") from None
    return matplotlib


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg_data_uri(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "tricky-treats"})
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _draw(function: Any, *args: Any) -> str:
    matplotlib = _matplotlib()
    with matplotlib.rc_context(_STYLE):
        return _svg_data_uri(function(*args))


def win_rates(summaries: Sequence[Summary]) -> str:
    """Grouped bars of each seat's win rate, with intervals and the fair share."""
    return _draw(_win_rates, summaries)


def _error_bars(intervals: Sequence[Interval], scale: float = 1.0) -> list[list[float]]:
    return [
        [max(0.0, (i.estimate - i.low) * scale) if i.known else 0.0 for i in intervals],
        [max(0.0, (i.high - i.estimate) * scale) if i.known else 0.0 for i in intervals],
    ]


def _win_rates(summaries: Sequence[Summary]) -> Figure:
    figure = _figure(6.4, 3.4)
    axes = figure.add_subplot()
    seats = max(s.sample.players for s in summaries)
    width = 0.8 / len(summaries)
    for index, summary in enumerate(summaries):
        xs = [
            seat + (index - (len(summaries) - 1) / 2) * width
            for seat in range(len(summary.seat_wins))
        ]
        rates = [i.estimate * 100 for i in summary.seat_wins]
        colour = PALETTE[index % len(PALETTE)]
        axes.bar(xs, rates, width * 0.92, color=colour, label=summary.sample.label)
        axes.errorbar(
            xs, rates, yerr=_error_bars(summary.seat_wins, 100), fmt="none", ecolor="#222222",
            capsize=3, linewidth=1,
        )  # fmt: skip
    shares = sorted({s.fair_share for s in summaries})
    for share in shares:
        axes.axhline(share * 100, color="#444444", linestyle="--", linewidth=1)
        axes.annotate(
            f"fair share {share:.0%}", (seats - 0.5, share * 100), xytext=(0, 3),
            textcoords="offset points", ha="right", fontsize=8, color="#444444",
        )  # fmt: skip
    axes.set_xticks(range(seats), [_seat_name(s) for s in range(seats)])
    axes.set_ylabel("games won (%)")
    axes.set_ylim(0, None)
    axes.set_title("Win rate by seat, with 95% Wilson intervals")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=min(4, len(summaries)))
    return figure


def _seat_name(seat: int) -> str:
    return "seat 1 (first)" if seat == 0 else f"seat {seat + 1}"


def scores(summaries: Sequence[Summary], categories: Sequence[str]) -> str:
    """Box plots of a player's points by category, one box per sample."""
    return _draw(_scores, summaries, categories)


def _scores(summaries: Sequence[Summary], categories: Sequence[str]) -> Figure:
    from tricky_treats.report import CATEGORY_TITLES

    figure = _figure(1.7 * len(categories) + 0.6, 3.2)
    panels = figure.subplots(1, len(categories), squeeze=False)[0]
    for axes, category in zip(panels, categories, strict=True):
        data = [
            [seat.points(category) for r in s.sample.results for seat in r.seats] for s in summaries
        ]
        boxes = axes.boxplot(
            data, patch_artist=True, widths=0.6, showmeans=True,
            medianprops={"color": "#222222"},
            meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "#222222",
                       "markersize": 4},
            flierprops={"marker": ".", "markersize": 3, "markeredgecolor": "#888888"},
        )  # fmt: skip
        for index, patch in enumerate(boxes["boxes"]):
            patch.set_facecolor(PALETTE[index % len(PALETTE)])
            patch.set_alpha(0.75)
        axes.set_xticks(range(1, len(summaries) + 1), [""] * len(summaries))
        axes.set_title(CATEGORY_TITLES[category])
    panels[0].set_ylabel("points per player")
    _legend(figure, summaries)
    return figure


def _legend(figure: Figure, summaries: Sequence[Summary]) -> None:
    from matplotlib.patches import Patch

    handles = [
        Patch(color=PALETTE[i % len(PALETTE)], label=s.sample.label)
        for i, s in enumerate(summaries)
    ]
    figure.legend(handles=handles, loc="outside lower center", ncols=min(4, len(handles)))


def lengths(summaries: Sequence[Summary]) -> str:
    """Histograms of game length in actions, one outline per sample."""
    return _draw(_lengths, summaries)


def _lengths(summaries: Sequence[Summary]) -> Figure:
    figure = _figure(6.4, 3.2)
    axes: Axes = figure.add_subplot()
    values = [[r.actions for r in s.sample.results] for s in summaries]
    low = min(min(v) for v in values)
    high = max(max(v) for v in values)
    step = max(1, math.ceil((high - low + 1) / 25))
    edges = list(range(low, high + step + 1, step))
    for index, (summary, data) in enumerate(zip(summaries, values, strict=True)):
        weights = [100 / len(data)] * len(data)
        colour = PALETTE[index % len(PALETTE)]
        axes.hist(
            data, bins=edges, weights=weights, histtype="step", linewidth=1.6, color=colour,
            label=summary.sample.label,
        )  # fmt: skip
        axes.axvline(summary.length.estimate, color=colour, linestyle=":", linewidth=1.2)
    axes.set_xlabel("actions in the game (dotted: mean)")
    axes.set_ylabel("games (%)")
    axes.set_title("Game length")
    axes.legend(fontsize=8)
    return figure


def terminations(summaries: Sequence[Summary], reasons: Sequence[str]) -> str:
    """Stacked bars of how the games ended, one bar per sample."""
    return _draw(_terminations, summaries, reasons)


_REASON_COLOURS = ("#5b8db8", "#e3a857", "#7fb77e", "#c06c84", "#999999", "#6c5b7b")


def _terminations(summaries: Sequence[Summary], reasons: Sequence[str]) -> Figure:
    figure = _figure(6.4, 0.6 + 0.45 * len(summaries) + 0.5)
    axes = figure.add_subplot()
    labels = [s.sample.label for s in summaries][::-1]
    left = [0.0] * len(summaries)
    for index, reason in enumerate(reasons):
        shares = []
        for summary in summaries[::-1]:
            found = [i.estimate for r, _, i in summary.terminations if r == reason]
            shares.append(found[0] * 100 if found else 0.0)
        axes.barh(
            labels, shares, left=left, height=0.6, label=reason,
            color=_REASON_COLOURS[index % len(_REASON_COLOURS)],
        )  # fmt: skip
        left = [a + b for a, b in zip(left, shares, strict=True)]
    axes.set_xlim(0, 100)
    axes.set_xlabel("games (%)")
    axes.set_title("How games end")
    axes.grid(axis="y", visible=False)
    figure.legend(loc="outside lower center", ncols=min(4, len(reasons)), fontsize=8)
    return figure


def differences(comparison: Comparison, categories: Sequence[str]) -> str:
    """Forest plots of the differences of a comparison, each with its interval."""
    return _draw(_differences, comparison, categories)


def _forest(axes: Axes, rows: Sequence[tuple[str, Interval]], scale: float, unit: str) -> None:
    names = [name for name, _ in rows][::-1]
    values = [i.estimate * scale for _, i in rows][::-1]
    bars = _error_bars([i for _, i in rows][::-1], scale)
    significant = [i.excludes(0) for _, i in rows][::-1]
    colours = ["#b8405e" if s else "#1b6ca8" for s in significant]
    axes.axvline(0, color="#444444", linewidth=1)
    positions = list(range(len(rows)))
    axes.errorbar(
        values, positions, xerr=bars, fmt="none", ecolor="#555555", capsize=3, linewidth=1
    )
    axes.scatter(values, positions, color=colours, zorder=3, s=18)
    axes.set_yticks(positions, names)
    axes.set_xlabel(unit)
    axes.grid(axis="y", visible=False)


def _differences(comparison: Comparison, categories: Sequence[str]) -> Figure:
    from tricky_treats.report import CATEGORY_TITLES

    panels = []
    if comparison.seat_wins:
        panels.append(
            (
                "Win rate",
                [(_seat_name(s), i) for s, i in enumerate(comparison.seat_wins)],
                100.0,
                "percentage points",
            )
        )
    panels.append(
        (
            "Points per player",
            [(CATEGORY_TITLES[c], comparison.points[c]) for c in categories],
            1.0,
            "points",
        )
    )
    panels.append(("Game length", [("actions", comparison.length)], 1.0, "actions"))
    figure = _figure(2.6 * len(panels) + 0.8, 2.8)
    grid = figure.subplots(
        1, len(panels), squeeze=False,
        gridspec_kw={"width_ratios": [1.0] * len(panels)},
    )[0]  # fmt: skip
    for axes, (title, rows, scale, unit) in zip(grid, panels, strict=True):
        _forest(axes, rows, scale, unit)
        axes.set_title(title)
    figure.suptitle(
        f"{comparison.other.sample.label} minus {comparison.baseline.sample.label}: "
        "differences with 95% intervals (red: significant)",
        fontsize=9,
    )
    return figure
