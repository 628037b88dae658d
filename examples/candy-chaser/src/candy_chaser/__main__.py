"""``candy-chaser play`` (against bots in the terminal) and ``candy-chaser simulate``."""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Hashable, Sequence
from typing import Final

from candy_chaser._i18n import LANGUAGES, N_, _
from candy_chaser.bots import make_bot
from candy_chaser.game import (
    CANDIES,
    GOAL,
    TOP,
    Accuse,
    CandyChaserState,
    CandyChaserView,
    Move,
    Pass,
    Phase,
    _price_lines,
    new_game,
    parse_action,
)
from tricky_treats.protocol import InformationSet, TurnBasedGame, run_console
from tricky_treats.protocol import game_kit as kit

__all__ = ["HELP", "NOTATION", "describe", "main", "moves", "outcome", "refusal", "render"]

HELP: Final = N_("""\
Candy Chaser: each player secretly deals one of five candies; its cube's space on the board is
its price. Marketing: on your turn the die is rolled (-2, -1, +1, +2 or +3) and you move any one
cube exactly that far, stopping at the board's ends. A cube may reach G only while another cube
is on 3 or more; otherwise it stops on 5. The first cube on G starts the Tattletale phase: from
the player left of the mover round to the mover, each may accuse another player of dealing a
candy (right: they are out, and you may accuse again; wrong: you are out) or pass. The survivor
whose candy has the highest price wins. Actions: move CANDY, accuse PLAYER CANDY, pass (candies:
red, orange, yellow, green, purple). Or type an action's number.""")


TATTLETALE: Final = N_(
    "Tattletale (one round, from the player left of the mover round to the mover): accuse a "
    "player of dealing a candy, or pass. Right: they are out, and you may accuse again; wrong: "
    "you are out. Only you and the accused see the candy you name (CC-4)."
)
"""Said on every screen of the Tattletale phase: the round decides the game."""


