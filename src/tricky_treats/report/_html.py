"""The report as one self-contained HTML page: sentences, plots and tables of numbers."""

from __future__ import annotations

import html
from collections.abc import Sequence

from tricky_treats import __version__
from tricky_treats.report import CATEGORIES, CATEGORY_TITLES, Comparison, Summary, _reasons
from tricky_treats.report import _plots as plots
from tricky_treats.report.stats import Interval

MINUS = "\u2212"

_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       margin: 0; background: #fafafa; }
main { max-width: 1180px; margin: 0 auto; padding: 1.5rem 2rem 4rem; background: #fff; }
h1 { font-size: 1.7rem; margin: 0 0 .2rem; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 .6rem; border-bottom: 2px solid #e5e5e5; }
.meta { color: #666; margin: 0 0 1rem; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.pair > figure { flex: 1 1 560px; margin: 0; }
.pair > .numbers { flex: 1 1 380px; overflow-x: auto; }
figure.wide { margin: 0 0 1rem; }
figure img { width: 100%; height: auto; display: block; }
table { border-collapse: collapse; font-size: .86rem; margin: 0 0 .8rem;
        font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { padding: .22rem .55rem; border-bottom: 1px solid #e5e5e5; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid #ccc; }
td.label, th.label { text-align: left; }
.significant { color: #9b1c3c; font-weight: 600; }
.not-significant { color: #555; }
.note { color: #555; font-size: .9rem; }
ul.findings li { margin-bottom: .35rem; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _signed(value: float, digits: int = 1) -> str:
    text = f"{value:+.{digits}f}"
    if float(text) == 0:
        return text[1:]  # no sign on a zero, not even on one rounded from -0.001
    return text.replace("-", MINUS)


def _number(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}".replace("-", MINUS)


def _count(value: float) -> str:
    """Wins may be shares of ties: 12.5 rather than 12.500."""
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}".rstrip("0")


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _range(interval: Interval, show: str = "percent", signed: bool = False) -> str:
    if not interval.known:
        return "n/a (too few games)"
    if show == "percent":
        scale, digits = 100.0, 1
    else:
        scale, digits = 1.0, 2
    form = _signed if signed else _number
    low, high = form(interval.low * scale, digits), form(interval.high * scale, digits)
    suffix = "%" if show == "percent" and not signed else ""
    return f"{low}{suffix} to {high}{suffix}"


def _verdict(interval: Interval) -> str:
    if not interval.known:
        return '<td class="not-significant">too few games</td>'
    if interval.excludes(0):
        return '<td class="significant">significant</td>'
    return '<td class="not-significant">not significant</td>'


def _seat_name(seat: int) -> str:
    return "seat 1 (first player)" if seat == 0 else f"seat {seat + 1}"


def _bots(summary: Summary) -> str:
    agents = [seat.agent for seat in summary.sample.results[0].seats]
    kinds = sorted(set(agents))
    if len(kinds) == 1:
        return f"{kinds[0]} in every seat"
    return ", ".join(agents) + " (rotating seats)"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], caption: str = "") -> str:
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption>{_e(caption)}</caption>")
    # A heading that starts with "<" heads a column of text, aligned left like it.
    parts.append(
        "<thead><tr>"
        + "".join(
            f'<th class="label">{_e(h[1:])}</th>' if h.startswith("<") else f"<th>{_e(h)}</th>"
            for h in head
        )
        + "</tr></thead>"
    )
    parts.append("<tbody>")
    for row in rows:
        cells = "".join(c if c.startswith("<td") else f"<td>{c}</td>" for c in row)
        parts.append(f"<tr>{cells}</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def _figure(uri: str, alt: str, wide: bool = False) -> str:
    css = ' class="wide"' if wide else ""
    return f'<figure{css}><img src="{uri}" alt="{_e(alt)}"></figure>'


def _categories(summaries: Sequence[Summary]) -> list[str]:
    """The categories to show: variant extras only where some game has any."""
    return [
        c
        for c in CATEGORIES
        if c != "extras"
        or any(seat.extras for s in summaries for r in s.sample.results for seat in r.seats)
    ]


# -- sentences -----------------------------------------------------------------------------------


def _first_seat_sentence(summary: Summary) -> str:
    rate = summary.seat_wins[0]
    fair = summary.fair_share
    label = f"<strong>{_e(summary.sample.label)}</strong>"
    head = (
        f"{label}: the first player wins {_percent(rate.estimate)} of {summary.games} games "
        f"(95% Wilson interval {_range(rate)}), against a fair share of {_percent(fair)} "
        f"for {summary.sample.players} players"
    )
    if not rate.known:
        return head + "."
    if rate.excludes(fair):
        more = "more" if rate.estimate > fair else "less"
        return f"{head}: significantly {more} than a fair share."
    return (
        f"{head}: not significantly different from a fair share; these games show no "
        "first-player advantage."
    )


def _seat_test_sentence(summary: Summary) -> str:
    test = summary.seat_test
    head = (
        f"Across all {summary.sample.players} seats of {_e(summary.sample.label)}, Pearson's "
        f"chi-square test of equal win rates gives &chi;&sup2; = {test.statistic:.2f} with "
        f"{test.freedom} degree{'s' if test.freedom != 1 else ''} of freedom, "
        f"p = {test.p_value:.3f}"
    )
    if test.significant:
        return f"{head}: the seats do not win equally often."
    return f"{head}: the difference between seats is not significant."


def _difference_sentence(
    what: str, interval: Interval, unit: str, scale: float, comparison: Comparison
) -> str:
    other = _e(comparison.other.sample.label)
    base = _e(comparison.baseline.sample.label)
    if not interval.known:
        return f"The difference in {what} between {other} and {base} needs more games."
    value = interval.estimate * scale
    if interval.low == interval.high == 0:
        return f"{what[0].upper() + what[1:]} is the same in {other} and {base} in every game."
    span = f"{_signed(interval.low * scale, 2)} to {_signed(interval.high * scale, 2)} {unit}"
    if interval.excludes(0):
        direction = "higher" if value > 0 else "lower"
        return (
            f"{what[0].upper() + what[1:]} is {direction} in {other} than in {base} by "
            f"{_number(abs(value), 2)} {unit} (95% interval {span}): a significant difference."
        )
    return (
        f"The difference in {what} ({_signed(value, 2)} {unit}, 95% interval {span}) is not "
        f"significant: these games cannot tell {other} and {base} apart on it."
    )


# -- sections ------------------------------------------------------------------------------------


def _summary_section(summaries: Sequence[Summary], comparisons: Sequence[Comparison]) -> str:
    items = [_first_seat_sentence(s) for s in summaries]
    items += [_seat_test_sentence(s) for s in summaries]
    for comparison in comparisons:
        if comparison.seat_wins:
            items.append(
                _difference_sentence(
                    "the first player's win rate", comparison.seat_wins[0], "percentage points",
                    100, comparison,
                )
            )  # fmt: skip
        items.append(
            _difference_sentence(
                "mean points per player", comparison.points["total"], "points", 1, comparison
            )
        )
        items.append(
            _difference_sentence("mean game length", comparison.length, "actions", 1, comparison)
        )
    body = "".join(f"<li>{item}</li>" for item in items)
    return _section("summary", "What the games show", f'<ul class="findings">{body}</ul>')


def _configurations_section(summaries: Sequence[Summary]) -> str:
    rows = []
    for summary in summaries:
        sample = summary.sample
        rows.append(
            [
                f'<td class="label">{_e(sample.label)}</td>',
                str(sample.players),
                f'<td class="label">{_e(_bots(summary))}</td>',
                str(summary.games),
                f'<td class="label">{_e(sample.description)}</td>',
            ]
        )
    table = _table(["sample", "players", "<bots", "games", "<games from"], rows)
    note = _note(
        "Seat 1 plays first; turns go in seat order. The first sample is the baseline the "
        "others are compared against."
    )
    return _section("configurations", "Configurations", table, note)


def _win_rates_section(summaries: Sequence[Summary]) -> str:
    figure = _figure(plots.win_rates(summaries), "Win rate by seat with 95% intervals")
    tables = []
    for summary in summaries:
        rows = [
            [
                _seat_name(seat),
                _count(rate.estimate * summary.games),
                _percent(rate.estimate),
                _range(rate),
            ]
            for seat, rate in enumerate(summary.seat_wins)
        ]
        tables.append(
            _table(
                ["seat", "wins", "win rate", "95% Wilson interval"],
                rows,
                f"{summary.sample.label}: {summary.games} games, fair share "
                f"{_percent(summary.fair_share)}",
            )
        )
        if summary.agent_wins:
            tables.append(
                _table(
                    ["bot", "seat-games", "win rate", "95% Wilson interval"],
                    [
                        [f'<td class="label">{_e(a)}</td>', str(n), _percent(i.estimate), _range(i)]
                        for a, n, i in summary.agent_wins
                    ],
                    f"{summary.sample.label}: win rate by bot",
                )
            )
    return _section(
        "win-rates",
        "Win rate by seat",
        _pair(figure, *tables),
        *(_note(_seat_test_sentence(s)) for s in summaries),
        _note("A shared win counts as a share (half each for two winners)."),
    )


def _scores_section(summaries: Sequence[Summary]) -> str:
    categories = _categories(summaries)
    figure = _figure(
        plots.scores(summaries, categories), "Points per player by category", wide=True
    )
    rows = []
    for category in categories:
        for summary in summaries:
            mean = summary.points[category]
            low, q1, median, q3, high = summary.spread[category]
            rows.append(
                [
                    f'<td class="label">{_e(CATEGORY_TITLES[category])}</td>',
                    f'<td class="label">{_e(summary.sample.label)}</td>',
                    _number(mean.estimate, 2),
                    _range(mean, "points"),
                    _number(low, 0),
                    _number(q1, 1),
                    _number(median, 1),
                    _number(q3, 1),
                    _number(high, 0),
                ]
            )
    table = _table(
        ["category", "<sample", "mean", "95% t interval", "min", "Q1", "median", "Q3", "max"],
        rows,
        "Points per player and game",
    )
    note = _note(
        "Boxes: quartiles and median of a player&#8217;s points; diamonds: means. The intervals "
        "treat each game as one observation (the mean over its players), since players' points "
        "in one game are not independent."
    )
    return _section("scores", "Scores by category", figure, table, note)


def _length_section(summaries: Sequence[Summary]) -> str:
    figure = _figure(plots.lengths(summaries), "Histogram of game length in actions")
    rows = []
    for summary in summaries:
        low, _, median, _, high = summary.length_spread
        rows.append(
            [
                f'<td class="label">{_e(summary.sample.label)}</td>',
                str(summary.games),
                _number(summary.length.estimate, 1),
                _range(summary.length, "points"),
                _number(low, 0),
                _number(median, 1),
                _number(high, 0),
            ]
        )
    table = _table(
        ["sample", "games", "mean", "95% t interval", "min", "median", "max"],
        rows,
        "Actions per game",
    )
    return _section("game-length", "Game length", _pair(figure, table))


_REASON_TEXT = {
    "last-footprint": "a player placed their last footprint",
    "complete-costumes": "a player's kids all wear complete costumes",
    "deck-empty": "the deck ran out",
    "deadlock": "every player passed for a whole round",
    "none": "no end trigger recorded",
}


def _termination_section(summaries: Sequence[Summary]) -> str:
    reasons = _reasons([r for s in summaries for r in s.sample.results])
    figure = _figure(plots.terminations(summaries, reasons), "How games end, by sample")
    rows = []
    for summary in summaries:
        for reason, count, share in summary.terminations:
            rows.append(
                [
                    f'<td class="label">{_e(summary.sample.label)}</td>',
                    f'<td class="label">{_e(reason)}</td>',
                    str(count),
                    _percent(share.estimate),
                    _range(share),
                ]
            )
    table = _table(
        ["sample", "<end triggered by", "games", "share", "95% Wilson interval"],
        rows,
        "How games end",
    )
    legend = "".join(
        f"<li><code>{_e(r)}</code>: {_e(_REASON_TEXT.get(r, 'a reason added by a variant'))}</li>"
        for r in reasons
    )
    return _section(
        "termination", "How games end", _pair(figure, table, f'<ul class="note">{legend}</ul>')
    )


def _comparison_section(number: int, comparison: Comparison, categories: Sequence[str]) -> str:
    other, base = comparison.other, comparison.baseline
    title = f"{other.sample.label} against {base.sample.label}"
    figure = _figure(plots.differences(comparison, categories), f"Differences: {title}", wide=True)
    rows: list[list[str]] = []
    sentences: list[str] = []

    def add(what: str, mine: str, theirs: str, interval: Interval, unit: str, scale: float,
            show: str, said: str = "") -> None:  # fmt: skip
        rows.append(
            [
                f'<td class="label">{_e(what)}</td>',
                theirs,
                mine,
                _signed(interval.estimate * scale, 2) if interval.estimate == interval.estimate
                else "n/a",
                _range(Interval(interval.estimate * scale, interval.low * scale,
                                interval.high * scale), show, signed=True),
                _verdict(interval),
            ]
        )  # fmt: skip
        sentences.append(_difference_sentence(said or what, interval, unit, scale, comparison))

    if comparison.seat_wins:
        for seat, interval in enumerate(comparison.seat_wins):
            add(
                f"win rate of {_seat_name(seat)}", _percent(other.seat_wins[seat].estimate),
                _percent(base.seat_wins[seat].estimate), interval, "percentage points", 100,
                "points", "the first player's win rate" if seat == 0
                else f"the win rate of seat {seat + 1}",
            )  # fmt: skip
    else:
        sentences.append(
            f"The samples have different player counts ({base.sample.players} and "
            f"{other.sample.players}), so their seats' win rates are not compared: the fair "
            "share differs."
        )
    for category in categories:
        add(
            f"mean {CATEGORY_TITLES[category]} points per player",
            _number(other.points[category].estimate, 2),
            _number(base.points[category].estimate, 2),
            comparison.points[category], "points", 1, "points",
        )  # fmt: skip
    add(
        "mean game length in actions", _number(other.length.estimate, 1),
        _number(base.length.estimate, 1), comparison.length, "actions", 1, "points",
    )  # fmt: skip
    mine = {r: i for r, _, i in other.terminations}
    theirs = {r: i for r, _, i in base.terminations}
    zero = Interval(0.0, 0.0, 0.0)
    for reason, interval in comparison.terminations:
        add(
            f"share of games ended by {reason}",
            _percent(mine.get(reason, zero).estimate),
            _percent(theirs.get(reason, zero).estimate), interval, "percentage points", 100,
            "points",
        )  # fmt: skip
    table = _table(
        ["quantity", base.sample.label, other.sample.label, "difference", "95% interval",
         "at the 5% level"],
        rows,
        f"{other.sample.label} minus {base.sample.label} (win rates and shares in percentage "
        "points)",
    )  # fmt: skip
    notes = "".join(f"<li>{s}</li>" for s in sentences)
    return _section(
        f"comparison-{number}",
        _e(title),
        figure,
        table,
        f'<ul class="findings">{notes}</ul>',
        kind="comparison",
    )


def _section(ident: str, title: str, *parts: str, kind: str = "") -> str:
    """A section of the report: its id, heading (HTML) and parts; ``kind`` is a CSS class."""
    css = f' class="{kind}"' if kind else ""
    return f'<section id="{ident}"{css}><h2>{title}</h2>{"".join(parts)}</section>'


def _pair(figure: str, *numbers: str) -> str:
    """A figure beside the tables and notes that give its numbers."""
    return f'<div class="pair">{figure}<div class="numbers">{"".join(numbers)}</div></div>'


def _note(text: str) -> str:
    """A paragraph of explanation (HTML)."""
    return f'<p class="note">{text}</p>'


def _method_section() -> str:
    return """<section id="method"><h2>How to read the numbers</h2>
<ul class="note">
<li>Every interval is a two-sided 95% confidence interval. A difference is called
significant when its interval leaves out zero (for a seat's win rate: leaves out the fair
share), which is a test at the 5% level; with many rows, about one in twenty will cross that
line by chance alone.</li>
<li>Win rates and shares of games: Wilson score intervals. Differences of two win rates or
shares: Newcombe's hybrid score interval (method 10), from the two Wilson intervals.</li>
<li>Mean points and game length: Student's t interval over games. Differences of two means:
Welch's t interval. The game is the unit: a player's points are averaged over the players of
each game first.</li>
<li>Whether all seats win equally often: Pearson's chi-square test of the seats' wins
against equal shares.</li>
<li>Samples that are played here deal game <em>i</em> from seed <em>SEED + i</em>, as
<code>tricky-treats simulate</code> does, with the bots rotating seats: the same seeds always
give the same games and the same report.</li>
</ul></section>"""


def render(title: str, summaries: Sequence[Summary], comparisons: Sequence[Comparison]) -> str:
    """The whole page."""
    categories = _categories(summaries)
    total = sum(s.games for s in summaries)
    sections = [
        _summary_section(summaries, comparisons),
        _configurations_section(summaries),
        _win_rates_section(summaries),
        _scores_section(summaries),
        _length_section(summaries),
        _termination_section(summaries),
        *(
            _comparison_section(number, comparison, categories)
            for number, comparison in enumerate(comparisons, start=1)
        ),
        _method_section(),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{_e(title)}</h1>\n"
        f'<p class="meta">{len(summaries)} sample{"s" if len(summaries) != 1 else ""}, '
        f"{total} games; made by tricky-treats {_e(__version__)}</p>\n"
        + "\n".join(sections)
        + "\n</main>\n</body>\n</html>\n"
    )
