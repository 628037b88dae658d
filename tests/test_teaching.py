"""The terminal teaches (issue 23): the short guide, explain, why, refusals, look, tie-breaks."""

from __future__ import annotations

import attrs

import tricky_treats as tt
from tests.boards import card, with_player
from tricky_treats.cli._teaching import (
    GUIDE_PAGES,
    RULINGS_IN_WORDS,
    explain_lines,
    look_lines,
    refusal,
    refusal_text,
    tie_break_text,
    why_lines,
)
from tricky_treats.drawing._terminal import SCREEN_LINES, WIDTH


def _game_with(*wanted: str) -> tt.GameState:
    """The first 2-player game whose grid has houses that like all of ``wanted``."""
    for seed in range(100):
        game = tt.new_game(2, seed=seed)
        if set(wanted) <= {c.neighbour.wants.value for c in game.setup.grid}:
            return game
    raise LookupError(wanted)  # pragma: no cover - 9 of 10 houses are dealt


def _house(game: tt.GameState, wants: str) -> int:
    return next(h for h, c in enumerate(game.setup.grid) if c.neighbour.wants.value == wants)


def test_every_guide_page_fits_an_80x24_terminal_with_its_prompt() -> None:
    for page in GUIDE_PAGES:
        lines = page.splitlines()
        assert len(lines) <= SCREEN_LINES - 1
        assert max(map(len, lines)) <= WIDTH


def test_every_ruling_of_the_rules_page_has_a_players_explanation() -> None:
    assert set(RULINGS_IN_WORDS) == {f"R{n}" for n in range(1, 25)}


def test_a_refusal_leads_with_a_plain_sentence_and_ends_with_the_rulings() -> None:
    game = _game_with("green")
    house = _house(game, "green")
    try:
        game.apply(tt.VisitHouse(house))
    except tt.IllegalActionError as exc:
        message = str(exc)
    sentence, rulings = refusal(tt.VisitHouse(house), message)
    assert sentence == (
        f"You cannot visit nice house {house}: it wants at least 2 green cards and your kids "
        "wear 0."
    )
    assert rulings == ("R1", "R5")
    text = refusal_text(tt.VisitHouse(house), message)
    assert text.startswith("You cannot visit")
    assert text.endswith("('why' explains; rules R1, R5)")
    assert [line.split(":")[0] for line in why_lines(rulings) if line[0] == "R"] == ["R1", "R5"]
    assert "covered cards too" in " ".join(why_lines(rulings))


def test_why_without_a_refusal_says_so() -> None:
    assert why_lines(()) == ["No rule to explain: the last answer was not a refusal of the rules."]


def test_explain_a_visit_tells_the_treats_the_pumpkin_and_the_points() -> None:
    game = _game_with("green")
    house = _house(game, "green")
    greens = [card("green", "space", "head"), card("green", "horror", "body")]
    greens += [card("green", "fable", "legs"), card("green", "animal", "head")]
    game = with_player(game, 0, kids=[greens[:3], [greens[3]], [], [], []])
    lines = explain_lines(game, tt.VisitHouse(house))
    text = "\n".join(lines)
    treat = game.setup.grid[house].treat.value
    assert lines[0] == f"If you play v{house} (visit nice house {house}):"
    assert f"You visit nice house {house} with 4 matching cards and get 2 {treat}" in text
    assert f"You take the pumpkin of nice house {house}" in text
    before = game.scores()[0].total
    after = game.apply(tt.VisitHouse(house)).scores()[0].total
    assert f"Your points so far: {before} -> {after} (+{after - before})." in lines
    assert after - before >= 2  # the pumpkin at least


def test_explain_says_that_treats_pay_only_through_trick_tiles() -> None:
    """Issue 38: "31 -> 31 (no change)" after a visit, without saying why treats paid nothing."""
    game = _game_with("green")
    house = _house(game, "green")
    greens = [card("green", "space", "head"), card("green", "horror", "body")]
    game = with_player(game, 0, kids=[greens, [], [], [], []])
    game = attrs.evolve(game, pumpkin_on_house=(False,) * 9)  # no pumpkin to take
    lines = explain_lines(game, tt.VisitHouse(house))
    before = game.scores()[0].total
    assert game.apply(tt.VisitHouse(house)).scores()[0].total == before
    points = lines.index(f"Your points so far: {before} -> {before} (no change).")
    said = " ".join(line.strip() for line in lines[points + 1 :])
    assert said.startswith("Treats score only through trick tiles (R14): each tile you have")
    assert all(len(line) <= WIDTH for line in lines)
    # A take gains no treats: nothing to say about them.
    take = next(a for a in game.legal_actions() if isinstance(a, tt.TakeCard))
    assert "Treats score" not in " ".join(explain_lines(game, take))


