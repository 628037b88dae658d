"""Balance reports: the statistics against hand-computed cases, reading simulate's files,
every section of the HTML, determinism, and the report command."""

from __future__ import annotations

import base64
import json
import math
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.requirements import engine_hint, install_hint

pytest.importorskip("matplotlib", reason=install_hint("report"))

import tricky_treats.simulation
from tricky_treats.cli import main
from tricky_treats.errors import ConfigurationError
from tricky_treats.report import (
    GameResult,
    ReportError,
    Sample,
    SeatResult,
    compare,
    play_results,
    read_results,
    render_report,
    summarize,
    write_report,
)
from tricky_treats.report.stats import (
    chi_square_uniform,
    mean_interval,
    newcombe_interval,
    student_t_cdf,
    student_t_quantile,
    welch_interval,
    wilson_interval,
)

Z = 1.959963984540054  # the standard normal's 97.5% quantile


# -- statistics against hand-computed and published values --------------------------------------


def test_wilson_interval_of_7_in_10() -> None:
    # p = 0.7, n = 10: centre (p + z^2/2n) / (1 + z^2/n), half-width
    # z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n) -> 0.3968 to 0.8922.
    interval = wilson_interval(7, 10)
    assert interval.estimate == pytest.approx(0.7)
    assert interval.low == pytest.approx(0.39678, abs=1e-5)
    assert interval.high == pytest.approx(0.89221, abs=1e-5)


def test_wilson_interval_stays_inside_0_and_1() -> None:
    none, every = wilson_interval(0, 10), wilson_interval(10, 10)
    assert none.low == 0
    assert none.high == pytest.approx(Z**2 / (10 + Z**2))  # the rule-of-three-like bound
    assert every.high == 1
    assert every.low == pytest.approx(10 / (10 + Z**2))


def test_newcombe_interval_matches_newcombe_1998() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80,
    # method 10 gives +0.0524 to +0.3339.
    interval = newcombe_interval(56, 70, 48, 80)
    assert interval.estimate == pytest.approx(0.2)
    assert interval.low == pytest.approx(0.0524, abs=5e-5)
    assert interval.high == pytest.approx(0.3339, abs=5e-5)
    assert interval.excludes(0)


@pytest.mark.parametrize(
    ("freedom", "quantile"),
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423)],
)
def test_student_t_quantiles_match_the_table(freedom: int, quantile: float) -> None:
    assert student_t_quantile(0.975, freedom) == pytest.approx(quantile, abs=1e-4)
    assert student_t_quantile(0.025, freedom) == pytest.approx(-quantile, abs=1e-4)
    assert student_t_cdf(quantile, freedom) == pytest.approx(0.975, abs=1e-5)


def test_mean_interval_of_one_to_five() -> None:
    # mean 3, sd sqrt(2.5), se sqrt(2.5 / 5) = 0.7071, t(0.975, 4) = 2.7764.
    interval = mean_interval([1, 2, 3, 4, 5])
    assert interval.estimate == 3
    assert interval.low == pytest.approx(3 - 2.77645 * math.sqrt(0.5), abs=1e-4)
    assert interval.high == pytest.approx(3 + 2.77645 * math.sqrt(0.5), abs=1e-4)
    assert not mean_interval([4]).known


def test_welch_interval_by_hand() -> None:
    # a = 1..3: mean 2, var 1; b = 4..7: mean 5.5, var 5/3. se^2 = 1/3 + 5/12 = 0.75;
    # df = 0.75^2 / ((1/3)^2 / 2 + (5/12)^2 / 3) = 4.9655; t(0.975, 4.9655) = 2.5759.
    interval = welch_interval([1, 2, 3], [4, 5, 6, 7])
    assert interval.estimate == -3.5
    half = 2.5759 * math.sqrt(0.75)
    assert interval.low == pytest.approx(-3.5 - half, abs=1e-3)
    assert interval.high == pytest.approx(-3.5 + half, abs=1e-3)
    assert interval.excludes(0)
    assert welch_interval([2, 2], [2, 2]) == welch_interval([3, 3], [3, 3])


