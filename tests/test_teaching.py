"""The terminal teaches (issue 23): the short guide, explain, why, refusals, look, tie-breaks.

Through the ``play`` command at its prompt, on games it loads (``--load``, a verified record:
states of seeded games, found by playing them, where the old tests built boards by hand).
"""

from __future__ import annotations

import io
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

import tricky_treats as tt
from tricky_treats.agents import make_agent
from tricky_treats.cli import main

WIDTH, HEIGHT = 80, 24
"""The terminal the command is written for (docs/cli.md): 80 columns, 24 lines."""

NAMES = ("Ann", "Bo", "Cy")
A = TypeVar("A", bound=tt.Action)


def _answers(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    state: tt.GameState,
    commands: Sequence[str],
) -> list[str]:
    """What ``play --load`` answers to each of ``commands`` typed at the prompt of ``state``
    (every seat a human's): the output from one prompt to the next."""
    path = tmp_path / "game.json"
    path.write_text(tt.dumps(state), encoding="utf-8")
    typed = "".join(f"{line}\n" for line in [*commands, "quit", "quit"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    seats = ",".join(["human"] * len(state.players))
    assert main(["play", "--load", str(path), "--seats", seats]) == 0
    out = capsys.readouterr().out
    seat = state.current_player
    assert seat is not None
    answers = out.split(f"{state.config.players[seat]}, your action> ")[1:]
    assert len(answers) >= len(commands)
    return answers[: len(commands)]


def _lines(answer: str) -> list[str]:
    return [line.rstrip() for line in answer.splitlines() if line.strip()]


def _states(players: int = 2, seeds: range = range(40)) -> Iterator[tt.GameState]:
    """The states of seeded games between greedy and random bots, where a player is to move."""
    for seed in seeds:
        game = tt.new_game(players=list(NAMES[:players]), seed=seed)
        agents: list[tt.Agent] = [tt.GreedyAgent(), tt.RandomAgent(), tt.GreedyAgent()]
        yield from tt.play_game(game, agents[:players], seed=seed)[:-1]


def _first(found: Callable[[tt.GameState], object], players: int = 2) -> tt.GameState:
    """The first state of the seeded games where ``found`` holds."""
    for state in _states(players):
        if found(state):
            return state
    raise LookupError(found)  # pragma: no cover - the games are seeded


def _seat(state: tt.GameState) -> int:
    seat = state.current_player
    assert seat is not None
    return seat


def _points(state: tt.GameState, seat: int) -> int:
    return state.scores()[seat].total


def _matching(player: tt.PlayerState, wants: object) -> int:
    """The cards on ``player``'s kids that count for a house wanting ``wants`` (R1)."""
    return sum(card.has(wants) for kid in player.kids for card in kid)  # type: ignore[arg-type]


def _legal(state: tt.GameState, kind: type[A]) -> list[A]:
    return [action for action in state.legal_actions() if isinstance(action, kind)]


def test_every_guide_page_fits_an_80x24_terminal_with_its_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tt.new_game(players=list(NAMES[:2]), seed=1)
    (answer,) = _answers(capsys, monkeypatch, tmp_path, state, ["rules\n\n\n\n"])
    pages = re.split(r"Page \d of \d: Enter for the next, q to play\S*", answer)
    assert len(pages) == 5  # the prompts between the five pages; the last ends the guide
    for page in pages:
        lines = page.strip().splitlines()  # the first after the prompt, on the prompt's line
        assert lines[0].startswith("HOW TO PLAY, IN SHORT (page ")
        assert len(lines) <= HEIGHT - 1
        assert max(map(len, lines)) <= WIDTH


def test_a_refusal_leads_with_a_plain_sentence_and_ends_with_the_rulings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = _first(lambda s: s.setup.grid[0].neighbour.wants.value == "green" and not s.history)
    house = state.setup.grid[0].neighbour
    refused, why = _answers(capsys, monkeypatch, tmp_path, state, ["v0", "why"])
    assert " ".join(refused.split()) == (
        f"You cannot visit nice house 0: it wants at least {house.minimum} green cards and "
        "your kids wear 0. ('why' explains; rules R1, R5)"
    )
    lines = _lines(why)
    assert [line.split(":")[0] for line in lines if line[0] == "R"] == ["R1", "R5"]
    assert "covered cards too" in " ".join(why.split())


def test_every_ruling_a_refusal_cites_is_explained(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every illegal action typed at a prompt is refused with rulings that 'why' explains,
    each in words of its own (the rulings page has words for R1 to R24)."""
    state = next(s for s in _states(3) if len(s.history) == 30)
    space = state.action_space
    legal = set(state.legal_actions())
    illegal = [space.decode(c) for c in range(space.size) if space.decode(c) not in legal]
    commands = [line for action in illegal for line in (str(action), "why")]
    answers = _answers(capsys, monkeypatch, tmp_path, state, commands)
    cited: set[str] = set()
    for refused, why in zip(answers[::2], answers[1::2], strict=True):
        rulings = re.search(r"\('why' explains; rules (R[\d, R]+)\)", " ".join(refused.split()))
        assert rulings, refused
        named = rulings.group(1).split(", ")
        explained = [line.split(":")[0] for line in _lines(why) if re.match(r"R\d+:", line)]
        assert explained == named
        words = [line.partition(":")[2] for line in _lines(why) if re.match(r"R\d+:", line)]
        assert all(len(said.split()) >= 5 for said in words)  # words, not just the number
        cited |= set(named)
    assert len(cited) >= 4


def test_why_without_a_refusal_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tt.new_game(players=list(NAMES[:2]), seed=3)
    (why,) = _answers(capsys, monkeypatch, tmp_path, state, ["why"])
    assert _lines(why) == ["No rule to explain: the last answer was not a refusal of the rules."]


def _visit_with_pumpkin(state: tt.GameState) -> bool:
    return any(state.pumpkin_on_house[a.house] for a in _legal(state, tt.VisitHouse))


def test_explain_a_visit_tells_the_treats_the_pumpkin_and_the_points(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = _first(_visit_with_pumpkin)
    seat = _seat(state)
    visit = next(a for a in _legal(state, tt.VisitHouse) if state.pumpkin_on_house[a.house])
    house = visit.house
    cell = state.setup.grid[house]
    (answer,) = _answers(capsys, monkeypatch, tmp_path, state, [f"explain {visit}"])
    lines = _lines(answer)
    text = " ".join(answer.split())
    after = state.apply(visit)
    matching = _matching(state.players[seat], cell.neighbour.wants)
    gained = cell.neighbour.treats_for(matching)
    assert lines[0] == f"If you play v{house} (visit nice house {house}):"
    assert (
        f"You visit nice house {house} with {matching} matching cards and get {gained} "
        f"{cell.treat.value}"
    ) in text
    assert f"You take the pumpkin of nice house {house}" in text
    before, now = _points(state, seat), _points(after, seat)
    assert f"Your points so far: {before} -> {now} (+{now - before})." in lines
    assert now - before >= 2  # the pumpkin at least
    assert all(len(line) <= WIDTH for line in lines)


def _visit_paying_nothing(state: tt.GameState) -> tt.VisitHouse | None:
    seat = _seat(state)
    for visit in _legal(state, tt.VisitHouse):
        after = state.apply(visit)
        if not state.pumpkin_on_house[visit.house] and _points(after, seat) == _points(state, seat):
            return visit
    return None


def test_explain_says_that_treats_pay_only_through_trick_tiles(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 38: "31 -> 31 (no change)" after a visit, without saying why treats paid nothing."""
    state = _first(_visit_paying_nothing)
    visit = _visit_paying_nothing(state)
    take = _legal(state, tt.TakeCard)[0]
    visited, taken = _answers(
        capsys, monkeypatch, tmp_path, state, [f"explain {visit}", f"explain {take}"]
    )
    lines = _lines(visited)
    before = _points(state, _seat(state))
    points = lines.index(f"Your points so far: {before} -> {before} (no change).")
    said = " ".join(line.strip() for line in lines[points + 1 :])
    assert said.startswith("Treats score only through trick tiles (R14): each tile you have")
    assert all(len(line) <= WIDTH for line in lines)
    assert "Treats score" not in taken  # a take gains no treats: nothing to say about them


def test_explain_a_take_tells_what_the_kid_would_wear_and_reach_but_not_the_next_card(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tt.new_game(players=list(NAMES[:2]), seed=4)
    taken = state.market[0]
    assert taken is not None
    revealed = state.setup.deck[state.deck_position]
    (answer,) = _answers(capsys, monkeypatch, tmp_path, state, ["explain t0k1"])
    text = " ".join(answer.split())
    assert text.startswith("If you play t0k1 (take the card of slot 0 for kid 1):")
    assert "kid 1 would wear" in text
    assert "a new card from the deck fills slot 0" in text
    assert str(revealed) not in text  # R16: the deck's next card stays hidden
    assert "the card counts for nice houses" in text


def _completing_take(state: tt.GameState) -> tuple[tt.TakeCard, int] | None:
    """A take that completes a kid's costume and reaches a higher tier of a nice house."""
    seat = _seat(state)
    player = state.players[seat]
    for take in _legal(state, tt.TakeCard):
        kid, card = player.kids[take.kid], state.market[take.slot]
        if len(kid) != 2 or card is None:
            continue
        for house, cell in enumerate(state.setup.grid):
            wants = cell.neighbour.wants
            had = _matching(player, wants)
            if (
                house not in player.visited
                and card.has(wants)
                and cell.neighbour.treats_for(had + 1) > cell.neighbour.treats_for(had) > 0
            ):
                return take, house
    return None


def test_explain_a_take_that_completes_a_costume_and_reaches_a_tier(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = _first(_completing_take)
    found = _completing_take(state)
    assert found is not None
    take, house = found
    seat = _seat(state)
    (answer,) = _answers(capsys, monkeypatch, tmp_path, state, [f"explain {take}"])
    text = " ".join(answer.split())
    worn = [*state.players[seat].kids[take.kid], state.market[take.slot]]
    colour = len({c.colour for c in worn if c is not None}) == 1
    theme = len({c.theme for c in worn if c is not None}) == 1
    points = 8 if colour and theme else 6 if theme else 4 if colour else 2  # R12
    assert f"kid {take.kid}'s costume would be complete: {points} points" in text
    had = _matching(state.players[seat], state.setup.grid[house].neighbour.wants)
    assert re.search(rf"nice house {house} \(\S+\): {had} -> {had + 1} cards, a visit", text)
    assert "instead of" in text


def test_explain_an_illegal_action_gives_the_refusal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tt.new_game(players=list(NAMES[:2]), seed=1)
    (answer,) = _answers(capsys, monkeypatch, tmp_path, state, ["explain m0"])
    lines = _lines(answer)
    assert lines[0].startswith("You cannot trick mean house 0: it needs 3 kids showing")
    assert not any(line.startswith("If you play") for line in lines)


def test_look_shows_what_everyone_sees_of_a_players_board(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = _first(
        lambda s: s.current_player == 0 and all(s.players[2].treats) and s.players[2].kids[0],
        players=3,
    )
    cy = state.players[2]
    (answer,) = _answers(capsys, monkeypatch, tmp_path, state, ["look C"])
    lines = _lines(answer)
    text = " ".join(answer.split())
    assert lines[0] == "Cy (C), as everyone sees them:"
    worn = cy.kids[0][0]
    assert f"{worn.colour.value} {worn.theme.value}" in text
    candy, lollipop, gummy = cy.treats
    assert f"treats: {candy} candy, {lollipop} lollipop, {gummy} gummy" in text
    assert all(len(line) <= WIDTH for line in lines)
    assert "secret" not in text


def _finished(seats: Sequence[str], seed: int, names: Sequence[str]) -> tt.GameState:
    """The game ``play --seats`` plays between bots from ``seed``, as the command plays it."""
    rng = random.Random(seed)
    game = tt.new_game(players=list(names), seed=seed)
    agents = [make_agent(seat) for seat in seats]
    while not game.is_over:
        seat = _seat(game)
        game = game.apply(agents[seat].choose(game.view(seat), game.legal_actions(), rng))
    return game


def _end_screen(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    final: tt.GameState, seats: str,
) -> str:  # fmt: skip
    """What ``play --load`` shows of a finished game: its end."""
    path = tmp_path / "final.json"
    path.write_text(tt.dumps(final), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--load", str(path), "--seats", seats]) == 0
    return " ".join(capsys.readouterr().out.split())


def _ties(names: Sequence[str]) -> Iterator[tuple[int, tt.GameState]]:
    """Seeds and finished games of two random bots tied on points (a tie-break decides)."""
    for seed in range(400):
        final = _finished(["random", "random"], seed, names)
        totals = [sheet.total for sheet in final.scores()]
        if totals[0] == totals[1]:
            yield seed, final


def test_the_tie_break_is_explained_only_when_it_decides(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    names = ("Ann", "Greedy 2")
    untied = _finished(["random", "random"], 0, names)
    assert len({sheet.total for sheet in untied.scores()}) == 2
    untied_end = _end_screen(capsys, monkeypatch, tmp_path, untied, "random,random")
    assert "the tie" not in untied_end
    assert "(R15)" not in untied_end
    _, final = next((s, f) for s, f in _ties(names) if len(f.winners()) == 1)
    (winner,) = final.winners()
    sheets = final.scores()
    tiles = f"{sheets[winner].treats} points from trick tiles against {sheets[1 - winner].treats}"
    decided = _end_screen(capsys, monkeypatch, tmp_path, final, "random,random")
    assert f"{names[winner]} wins the tie on trick tiles: {tiles} (R15)." in decided
    seats = ",".join("human" if seat == winner else "random" for seat in range(2))
    mine = _end_screen(capsys, monkeypatch, tmp_path, final, seats)
    assert f"You win the tie on trick tiles: {tiles} (R15)." in mine


def test_a_player_named_you_is_a_name_to_every_other_seat() -> None:
    """Issue 46 (item 8) and 48: a player called "You" (or "Jij") is never the reader.

    Only the seat a line is told to (``you=``) reads in the second person; to anyone else, a
    player named "You" is a name like any other.
    """
    for language, name in (("en", "You"), ("nl", "Jij"), ("nl", "You")):
        names = [name, "Bo"]
        state = tt.new_game(players=names, seed=1)
        for _ in range(4):
            state, events = state.apply_with_events(state.legal_actions()[0])
            for event in events:
                if getattr(event, "player", None) != 0:
                    continue
                to_bo = tt.describe_event(event, names, you=1, language=language)
                to_them = tt.describe_event(event, names, you=0, language=language)
                assert to_bo.startswith(f"{name} "), to_bo
                if language == "en":  # Dutch says "Jij legt" to both: the same words
                    assert to_bo != to_them, to_them
        over = tt.GameOver((0,))
        told = tt.describe_event(over, names, you=1, language=language)
        assert told == (
            "game over; You wins" if language == "en" else f"het spel is voorbij; {name} wint"
        )
        assert tt.describe_event(over, names, you=0) == "game over; you win"
    ann = tt.new_game(players=["Ann", "You"], seed=1)
    first = ann.apply_with_events(ann.legal_actions()[0])[1][0]
    assert tt.describe_event(first, ["Ann", "You"]).startswith("Ann puts ")


def test_a_tie_won_by_a_player_named_you_is_told_as_a_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Names are names (issue 46, item 8): to nobody's seat, "You wins the tie"."""
    names = ("Ann", "You")
    _, final = next((s, f) for s, f in _ties(names) if f.winners() == (1,))
    text = _end_screen(capsys, monkeypatch, tmp_path, final, "random,random")
    assert "You wins the tie on trick tiles: " in text
