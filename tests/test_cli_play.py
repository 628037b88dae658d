"""The play command as a person uses it: bots, hot seat, resuming, interrupting (issue 12)."""

from __future__ import annotations

import io
import os
import random
import re
import secrets
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.requirements import engine_hint
from tricky_treats.agents import make_agent
from tricky_treats.cli import main
from tricky_treats.drawing import board_svg


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _stdin(monkeypatch: pytest.MonkeyPatch, lines: Sequence[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))


def _turn_screens(out: str, heading: str = "Round ") -> list[list[str]]:
    """The turn screens in the play command's output, each from its heading ("Round 2 · Bo
    (B), your turn ...", ``heading`` the first word in the language played) to the prompt."""
    start = re.compile(rf"{re.escape(heading)}\d+ · ")
    screens: list[list[str]] = []
    current: list[str] | None = None
    for line in out.splitlines():
        found = start.search(line)
        if found:
            current = [line[found.start() :]]
            screens.append(current)
        elif "> " in line:  # the prompt ends the screen
            current = None
        elif current is not None:
            current.append(line)
    return screens


def _human_choice(game: tt.GameState) -> tt.Action:
    """What the scripted humans play: a visit or trick when they can, else the first action."""
    legal = game.legal_actions()
    scoring = [a for a in legal if isinstance(a, tt.VisitHouse | tt.TrickHouse)]
    return scoring[0] if scoring else legal[0]


def _script(
    seats: Sequence[str],
    names: Sequence[str],
    seed: int,
    stop_after: int | None = None,
    variants: Sequence[str] = (),
) -> tuple[list[str], tt.GameState]:
    """The keyboard input of a whole game as the play command reads it, and the final state.

    The bots draw from ``random.Random(seed)`` as the command's bots do; an empty line
    answers each "pass the keyboard" screen.
    """
    game = tt.new_game(players=list(names), seed=seed, variants=list(variants))
    rng = random.Random(seed)
    humans = [i for i, seat in enumerate(seats) if seat == "human"]
    lines: list[str] = []
    previous: int | None = None
    while not game.is_over and (stop_after is None or len(game.history) < stop_after):
        seat = game.current_player
        assert seat is not None
        if seats[seat] == "human":
            if len(humans) > 1 and previous not in (None, seat):
                lines.append("")
            previous = seat
            action = _human_choice(game)
            lines.append(str(action))
        else:
            action = make_agent(seats[seat]).choose(game.view(seat), game.legal_actions(), rng)
        game = game.apply(action)
    return lines, game


def test_a_whole_game_against_a_bot_ends_with_the_sheets_and_the_winner(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    lines, final = _script(["human", "random"], ["Player 1", "Random 2"], seed=4)
    _stdin(monkeypatch, lines)
    status, out, _ = _run(
        capsys, "play", "--players", "2", "--seed", "4", "--bot", "random", "--save", str(record)
    )
    assert status == 0
    assert "Player 1 (A), your turn" in out
    assert "Take card to kid: " in out
    saved = tt.loads(record.read_text())
    assert saved == final
    # A lone human is "Player 1", a name: never "You", which other screens would read as
    # the reader (issue 48).
    assert saved.config.players == ("Player 1", "Random 2")
    tail = out[out.index("Score sheets") :]
    assert "(winner)" in tail
    assert "Game over; " in tail
    for sheet in final.scores():
        assert str(sheet.total) in tail
    assert "seed 4: '--seed 4' deals it again" in tail


def test_the_seed_is_shown_only_once_the_game_is_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10: with the seed, a player could compute the deck and the bots' secret tiles."""
    seed = 987_654_321_123
    lines, _ = _script(["human", "greedy", "greedy"], ["Player 1", "Greedy 2", "Greedy 3"], seed)
    _stdin(monkeypatch, lines)
    status, out, _ = _run(capsys, "play", "--seed", str(seed))
    assert status == 0
    assert str(seed) in out
    assert out.index(str(seed)) > out.index("Score sheets")


def test_a_player_who_quits_never_sees_the_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, ["t0k0", "sheets", "log", "quit"])
    status, out, _ = _run(capsys, "play", "--seed", "424242424242")
    assert status == 0
    assert "424242424242" not in out
    assert "Bye." in out


