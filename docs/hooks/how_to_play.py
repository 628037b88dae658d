"""The pictures and the worked example of docs/how-to-play.md, from a real game; a MkDocs hook.

Nothing on the page is drawn by hand. This module plays one seeded game between greedy bots,
draws positions of it with ``board_svg`` (the library's own renderer) and writes the
scoring example from that game's final score sheet (and the sentence about the pictured kids).
They are committed, so that the page reads whole on a code host too: the pictures in
``docs/img/how-to-play/*.svg``, the texts in the page between ``<!-- worked-example -->`` and
``<!-- /worked-example -->`` (and the ``kids-example`` pair). One command writes them again
after a change to the engine or its drawing::

    python docs/hooks/how_to_play.py

``tests/test_how_to_play.py`` fails when the committed files differ from what the engine
draws, and so does ``mkdocs build`` (this module is its hook), so the pictures and the
numbers can never disagree with the rules.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tricky_treats as tt
from tricky_treats.drawing import board_svg

PAGE = "how-to-play.md"
FOLDER = "img/how-to-play"
PAGES = {"en": (PAGE, FOLDER), "nl": ("how-to-play.nl.md", "img/how-to-play/nl")}
"""Each language's page and the folder of its pictures (issue 39: the Dutch page)."""
MARKER = "<!-- worked-example -->"
KIDS_MARKER = "<!-- kids-example -->"
DOCS = Path(__file__).resolve().parent.parent
COMMAND = "python docs/hooks/how_to_play.py"
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


def pictures(language: str = "en") -> dict[str, str]:
    """The page's pictures by file name, each drawn by ``board_svg`` from a real view."""
    return {
        f"{name}.svg": board_svg(state.view(seat), parts=parts, language=language)
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


_DUTCH = {
    "pumpkins": "{n} pompoenen, 2 punten per stuk",
    "kid": "kind {index}: {words}",
    "incomplete": "{n} van 3 kaarten, niet compleet",
    "secret tile": "geheime plaagtegel",
    "mean tile": "plaagtegel van gemene buur {house}",
    "tile row": "{where} ({need} = {points} per set): {sets} sets",
    "intro": "Aan het einde van het spel op deze pagina heeft {name} {treats}, en scoort:",
    "others": "De anderen scoren {others}: {name} wint.",
    "head": "| wat | punten |",
    "total": "totaal",
}


def _dutch_worked_example() -> str:
    """The worked example in Dutch, from the same final sheet as the English one."""
    from tricky_treats.i18n import speaking
    from tricky_treats.words import treat_amount, word

    final = game()[-1]
    (winner, *_) = final.winners()
    sheet = final.scores()[winner]
    player = final.players[winner]
    with speaking("nl"):
        treats = ", ".join(treat_amount(n, t) for t, n in zip(tt.Treat, player.treats, strict=True))
        rows = [_DUTCH["head"], "|---|---:|"]
        rows.append(f"| {_DUTCH['pumpkins'].format(n=player.pumpkins)} | {sheet.pumpkins} |")
        for index, kid in enumerate(player.kids):
            if len(kid) < 3:
                words = _DUTCH["incomplete"].format(n=len(kid))
            else:
                words = (
                    ", ".join(
                        f"{word(c.type.value)} {word(c.colour.value)} {word(c.theme.value)}"
                        for c in kid
                    )
                    + f" ({costume_points_words(kid)})"
                )
            rows.append(
                f"| {_DUTCH['kid'].format(index=index, words=words)} | {sheet.costumes[index]} |"
            )
        for score in sheet.trick_tiles:
            where = (
                _DUTCH["secret tile"]
                if score.mean_house is None
                else _DUTCH["mean tile"].format(house=score.mean_house)
            )
            need = " + ".join(word(t.value) for t in score.tile.treats)
            row = _DUTCH["tile row"].format(
                where=where, need=need, points=score.tile.points, sets=score.sets
            )
            rows.append(f"| {row} | {score.points} |")
    rows.extend(f"| {extra.label} | {extra.points} |" for extra in sheet.extras)
    rows.append(f"| **{_DUTCH['total']}** | **{sheet.total}** |")
    others = ", ".join(
        f"{final.players[s.player].name} {s.total}" for s in final.scores() if s.player != winner
    )
    return (
        _DUTCH["intro"].format(name=player.name, treats=treats)
        + "\n\n"
        + "\n".join(rows)
        + "\n\n"
        + _DUTCH["others"].format(others=others, name=player.name)
        + "\n"
    )


def costume_points_words(kid: Sequence[tt.CostumeCard]) -> str:
    """Why a complete costume scores what it does, in Dutch."""
    colours = len({c.colour for c in kid}) == 1
    themes = len({c.theme for c in kid}) == 1
    return {
        (True, True): "zelfde kleur en thema",
        (False, True): "zelfde thema, andere kleuren",
        (True, False): "zelfde kleur, andere thema's",
        (False, False): "andere kleuren en thema's",
    }[colours, themes]


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


# -- the committed files -------------------------------------------------------------------------


def _end(marker: str) -> str:
    return marker.replace("<!-- ", "<!-- /")


def page_text(page: str, language: str = "en") -> str:
    """``page`` with the texts between each pair of markers written from the game."""
    blocks = (
        ((MARKER, worked_example()), (KIDS_MARKER, kids_example()))
        if language == "en"
        else ((MARKER, _dutch_worked_example()),)
    )
    for marker, text in blocks:
        pattern = re.compile(re.escape(marker) + r"\n.*?" + re.escape(_end(marker)), re.DOTALL)
        found = pattern.search(page)
        if found is None:
            raise ValueError(f"{PAGE} has lost its {marker} ... {_end(marker)} lines")
        block = f"{marker}\n{text.strip()}\n{_end(marker)}"
        page = page[: found.start()] + block + page[found.end() :]
    return page


def stale(docs: Path = DOCS) -> list[str]:
    """The committed files that differ from what the engine draws (relative to ``docs``)."""
    found = []
    for language, (name_of_page, folder_name) in PAGES.items():
        page = (docs / name_of_page).read_text()
        if page_text(page, language) != page:
            found.append(name_of_page)
        folder = docs / folder_name
        drawn = pictures(language)
        for name, svg in drawn.items():
            path = folder / name
            if not path.is_file() or path.read_text() != svg:
                found.append(f"{folder_name}/{name}")
        found.extend(
            f"{folder_name}/{p.name} (not drawn)"
            for p in folder.glob("*.svg")
            if p.name not in drawn
        )
    return found


def write(docs: Path = DOCS) -> list[str]:
    """Write the pictures and the page's texts again; return the files that changed."""
    changed = stale(docs)
    for language, (name_of_page, folder_name) in PAGES.items():
        folder = docs / folder_name
        folder.mkdir(parents=True, exist_ok=True)
        drawn = pictures(language)
        for name, svg in drawn.items():
            (folder / name).write_text(svg)
        for path in folder.glob("*.svg"):
            if path.name not in drawn:
                path.unlink()
        page = docs / name_of_page
        page.write_text(page_text(page.read_text(), language))
    return changed


# -- MkDocs events -------------------------------------------------------------------------------


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Refuse to build a page whose pictures or texts are not what the engine draws."""
    if page.file.src_uri in {name for name, _folder in PAGES.values()}:
        found = stale()
        if found:
            raise ValueError(f"out of date: {', '.join(found)}; run {COMMAND}")
    return markdown


if __name__ == "__main__":
    changed = write()
    print("\n".join(f"wrote docs/{name}" for name in changed) or "nothing to change")
    sys.exit(0)