def test_chi_square_of_equal_shares() -> None:
    # (10 - 5)^2 / 5 + 0 + (0 - 5)^2 / 5 = 10 with 2 degrees of freedom: p = exp(-5).
    test = chi_square_uniform([10, 5, 0])
    assert test.statistic == pytest.approx(10)
    assert test.freedom == 2
    assert test.p_value == pytest.approx(math.exp(-5))
    assert test.significant
    # 1 degree of freedom: p = erfc(sqrt(x / 2)); 3: erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2).
    assert chi_square_uniform([30, 20]).p_value == pytest.approx(math.erfc(1))
    x = chi_square_uniform([10, 12, 8, 14]).statistic
    assert x == pytest.approx(20 / 11)
    assert chi_square_uniform([10, 12, 8, 14]).p_value == pytest.approx(
        math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    )
    assert not chi_square_uniform([10, 12, 8, 14]).significant


# -- summaries of a hand-built sample ------------------------------------------------------------


def _seat(total: int, win: float, agent: str = "greedy") -> SeatResult:
    # Pumpkins 2, trick tiles 4, costumes the rest; no variant extras. The report does not
    # look at which of simulate's agents a seat was (agent_index).
    return SeatResult(
        agent, agent_index=0, total=total, pumpkins=2, costumes=total - 6, tiles=4, extras=0,
        win=win,
    )  # fmt: skip


def _game(number: int, actions: int, end: str, *seats: SeatResult) -> GameResult:
    return GameResult(number, 100 + number, actions, end, seats)


HAND = Sample(
    "Hand",
    [
        _game(0, 40, "last-footprint", _seat(30, 1), _seat(20, 0)),
        _game(1, 50, "deck-empty", _seat(25, 0), _seat(35, 1)),
        _game(2, 44, "last-footprint", _seat(28, 0.5), _seat(28, 0.5)),
        _game(3, 46, "last-footprint", _seat(40, 1), _seat(10, 0)),
    ],
    "made by hand",
)


def test_summary_of_a_hand_built_sample() -> None:
    summary = summarize(HAND)
    assert summary.games == 4
    assert summary.fair_share == 0.5
    # Seat 1 wins games 0 and 3 and shares game 2: 2.5 of 4.
    first, second = summary.seat_wins
    assert first.estimate == 0.625
    assert second.estimate == 0.375
    centre = (0.625 + Z**2 / 8) / (1 + Z**2 / 4)
    half = Z * math.sqrt(0.625 * 0.375 / 4 + Z**2 / 64) / (1 + Z**2 / 4)
    assert (first.low, first.high) == pytest.approx((centre - half, centre + half))
    # Expected 2 wins each: (0.5^2 + 0.5^2) / 2 = 0.25 on 1 degree of freedom.
    assert summary.seat_test.statistic == pytest.approx(0.25)
    assert summary.seat_test.p_value == pytest.approx(math.erfc(math.sqrt(0.125)))
    # Per-game means of the totals: 25, 30, 28, 25 -> mean 27, sd sqrt(6), t(0.975, 3) = 3.1824.
    total = summary.points["total"]
    assert total.estimate == 27
    assert total.high - 27 == pytest.approx(3.18245 * math.sqrt(6 / 4), abs=1e-4)
    assert summary.points["pumpkins"].estimate == 2
    assert summary.points["costumes"].estimate == 21
    # All eight totals 10 20 25 28 28 30 35 40: quartiles by linear interpolation.
    assert summary.spread["total"] == pytest.approx((10, 23.75, 28, 31.25, 40))
    assert summary.length.estimate == 45
    assert summary.length_spread == pytest.approx((40, 43, 45, 47, 50))
    reasons = [(r, n, i.estimate) for r, n, i in summary.terminations]
    assert reasons == [("last-footprint", 3, 0.75), ("deck-empty", 1, 0.25)]
    assert summary.agent_wins == ()  # one kind of bot: no table by bot