def test_without_seed_the_game_is_dealt_from_63_bits_of_the_os(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 10: a 31-bit seed is found from a player's record by brute force in hours."""
    asked: list[int] = []
    drawn: list[int] = []
    real = secrets.randbits

    def randbits(k: int) -> int:
        asked.append(k)
        drawn.append(real(k))
        return drawn[-1]

    monkeypatch.setattr(secrets, "randbits", randbits)
    saved = tmp_path / "now.json"
    _stdin(monkeypatch, [f"save {saved}", "quit"])
    assert _run(capsys, "play", "--players", "2")[0] == 0
    assert asked == [63]
    assert tt.loads(saved.read_text()).config.seed == drawn[0]


def test_hot_seat_passes_the_keyboard_and_hides_the_last_secret_tile(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, _final = _script(["human", "human", "greedy"], ["Ann", "Bo", "Greedy 3"], seed=11)
    _stdin(monkeypatch, lines)
    status, out, _ = _run(capsys, "play", "--seats", "human,human,greedy", "--names",
                          "Ann,Bo,Greedy 3", "--seed", "11")  # fmt: skip
    assert status == 0
    first = tt.new_game(players=["Ann", "Bo", "Greedy 3"], seed=11)
    tiles = {p.name: tt_tile_text(first, seat) for seat, p in enumerate(first.players)}
    screens = out.split("Pass the keyboard to ")
    assert len(screens) == lines.count("") + 1
    for screen in screens[1:]:
        to_play = screen.split(".", 1)[0]
        other = "Bo" if to_play == "Ann" else "Ann"
        assert f"{to_play} ({'AB'[to_play == 'Bo']}), your turn" in screen
        assert f"your secret tile {tiles[to_play]}" in screen
        assert f"{other} (" not in screen.split("Score sheets")[0]
    assert "Ann, your action>" in out
    assert "Bo, your action>" in out


def test_the_hand_over_screen_clears_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, _ = _script(["human", "human"], ["Ann", "Bo"], seed=11, stop_after=4)
    hand_overs = lines.count("")
    assert hand_overs >= 2
    _stdin(monkeypatch, lines)
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich takes the output for a terminal
    status, out, _ = _run(capsys, "play", "--seats", "human,human", "--names", "Ann,Bo",
                          "--seed", "11")  # fmt: skip
    assert status == 0
    # home, clear the screen and the scrollback, before and after each hand over; the
    # input ends at the next one, which clears once
    assert out.count("\x1b[H\x1b[2J\x1b[3J") == 2 * hand_overs + 1
    assert "Pass the keyboard to Bo" in out


def test_default_names_tell_the_humans_apart(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "now.json"
    _stdin(monkeypatch, [f"save {saved}", "quit"])
    assert _run(capsys, "play", "--seats", "human,human,search:5", "--seed", "1")[0] == 0
    assert tt.loads(saved.read_text()).config.players == ("Player 1", "Player 2", "Search 3")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--names", "Ann,Bo", "--players", "3"], "--names gives 2 names for 3 seats"),
        (["--names", "Ann,,Cy"], "--names has an empty name"),
        (["--names", "Ann,Ann"], "must differ"),
        (["--seats", "human,,greedy"], "--seats has an empty seat"),
        (["--seats", "human,greedy", "--players", "3"], "--players 3 but --seats names 2 seats"),
        (["--seats", "human,search:0"], "the search budget must be a whole number"),
        (["--load", "/no/such/game.json"], "cannot read /no/such/game.json"),
    ],
)
def test_bad_play_options_get_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, "play", *argv)
    assert status == 2
    assert message in " ".join(err.split())
    assert "Traceback" not in out + err


def test_resume_a_saved_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "half.json"
    first, _ = _script(["human", "greedy"], ["Ann", "Greedy 2"], seed=5, stop_after=12)
    _stdin(monkeypatch, [*first, f"save {saved}", "quit"])
    status, out, _ = _run(capsys, "play", "--names", "Ann,Greedy 2", "--seed", "5")
    assert status == 0
    assert f"resume with: tricky-treats play --load {saved}" in " ".join(out.split())
    half = tt.loads(saved.read_text())
    assert half.turn > 0
    assert not half.is_over

    _stdin(monkeypatch, ["pass", "v99", "quit"])  # answered with hints, then quit
    status, out, _ = _run(capsys, "play", "--load", str(saved))
    assert status == 0
    assert f"Round {half.round} · Ann (A), your turn" in out
    assert "Last round: You " in out  # the moves before the save are known again

    status, _, err = _run(capsys, "play", "--load", str(saved), "--seed", "0")
    assert status == 2
    assert "leave out --seed" in err

    status, _, err = _run(capsys, "play", "--load", str(saved), "--seats", "human,greedy,greedy")
    assert status == 2
    assert "the saved game has 2 players but --seats names 3 seats" in " ".join(err.split())


