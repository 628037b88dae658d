"""A MkDocs hook: the pictures and the worked example of docs/how-to-play.md, from real games.

Nothing on the page is drawn by hand. At every build this hook plays one seeded game between
greedy bots, draws positions of it with ``tt.board_svg`` (the library's own renderer) into
``img/how-to-play/*.svg`` of the site, and writes the scoring example from that game's final
score sheet where the page has ``<!-- worked-example -->`` (and the sentence about the pictured
kids where it has ``<!-- kids-example -->``). ``tests/test_how_to_play.py`` checks these
functions, so the pictures and the numbers can never disagree with the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import tricky_treats as tt

PAGE = "how-to-play.md"
FOLDER = "img/how-to-play"
MARKER = "<!-- worked-example -->"
KIDS_MARKER = "<!-- kids-example -->"
NAMES = ("Ann", "Bo", "Cy")
SEED = 2026


@functools.cache
def game() -> tuple[tt.GameState, ...]:
    """Every state of the page's game: three greedy bots, seed 2026."""
    start = tt.new_game(players=list(NAMES), seed=SEED)
    return tuple(tt.play_game(start, [tt.GreedyAgent()] * len(NAMES), seed=SEED))


def _first(states: Sequence[tt.GameState], test: Any) -> tt.GameState:
    return next(state for state in states if test(state))


def positions() -> dict[str, tuple[tt.GameState, int, tuple[str, ...] | None]]:
    """Each picture's position: the state, whose view, and the parts drawn (None: all)."""
    states = game()
    start = states[0]
    # Ann (seat 0) to play, with a kid wearing 3 cards: the stack shows transparency.
    dressed = _first(
        states,
        lambda s: s.current_player == 0 and any(len(k) == 3 for k in s.players[0].kids),
    )
    # The grid once a street bonus token has been flipped, with footprints on it.
    street = _first(states, lambda s: any(s.street_flipped))
    tricked = _first(states, lambda s: any(p.tricked for p in s.players))
    final = states[-1]
    return {
        "table": (start, 0, None),
        "market": (start, 0, ("market",)),
        "kids": (dressed, 0, ("kids",)),
        "grid": (street, street.current_player or 0, ("grid",)),
        "mean-houses": (tricked, 0, ("mean-houses",)),
        "players": (dressed, 0, ("players",)),
        "score-sheet": (final, 0, ("scores",)),
    }


def pictures() -> dict[str, str]:
    """The page's pictures by file name, each drawn by ``tt.board_svg`` from a real view."""
    return {
        f"{name}.svg": tt.board_svg(state.view(seat), parts=parts)
        for name, (state, seat, parts) in positions().items()
    }


def _costume_words(kid: Sequence[tt.CostumeCard]) -> str:
    if len(kid) < 3:
        return f"{len(kid)} of 3 pieces, not complete"
    colours = {c.colour for c in kid}
    themes = {c.theme for c in kid}
    same = {
        (True, True): "same colour and theme",
        (False, True): "same theme, different colours",
        (True, False): "same colour, different themes",
        (False, False): "different colours and themes",
    }[len(colours) == 1, len(themes) == 1]
    cards = ", ".join(f"{c.colour.value} {c.theme.value} {c.type.value}" for c in kid)
    return f"{cards} ({same})"


def kids_example() -> str:
    """A sentence about the first of the pictured kids that wears 3 cards."""
    state, seat, _ = positions()["kids"]
    kids = state.players[seat].kids
    index, kid = next((i, k) for i, k in enumerate(kids) if len(k) == 3)
    cards = [f"{c.colour.value} {c.theme.value} {c.type.value}" for c in kid]
    icon = kid[-1].icon.value.replace("-", " ")  # "toilet paper", as the pictures say
    return (
        f"Above, {state.players[seat].name}'s kid {index} wears three cards: it counts as a "
        f"{cards[0]}, a {cards[1]} and a {cards[2]} card, and it shows the {icon} of the "
        "card placed last."
    )


def worked_example() -> str:
    """The scoring example: the final score sheet of the page's winner, line by line."""
    final = game()[-1]
    (winner, *_) = final.winners()
    sheet = final.scores()[winner]
    player = final.players[winner]
    treats = ", ".join(f"{n} {t.value}" for t, n in zip(tt.Treat, player.treats, strict=True))
    rows = [
        "| what | points |",
        "|---|---:|",
        f"| {player.pumpkins} pumpkins, 2 points each | {sheet.pumpkins} |",
    ]
    for index, kid in enumerate(player.kids):
        rows.append(f"| kid {index}: {_costume_words(kid)} | {sheet.costumes[index]} |")
    for score in sheet.trick_tiles:
        where = (
            "secret tile" if score.mean_house is None else f"tile of mean house {score.mean_house}"
        )
        need = " + ".join(t.value for t in score.tile.treats)
        rows.append(
            f"| {where} ({need} = {score.tile.points} per set): {score.sets} sets "
            f"| {score.points} |"
        )
    rows.extend(f"| {extra.label} | {extra.points} |" for extra in sheet.extras)
    rows.append(f"| **total** | **{sheet.total}** |")
    others = ", ".join(
        f"{final.players[s.player].name} {s.total}" for s in final.scores() if s.player != winner
    )
    return (
        f"At the end of the game pictured on this page, {player.name} holds {treats}, and "
        f"scores:\n\n" + "\n".join(rows) + f"\n\nThe others score {others}: "
        f"{player.name} wins.\n"
    )


# -- MkDocs events -------------------------------------------------------------------------------


def on_files(files: Any, config: Any) -> Any:
    """Add the pictures to the site, as files the page can link to (MkDocs 1.6)."""
    from mkdocs.structure.files import File

    for name, svg in pictures().items():
        files.append(File.generated(config, f"{FOLDER}/{name}", content=svg))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Write the worked example into the page."""
    if page.file.src_uri != PAGE:
        return markdown
    for marker in (MARKER, KIDS_MARKER):
        if marker not in markdown:
            raise ValueError(f"{PAGE} has lost its {marker} line")
    return markdown.replace(MARKER, worked_example()).replace(KIDS_MARKER, kids_example())