def test_win_rate_by_bot_when_bots_differ() -> None:
    sample = Sample(
        "Mixed",
        [
            _game(0, 40, "last-footprint", _seat(30, 1, "greedy"), _seat(20, 0, "random")),
            _game(1, 40, "last-footprint", _seat(30, 0, "random"), _seat(35, 1, "greedy")),
            _game(2, 40, "last-footprint", _seat(30, 0.5, "greedy"), _seat(30, 0.5, "random")),
        ],
    )
    bots = [(agent, n, round(i.estimate * 6)) for agent, n, i in summarize(sample).agent_wins]
    assert bots == [("greedy", 3, 5), ("random", 3, 1)]  # 2.5 and 0.5 wins in 3 games


def test_comparison_is_other_minus_baseline() -> None:
    other = Sample(
        "Other",
        [
            _game(0, 60, "last-footprint", _seat(30, 0), _seat(32, 1)),
            _game(1, 62, "deck-empty", _seat(31, 0), _seat(33, 1)),
        ],
    )
    comparison = compare(summarize(HAND), summarize(other))
    first = comparison.seat_wins[0]
    expected = newcombe_interval(0, 2, 2.5, 4)
    assert first.estimate == pytest.approx(0 - 0.625)
    assert (first.low, first.high) == pytest.approx((expected.low, expected.high))
    assert comparison.length == welch_interval([60, 62], [40, 50, 44, 46])
    assert comparison.length.estimate == 16
    assert comparison.points["total"].estimate == pytest.approx(31.5 - 27)
    shares = {reason: i.estimate for reason, i in comparison.terminations}
    assert shares == {"last-footprint": pytest.approx(0.5 - 0.75), "deck-empty": 0.25}


def test_samples_must_hold_games_of_one_player_count() -> None:
    three = _game(9, 40, "last-footprint", _seat(1, 1), _seat(0, 0), _seat(0, 0))
    with pytest.raises(ReportError, match=r"mixes games of \[2, 3\] players"):
        Sample("Mixed", [*HAND.results, three])
    with pytest.raises(ReportError, match="has no games"):
        Sample("Empty", [])


# -- the HTML ------------------------------------------------------------------------------------