CANDY_WORDS: Final = {
    "red": N_("red"),
    "orange": N_("orange"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "purple": N_("purple"),
}
"""The candies' names, as the screens and the actions say them."""

NOTATION: Final = kit.Notation(
    {
        "move": (N_("move"),),
        "accuse": (N_("accuse"),),
        "pass": (N_("pass"),),
        **{candy: (word,) for candy, word in CANDY_WORDS.items()},
    },
    parse_action,
    _,
)
"""The actions in the player's words (``mover rojo``), read back in either language."""

_PHASES: Final = {
    Phase.MARKETING: N_("marketing"),
    Phase.TATTLETALE: N_("tattletale"),
    Phase.OVER: N_("over"),
}


def _candy(candy: str | None) -> str:
    return _(CANDY_WORDS[candy]) if candy in CANDY_WORDS else str(candy)


def _price_rows(prices: Sequence[int]) -> list[str]:
    """The board, each row named by its candy in the player's language."""
    header, *rows = _price_lines(prices)
    width = max(8, *(len(_candy(c)) + 1 for c in CANDIES))
    return [
        " " * (width - 8) + header,
        *(f"{_candy(c):<{width}}{row[8:]}" for c, row in zip(CANDIES, rows, strict=True)),
    ]


def _space(price: int) -> str:
    return "G" if price == GOAL else str(price)


def moves(view: CandyChaserView) -> list[str]:
    """Where each cube would end with the current roll, and why a cube stops short of G."""
    assert view.roll is not None
    lines = []
    for i, candy in enumerate(CANDIES):
        start = view.prices[i]
        end = view.destination(candy)
        note = ""
        if view.roll > 0 and end == TOP and start + view.roll > TOP:
            note = _("  (stops on 5: G needs another cube on 3 or more, CC-3)")
        elif end == GOAL:
            note = _("  (reaches G: the Tattletale phase begins)")
        elif end == start:
            note = _("  (cannot move further)")
        lines.append(f"  {NOTATION.spell(Move(candy))}: {_space(start)} -> {_space(end)}{note}")
    return lines


def render(view: CandyChaserView) -> str:
    """A player's view as text."""
    lines = [
        _("-- {phase}; you are player {player}").format(
            phase=_(_PHASES[view.phase]), player=view.player
        ),
        *_price_rows(view.prices),
    ]
    lines.append(_("your candy: {candy}").format(candy=_candy(view.objectives[view.player])))
    out = [str(p) for p in range(view.players) if not view.alive[p]]
    if out:
        lines.append(_("eliminated: {players}").format(players=", ".join(out)))
    for a in view.accusations:
        verdict = _("right") if a.correct else _("wrong")
        if a.candy:
            text = _("player {accuser} accused player {target} of {candy}: {verdict}")
        else:
            text = _("player {accuser} accused player {target}: {verdict}")
        lines.append(
            text.format(accuser=a.accuser, target=a.target, candy=_candy(a.candy), verdict=verdict)
        )
    if view.roll is not None:
        lines.append(
            _("player {player} rolled {roll}:").format(
                player=view.current_player, roll=f"{view.roll:+d}"
            )
        )
        lines.extend(moves(view))
    if view.phase is Phase.TATTLETALE:
        lines.extend(textwrap.wrap(_(TATTLETALE), 80))
    return "\n".join(lines)


def describe(state: CandyChaserState, action: Hashable, seat: int) -> str:
    """An action as ``seat`` learns of it: the roll and the move, or an accusation's result.

    Others' accusations do not show the candy [B].
    """
    if isinstance(action, Move):
        assert state.roll is not None
        start, end = state.price(action.candy), state.destination(action.candy)
        told = _("rolled {roll}, moves {candy} {start} -> {end}").format(
            roll=f"{state.roll:+d}",
            candy=_candy(action.candy),
            start=_space(start),
            end=_space(end),
        )
        return told + (_("; G is reached: Tattletale") if end == GOAL else "")
    if isinstance(action, Accuse):
        correct = state.apply(action).accusations[-1].correct
        result = ": " + (_("right") if correct else _("wrong"))
        if seat not in (state.current_player, action.target):
            return _("accuses player {target} (candy hidden)").format(target=action.target) + result
        told = _("accuses player {target} of dealing {candy}")
        return told.format(target=action.target, candy=_candy(action.candy)) + result
    assert isinstance(action, Pass)
    return _("passes")


def refusal(info: InformationSet, action: Hashable) -> str:
    """Why the rules refuse ``action`` now, in the player's language.

    Asked of a state the player cannot tell from the real one: the reasons read only what
    the player knows (the phase, who is still in, whose turn it is).
    """
    state = info.determinize(random.Random(0))
    assert isinstance(state, CandyChaserState)
    assert isinstance(action, Move | Accuse | Pass)
    reason, values = state.refusal(action)
    return _(reason).format(**values)


def outcome(final: TurnBasedGame, seat: int) -> str:
    """The survivors show their candies (CC-7); the highest price wins (CC-6)."""
    assert isinstance(final, CandyChaserState)
    lines = [_("the survivors show their candies:")]
    for p in range(final.num_players):
        if final.alive[p]:
            candy = final.objectives[p]
            lines.append(
                _("  player {player}: {candy} at {price}").format(
                    player=p, candy=_candy(candy), price=_space(final.price(candy))
                )
            )
    out = [p for p in range(final.num_players) if not final.alive[p]]
    if out:  # not survivors: said apart, their candies hidden (CC-7)
        players = _(" and ").join(_("player {player}").format(player=p) for p in out)
        if len(out) == 1:
            text = _("eliminated, their candy stays hidden: {players}")
        else:
            text = _("eliminated, their candies stay hidden: {players}")
        lines.append(text.format(players=players))
    winners = final.winners()
    price = _space(final.price(final.objectives[winners[0]]))
    names = _(" and ").join(_("player {player}").format(player=p) for p in winners)
    if len(winners) > 1:
        text = _("{names} share the win: the highest price among the survivors, {price}")
    else:
        text = _("{names} wins: the highest price among the survivors, {price}")
    lines.append(text.format(names=names, price=price))
    return "\n".join(lines)


def _new(players: int, seed: int) -> TurnBasedGame:
    return new_game(players, seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``candy-chaser`` command."""
    return run_console(
        "candy-chaser",
        _new,
        render,
        argv,
        (2, 4),
        describe,
        help_text=HELP,
        outcome=outcome,
        make_bot=make_bot,
        languages=LANGUAGES,
        translate=_,
        spell=NOTATION.spell,
        parse=NOTATION.read,
        refusal=refusal,
    )


if __name__ == "__main__":
    sys.exit(main())