def test_resuming_a_finished_game_shows_its_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    final = tt.play_game(tt.new_game(2, seed=3), [tt.RandomAgent()] * 2, seed=3)[-1]
    path = tmp_path / "over.json"
    path.write_text(tt.dumps(final))
    status, out, _ = _run(capsys, "play", "--load", str(path))
    assert status == 0
    assert "Score sheets" in out
    assert "Game over; " in out


def test_ctrl_c_at_the_prompt_ends_the_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(prompt: str = "") -> str:
        print(prompt, end="")
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    status, out, err = _run(capsys, "play", "--seed", "1")
    assert status == 130
    assert out.endswith("your action> ")
    assert err == "\n"  # the shell's prompt comes back on a line of its own


@pytest.mark.parametrize("command", [["replay", "GAME"], ["--help"], ["replay", "--help"]])
def test_a_closed_pipe_ends_quietly(tmp_path: Path, command: list[str]) -> None:
    """``tricky-treats replay game.json | head`` must not print a BrokenPipeError traceback."""
    final = tt.play_game(tt.new_game(2, seed=3), [tt.RandomAgent()] * 2, seed=3)[-1]
    path = tmp_path / "game.json"
    path.write_text(tt.dumps(final))
    argv = [str(path) if word == "GAME" else word for word in command]
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        result = subprocess.run(
            [sys.executable, "-m", "tricky_treats", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write)
    assert result.stderr == ""
    if command[-1] == "GAME":
        assert result.returncode != 0  # 141 as a shell reports SIGPIPE, or 1 from rich


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["play", "--help"]])
def test_help_and_version_work_without_rich(argv: list[str]) -> None:
    code = (
        "import sys; sys.modules['rich'] = None\n"  # as if the cli extra were not installed
        "from tricky_treats.cli import main\n"
        f"sys.exit(main({argv!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "tricky-treats" in result.stdout
    assert result.stderr == ""


def test_commands_without_rich_say_which_extra_to_install() -> None:
    code = (
        "import sys; sys.modules['rich'] = None\n"
        "from tricky_treats.cli import main\n"
        "sys.exit(main(['variants']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert engine_hint("cli").search(result.stderr)


def tt_tile_text(game: tt.GameState, seat: int) -> str:
    """``seat``'s secret tile as the table of its view says it (``print(game.view(seat))``)."""
    found = re.search(r" · secret tile (.+)$", str(game.view(seat)).splitlines()[1])
    assert found, "a view of a game not over names its player's secret tile"
    return found.group(1)


# -- the terminal teaches (issue 23) --------------------------------------------------------------


def test_rules_shows_the_short_guide_a_page_at_a_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = 5  # "HOW TO PLAY, IN SHORT (page 1 of 5)"
    _stdin(monkeypatch, ["rules", *[""] * (pages - 1), "rules", "q", "quit"])
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "1")
    assert status == 0
    assert "New to the game? Type 'rules'" in out
    for page in range(1, pages + 1):
        heading = f"HOW TO PLAY, IN SHORT (page {page} of {pages}): "
        assert out.count(heading) == (2 if page == 1 else 1)
    assert f"(page {pages + 1} of" not in out
    assert f"Page 1 of {pages}: Enter for the next, q to play" in out
    assert "'rules' is not an action" not in out


def test_explain_why_and_look_at_the_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tt.new_game(players=["Player 1", "Greedy 2"], seed=2)
    house = game.setup.grid[0].neighbour
    _stdin(monkeypatch, ["why", "explain t1k3", "explain", "v0", "why", "look B", "look Z",
                         "log", "t0k0-4", "quit"])  # fmt: skip
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "2")
    assert status == 0
    text = " ".join(out.split())
    assert "No rule to explain" in text
    assert "If you play t1k3 (take the card of slot 1 for kid 3):" in text
    assert "kid 3 would wear" in text
    assert "Explain which action? For example: explain t0k0" in text
    refusal = (
        f"You cannot visit nice house 0: it wants at least {house.minimum} "
        f"{house.wants.value} cards and your kids wear 0. ('why' explains; rules R1, R5)"
    )
    assert refusal in text
    assert "R1: Every card on every kid counts for a nice house" in text
    assert "Greedy 2 (B), as everyone sees them:" in text
    assert "Look at whom? Give a player's letter (A, B), number (1 to 2) or name" in text
    assert "No moves yet: this is the first turn of the game." in text
    assert "'t0k0-4' stands for t0k0 to t0k4: type one of them, e.g. t0k0." in text
    assert "(R1, R5)" not in text  # the rulings come last, in words a player reads