class _Page(HTMLParser):
    """Collects sections, headings, table cells, images and links of a report."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.images: list[dict[str, str | None]] = []
        self.urls: list[str] = []
        self.cells: list[str] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "section":
            self.sections.append(found.get("id") or "")
        if tag == "img":
            self.images.append(found)
        for name in ("src", "href", "action", "data"):
            if found.get(name):
                self.urls.append(found[name] or "")
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


SECTIONS = [
    "summary",
    "configurations",
    "win-rates",
    "scores",
    "game-length",
    "termination",
    "comparison-1",
    "method",
]


def _other() -> Sample:
    # Seat 1 always wins; 34 and 33 costume points against Hand's 21 a player on average.
    return Sample(
        "Other",
        [_game(i, 40 + i, "last-footprint", _seat(40, 1), _seat(39, 0)) for i in range(6)],
        "made by hand too",
    )


def _four() -> Sample:
    return Sample(
        "Four",
        [
            _game(i, 60, "deck-empty", _seat(30, 1), _seat(20, 0), _seat(20, 0), _seat(20, 0))
            for i in range(3)
        ],
    )


@pytest.fixture(scope="module")
def hand_report() -> str:
    return render_report([HAND, _other(), _four()])


def test_the_report_renders_every_section(hand_report: str) -> None:
    page = _parse(hand_report)
    assert page.sections == [*SECTIONS[:-1], "comparison-2", "method"]
    text = " ".join(" ".join(page.text).split())
    for heading in (
        "What the games show",
        "Configurations",
        "Win rate by seat",
        "Scores by category",
        "Game length",
        "How games end",
        "Other against Hand",
        "Four against Hand",
        "How to read the numbers",
    ):
        assert heading in text
    assert len(page.images) == 6  # win rates, scores, length, endings, two comparisons
    for image in page.images:
        assert (image["src"] or "").startswith("data:image/svg+xml;base64,")
        assert image["alt"]
        svg = base64.b64decode((image["src"] or "").split(",", 1)[1]).decode()
        assert svg.lstrip().startswith("<?xml")
        assert "<dc:date>" not in svg  # no date in the plot: same numbers, same bytes


def test_the_report_is_self_contained(hand_report: str) -> None:
    page = _parse(hand_report)
    assert all(url.startswith("data:") for url in page.urls)
    assert "url(" not in hand_report
    assert "@import" not in hand_report
    assert "<script" not in hand_report
    assert "<link" not in hand_report


def test_the_report_tables_hold_the_hand_computed_numbers(hand_report: str) -> None:
    cells = _parse(hand_report).cells
    row = cells.index("seat 1 (first player)")
    first = wilson_interval(2.5, 4)
    assert cells[row + 1 : row + 4] == [
        "2.5",
        "62.5%",
        f"{first.low * 100:.1f}% to {first.high * 100:.1f}%",
    ]
    assert "27.00" in cells  # mean total points per player of Hand
    assert "75.0%" in cells  # Hand's games ended by the last footprint
    assert "45.0" in cells  # Hand's mean game length


def test_plain_sentences_for_differences_that_are_and_are_not_significant(
    hand_report: str,
) -> None:
    text = " ".join(" ".join(_parse(hand_report).text).split())
    # Four hand games against six: no win-rate difference can be told apart.
    assert re.search(
        r"The difference in the first player's win rate \([^)]*\) is not significant: these "
        r"games cannot tell Other and Hand apart on it\.",
        text,
    )
    assert "not significantly different from a fair share" in text
    # Games 40 to 45 actions long against 40 to 50: the length difference is not significant
    # either, but costumes (33.5 against 21 points a player) are.
    assert re.search(r"The difference in mean game length \([^)]*\) is not significant", text)
    assert re.search(r"Mean costumes points per player is higher in Other than in Hand", text)
    assert "significant" in _parse(hand_report).cells


def test_samples_with_different_player_counts_say_why_seats_are_not_compared(
    hand_report: str,
) -> None:
    text = " ".join(" ".join(_parse(hand_report).text).split())
    assert "The samples have different player counts (2 and 4)" in text
    assert "fair share of 25.0% for 4 players" in text


def test_report_labels_must_differ() -> None:
    with pytest.raises(ReportError, match="its own label"):
        render_report([HAND, HAND])
    with pytest.raises(ReportError, match="at least one sample"):
        render_report([])


def test_a_report_to_a_missing_folder_fails_before_drawing(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="there is no folder"):
        write_report([HAND], tmp_path / "nowhere" / "report.html")


def test_a_missing_matplotlib_gets_a_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ReportError, match=engine_hint("report").pattern):
        render_report([HAND])
    # The command says so before it plays a single game.
    status = main(["report", "--config", "games=100000", "-o", str(tmp_path / "r.html")])
    assert status == 2
    assert engine_hint("report").search(capsys.readouterr().err)


def test_importing_the_library_or_the_report_api_does_not_import_matplotlib() -> None:
    code = (
        "import sys, tricky_treats, tricky_treats.cli, tricky_treats.report;"
        "print('matplotlib' in sys.modules, 'numpy' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "False"]


# -- simulate's files and played games -----------------------------------------------------------


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("simulated")
    paths = {"jsonl": folder / "games.jsonl", "csv": folder / "games.csv"}
    for path in paths.values():
        status = main(
            ["simulate", "--games", "6", "--agents", "greedy,random,random", "--seed", "11",
             "--jobs", "1", "--quiet", "--output", str(path)]
        )  # fmt: skip
        assert status == 0
    return paths


def test_simulate_files_read_back_as_the_games_played(simulated: dict[str, Path]) -> None:
    from_jsonl = read_results(simulated["jsonl"])
    from_csv = read_results(simulated["csv"])
    played = play_results(["greedy", "random", "random"], games=6, seed=11)
    assert from_jsonl == from_csv == played
    # One result type: the games read back are simulate's own results.
    assert GameResult is tricky_treats.simulation.GameResult
    assert SeatResult is tricky_treats.simulation.SeatResult
    assert all(type(r) is tricky_treats.simulation.GameResult for r in from_csv)
    assert [r.seed for r in played] == list(range(11, 17))
    assert all(math.fsum(s.win for s in r.seats) == pytest.approx(1) for r in played)
    # The bots rotate seats from game to game, as in simulate.
    assert [r.seats[0].agent for r in played[:3]] == ["greedy", "random", "random"]


def test_playing_in_processes_gives_the_same_games() -> None:
    assert play_results(["random", "random"], games=4, seed=3, jobs=2) == play_results(
        ["random", "random"], games=4, seed=3, jobs=1
    )


_SEAT_NUMBERS = ("total", "pumpkins", "costumes", "tiles", "extras")


def _two_seats(end: str | None = None, game: int = 0, **changes: object) -> str:
    """A simulate JSONL line of two seats (the second wins), each seat with ``changes``."""
    seats = [
        {"agent": "a", "win": win, **dict.fromkeys(_SEAT_NUMBERS, 1), **changes} for win in (0, 1)
    ]
    line = {"game": game, "seed": 1, "actions": 2, "termination": end, "seats": seats}
    return json.dumps(line)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("games.txt", "", "expected a .jsonl or .csv file"),
        ("empty.jsonl", "\n", "holds no games"),
        ("bad.jsonl", "{not json\n", "bad.jsonl, line 1: not JSON"),
        ("list.jsonl", "[1, 2]\n", "expected a game object with a list of seats"),
        (
            "seatless.jsonl",
            json.dumps(
                {
                    "game": 0,
                    "seed": 0,
                    "actions": 3,
                    "termination": None,
                    "seats": [{"agent": "greedy", "total": 1}],
                }
            ),
            "a seat lacks pumpkins, costumes, tiles, extras, win",
        ),
        (
            "shares.jsonl",
            json.dumps(
                {
                    "game": 0,
                    "seed": 0,
                    "actions": 3,
                    "termination": "deadlock",
                    "seats": [
                        dict.fromkeys(
                            ("total", "pumpkins", "costumes", "tiles", "extras", "win"), 1
                        )
                        | {"agent": "greedy"}
                    ]
                    * 2,
                }
            ),
            "win shares add up to 2, not 1",
        ),
        (
            "text.jsonl",
            json.dumps({"game": 0, "seed": 0, "actions": "many", "termination": None, "seats": []}),
            "a game needs 2 or more seats",
        ),
        ("columns.csv", "game,seed\n0,1\n", "the header lacks the columns actions, agent"),
        ("halves.jsonl", _two_seats(total=2.5), "total must be a whole number, got 2.5"),
        (
            "agent.jsonl",
            _two_seats(agent_index=2),
            "agent_index must name one of the game's 2 agents (0 to 1), got 2",
        ),
    ],
)
def test_unreadable_files_get_a_clear_error(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ReportError, match=re.escape(message)):
        read_results(path)


def test_games_without_an_end_read_back_as_simulate_plays_them(tmp_path: Path) -> None:
    # A game whose end was never triggered is None in simulate's result, null in its JSONL,
    # an empty cell in its CSV, and "none" in a report; the seats' agents follow the rotation.
    for end in (None, "", "none"):
        path = tmp_path / "open.jsonl"
        path.write_text(_two_seats(end, game=3))
        (game,) = read_results(path)
        assert game.termination is None
        assert [seat.agent_index for seat in game.seats] == [1, 0]
        assert summarize(Sample("Open", [game])).terminations[0][:2] == ("none", 1)


def test_a_seat_gives_its_points_by_category() -> None:
    seat = _seat(30, 1)
    assert [seat.points(c) for c in ("total", "pumpkins", "costumes", "tiles")] == [30, 2, 24, 4]
    with pytest.raises(ConfigurationError, match="no score category 'win'"):
        seat.points("win")


def test_a_missing_file_gets_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match=r"cannot read .*nothing\.jsonl"):
        read_results(tmp_path / "nothing.jsonl")


def test_csv_rows_out_of_order_are_refused(simulated: dict[str, Path], tmp_path: Path) -> None:
    lines = simulated["csv"].read_text().splitlines()
    swapped = tmp_path / "swapped.csv"
    swapped.write_text("\n".join([lines[0], lines[2], lines[1], *lines[3:]]) + "\n")
    with pytest.raises(ReportError, match=re.escape("must list seats 0, 1, ... in order")):
        read_results(swapped)


# -- the command ---------------------------------------------------------------------------------


def test_report_command_from_a_file_and_played_games_same_bytes_in_any_process(
    capsys: pytest.CaptureFixture[str], simulated: dict[str, Path], tmp_path: Path
) -> None:
    here, there = tmp_path / "here.html", tmp_path / "there.html"
    arguments = ["report", str(simulated["jsonl"]), "--config",
                 "label='Played here' agents=greedy,random,random games=6 seed=11", "--jobs", "1"]  # fmt: skip
    status = main([*arguments, "-o", str(here)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"Wrote {here} (2 samples, 12 games" in " ".join(out.split())
    html = here.read_text()
    page = _parse(html)
    assert page.sections == SECTIONS
    text = " ".join(" ".join(page.text).split())
    # The same games read and played: every difference is exactly zero.
    assert "Played here against games" in text
    comparison = html[html.index('id="comparison-1"') :]
    rows = re.findall(
        r'<tr><td class="label">([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>',
        comparison,
    )
    assert len(rows) >= 8  # 3 seats, 4 categories, the length and at least one way to end
    for quantity, played, read, difference in rows:
        assert (played, difference) == (read, "0.00"), quantity
    # Another process (a fresh matplotlib, fresh hash seeds) writes the very same bytes.
    command = [sys.executable, "-m", "tricky_treats", *arguments, "-o", str(there)]
    subprocess.run(command, check=True, capture_output=True)
    assert there.read_bytes() == here.read_bytes()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--config", "colour=red"], "no setting 'colour'; choose from label, players"),
        (["--config", "players"], "write each setting as KEY=VALUE, got 'players'"),
        (["--config", "games=many"], "games must be a whole number, got 'many'"),
        (["--config", "games=0"], "games must be at least 1, got 0"),
        (["--config", "agents=greedy players=2"], "give agents= or players= and bot=, not both"),
        (["--config", "seed=1 seed=2"], "seed is given twice"),
        (["--config", "label='Base game"], "No closing quotation"),
        (["--config", "file=x.jsonl games=3"], "takes only label=, not games"),
        (["--config", "label=A", "--config", "label=A"], "two samples are labelled 'A'"),
        (["--config", "variants=chess games=1"], "no variant called 'chess'"),
        (["--config", "bot=wizard games=1"], "no agent 'wizard'"),
        (["--config", "variants=card-data games=1"], "needs the path of a component data file"),
        (["/no/such/games.jsonl"], "cannot read /no/such/games.jsonl"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_report_command_bad_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    status = main(["report", *argv, "-o", str(tmp_path / "r.html")])
    _, err = capsys.readouterr()
    assert status == 2
    assert message in " ".join(err.split())
    assert "Traceback" not in err
    assert not (tmp_path / "r.html").exists()