def test_explain_a_take_tells_what_the_kid_would_wear_and_reach_but_not_the_next_card() -> None:
    game = tt.new_game(2, seed=4)
    taken = game.market[0]
    assert taken is not None
    revealed = game.setup.deck[game.deck_position]
    first = with_player(game, 0, kids=[[], [], [], [], []])
    lines = explain_lines(first, tt.TakeCard(0, 1))
    text = "\n".join(lines)
    assert f"kid 1 would wear {taken.colour.value} {taken.theme.value} {taken.type.value}" in text
    assert "a new card from the deck fills slot 0" in text
    assert str(revealed) not in text  # R16: the deck's next card stays hidden
    assert "the card counts for nice houses" in text
    assert first == with_player(game, 0, kids=[[], [], [], [], []])  # nothing was played


def test_explain_a_take_that_completes_a_costume_and_reaches_a_tier() -> None:
    game = _game_with("red")
    house = _house(game, "red")
    kid = [card("red", "space", "head"), card("red", "space", "body")]
    legs = card("red", "space", "legs")
    game = with_player(game, 0, kids=[kid, [card("red", "fable", "head")], [], [], []])
    market = (legs, *game.market[1:])
    game = attrs.evolve(game, market=market)
    text = "\n".join(explain_lines(game, tt.TakeCard(0, 0)))
    assert "kid 0's costume would be complete: 8 points" in text
    assert f"nice house {house} (red): 3 -> 4 cards, a visit would give 2" in text
    assert "instead of 1" in text


def test_explain_an_illegal_action_gives_the_refusal() -> None:
    game = tt.new_game(2, seed=1)
    lines = explain_lines(game, tt.TrickHouse(0))
    assert len(lines) == 1
    assert lines[0].startswith("You cannot trick mean house 0: it needs 3 kids showing")


def test_look_shows_what_everyone_sees_of_a_players_board() -> None:
    game = tt.new_game(3, seed=2)
    game = with_player(game, 2, kids=[[card("purple", "horror", "head")], [], [], [], []])
    game = with_player(game, 2, treats=(1, 2, 3))
    lines = look_lines(game.view(0), 2)
    text = "\n".join(lines)
    assert lines[0] == "Player 3 (C), as everyone sees them:"
    assert "purple horror" in text
    assert "treats: 1 candy, 2 lollipop, 3 gummy" in text
    assert all(len(line) <= WIDTH for line in lines)
    assert "secret" not in text


def _sheet(player: int, pumpkins: int, tiles: int) -> tt.ScoreSheet:
    tile = tt.base_components().trick_tiles[0]
    return tt.ScoreSheet(player, pumpkins, (), (tt.TileScore(tile, None, 1, tiles),))


def test_the_tie_break_is_explained_only_when_it_decides() -> None:
    names = ["Ann", "Greedy 2", "Cy"]
    assert tie_break_text([_sheet(0, 10, 4), _sheet(1, 2, 9), _sheet(2, 0, 0)], names) is None
    decided = tie_break_text([_sheet(0, 10, 4), _sheet(1, 5, 9), _sheet(2, 0, 0)], names)
    assert decided == (
        "Greedy 2 wins the tie on trick tiles: 9 points from trick tiles against 4 (R15)."
    )
    mine = tie_break_text([_sheet(0, 10, 4), _sheet(1, 5, 9)], ["Ann", "Bo"], you=1)
    assert mine is not None
    assert mine.startswith("You win the tie on trick tiles: 9 points")
    # Names are names: a player called "You" is not the reader (issue 46, item 8).
    theirs = tie_break_text([_sheet(0, 10, 4), _sheet(1, 5, 9)], ["Ann", "You"], you=0)
    assert theirs is not None
    assert theirs.startswith("You wins the tie on trick tiles: 9 points")
    shared = tie_break_text([_sheet(0, 5, 9), _sheet(1, 5, 9), _sheet(2, 0, 0)], names)
    assert shared == (
        "Ann and Greedy 2 tie on 14 points and on 9 points from trick tiles, so they share "
        "the win (R15)."
    )


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