def test_quit_warns_once_when_the_game_is_unsaved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _stdin(monkeypatch, ["quit"])  # no move yet: nothing to lose
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "1")
    assert "not saved" not in out
    _stdin(monkeypatch, ["t0k0", "quit", "quit"])
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "1")
    assert status == 0
    assert out.count("This game is not saved: 'save FILE' keeps it.") == 1
    assert "Bye. The last moves were not saved." in out
    saved = tmp_path / "g.json"
    _stdin(monkeypatch, ["t0k0", f"save {saved}", "quit"])
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "1")
    assert "not saved" not in out
    _stdin(monkeypatch, ["t0k0", "quit"])
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "1", "--save", str(saved))
    assert "not saved" not in out
    assert f"Bye. The game is saved in {saved}" in " ".join(out.split())


def test_a_loaded_game_goes_on_being_saved_to_its_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "half.json"
    first, _ = _script(["human", "greedy"], ["Ann", "Greedy 2"], seed=5, stop_after=6)
    _stdin(monkeypatch, [*first, f"save {path}", "quit"])
    assert _run(capsys, "play", "--names", "Ann,Greedy 2", "--seed", "5")[0] == 0
    half = tt.loads(path.read_text())
    move = _human_choice(half)
    _stdin(monkeypatch, [str(move), "quit"])
    status, out, _ = _run(capsys, "play", "--load", str(path))
    assert status == 0
    out = " ".join(out.split())
    assert f"Every move is saved to {path}." in out
    assert "not saved" not in out
    again = tt.loads(path.read_text())
    assert again.history[: len(half.history) + 1] == (*half.history, move)
    assert len(again.history) > len(half.history)

    other = tmp_path / "other.json"
    before = path.read_text()
    _stdin(monkeypatch, [str(_human_choice(again)), "quit"])
    assert _run(capsys, "play", "--load", str(path), "--save", str(other))[0] == 0
    assert path.read_text() == before  # --save told it otherwise
    assert len(tt.loads(other.read_text()).history) > len(again.history)


def _tied_bot_game() -> tuple[int, tt.GameState]:
    """A seed whose game between two random bots, as play deals and plays it, ends in a tie
    on points that the trick tiles break."""
    for seed in range(400):
        game = tt.new_game(players=["Random 1", "Random 2"], seed=seed)
        rng = random.Random(seed)
        bot = make_agent("random")
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            game = game.apply(bot.choose(game.view(seat), game.legal_actions(), rng))
        totals = [s.total for s in game.scores()]
        if totals[0] == totals[1] and len(game.winners()) == 1:
            return seed, game
    raise LookupError("no tie broken by trick tiles in 400 seeds")  # pragma: no cover


def test_the_end_screen_explains_a_tie_break(capsys: pytest.CaptureFixture[str]) -> None:
    seed, final = _tied_bot_game()
    status, out, _ = _run(capsys, "play", "--seats", "random,random", "--seed", str(seed))
    assert status == 0
    (winner,) = final.winners()
    sheets = final.scores()
    text = " ".join(out.split())
    assert (
        f"Random {winner + 1} wins the tie on trick tiles: {sheets[winner].treats} points "
        f"from trick tiles against {sheets[1 - winner].treats} (R15)."
    ) in text


def test_replay_svg_draws_every_position_and_a_page_to_step_through_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import xml.etree.ElementTree as ET

    states = tt.play_game(tt.new_game(3, seed=6), [tt.GreedyAgent()] * 3, seed=6)
    record = tmp_path / "game.json"
    record.write_text(tt.dumps(states[-1]))
    folder = tmp_path / "pictures"
    status, out, _ = _run(capsys, "replay", "--svg", str(folder), str(record))
    assert status == 0
    pictures = sorted(folder.glob("move-*.svg"))
    assert len(pictures) == len(states)
    for number in (0, 1, len(states) - 1):
        seat = 0 if number == 0 else states[number - 1].current_player
        assert seat is not None
        expected = board_svg(states[number].view(seat))
        assert pictures[number].read_text() == expected
        ET.fromstring(pictures[number].read_text())
    page = (folder / "index.html").read_text()
    assert '<img id="picture"' in page
    assert f"Move {len(states) - 1} of {len(states) - 1}: " in page
    assert f"open {folder / 'index.html'}" in " ".join(out.split())
