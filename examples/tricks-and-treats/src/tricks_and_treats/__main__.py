"""``tricks-and-treats play`` (against bots in the terminal) and ``tricks-and-treats simulate``."""

from __future__ import annotations

import random
import sys
import textwrap
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Final

from tricks_and_treats._i18n import LANGUAGES, N_, _
from tricks_and_treats.bots import make_bot
from tricks_and_treats.game import (
    CAPTURE_POINTS,
    SPECIALS,
    Accuse,
    Action,
    Draw,
    Play,
    Pull,
    Skip,
    Step,
    Swap,
    TricksAndTreatsState,
    TricksAndTreatsView,
    _basket_words,
    _total,
    basket_id,
    basket_name,
    new_game,
    parse_action,
)
from tricky_treats.protocol import InformationSet, TurnBasedGame, run_console
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "CHOICES",
    "HELP",
    "NOTATION",
    "SPECIAL_RULES",
    "describe",
    "main",
    "outcome",
    "refusal",
    "render",
]

SPECIAL_RULES: Final = {
    "bomb": N_(
        "whoever plays a card under it may swap the bomb basket card with a neighbour "
        "(the candy stays where it lies); at the end both its neighbours lose their candy"
    ),
    "monte": N_(
        "whoever plays a 2 under it may swap it with a neighbour (the candy stays); "
        "at the end its two neighbours swap places"
    ),
    "magnet": N_(
        "whoever plays a card under it may move the top card under any other basket "
        "under another basket"
    ),
    "disco": N_(
        "when its candy reaches 10, its cards leave the game and the baskets with the "
        "most and the fewest candy swap places (the candy stays; on a tie the player who "
        "played the card chooses)"
    ),
    "piggy": N_(
        "starts with 3 cards; at the end they go under the basket with the fewest "
        "candy (on a tie, the fewest that only one basket has, TT-15)"
    ),
    "lottery": N_(
        "starts with 3 cards; at the end they go under the basket with as many "
        "cards (on a tie, the one with less candy; still tied, nothing happens)"
    ),
    "slide": N_(
        "at the end every basket card moves one place right if its candy is odd, "
        "left if even (the row wraps round; the candy stays)"
    ),
    "popular": N_(
        "at the end, if its candy is even, every basket with an even amount of "
        "candy scores 10 more; if odd, the odd ones do"
    ),
    "favorite": N_(
        "at the end the candy kind most under it scores 2 points a candy (two kinds "
        "tied: both; three or more: nothing)"
    ),
    "badcandy": N_(
        "at the end the candy kind most under it scores 0 (two kinds tied: both; "
        "three or more: nothing)"
    ),
    "lice": N_(
        "at the end the candy kind most under it has lice: the players still in whose "
        "baskets hold the most of it are out, unless that is everyone left (TT-16)"
    ),
}
"""What each special basket does, in words ([4]; the rulings in RULES.md)."""

CHOICES: Final = {
    "bomb": N_(
        "you may swap the bomb basket card with a neighbouring basket card (swap bomb N):"
        " the basket cards change places, the candy under them stays where it lies (TT-17); or"
        " skip"
    ),
    "monte": N_(
        "you played a 2 under monte: you may swap the monte basket card with a "
        "neighbour (swap monte N): the candy stays where it lies (TT-17); or skip"
    ),
    "magnet": N_(
        "you may move the top card under any other basket under another basket "
        "(pull FROM TO), or skip"
    ),
    "disco": N_(
        "the disco's candy reached 10 and left the game; several baskets tie for the "
        "most or the fewest candy, so you choose which two swap places (swap A B): the candy "
        "stays (TT-17)"
    ),
}
"""What the player who must decide for a special basket may do (TT-12)."""

HELP_TEXT: Final = N_("""\
Tricks & Treats: each player secretly owns the basket of the number card they hold. On your
turn draw a card, then play one card under any basket: feed your own basket without showing
which one it is. At any time in your turn you may accuse a player of holding a number: right,
they are out and you win their card (5 points); wrong, you are out. When Time's Up is drawn,
each player still in scores the candy under their basket plus 5 per card won; the best score
held by one player alone wins (tied players drop out). The last player left wins at once.
With --specials 1 or 2, special baskets join the row (below; the first screens explain those in
play, and RULES.md has every ruling).
Cards: a letter for the candy, M mint, G gummy, C chocolate, K candy corn, and the candy it
counts (K3: 3 candy corn); TU is Time's Up. Actions: draw; play CARD BASKET (play K3 5: card K3
under basket 5); accuse PLAYER NUMBER (accuse 2 4); for a special basket: swap A B, pull FROM
TO, skip. A special basket is named by its word below (play K3 bomb). Or type an action's
number. Special baskets:
""")
"""The game in a few lines; ``help`` adds each special basket's rule (``_help``)."""

SPECIAL_NAMES: Final = {
    "bomb": N_("bomb"),
    "monte": N_("monte"),
    "magnet": N_("magnet"),
    "disco": N_("disco"),
    "piggy": N_("piggy"),
    "lottery": N_("lottery"),
    "slide": N_("slide"),
    "popular": N_("popular"),
    "favorite": N_("favorite"),
    "badcandy": N_("badcandy"),
    "lice": N_("lice"),
}
"""The special baskets' names as the screens say them (the actions keep the English ones)."""

SPECIAL_ACTION_WORDS: Final = {
    "bomb": N_("bomb basket"),
    "monte": N_("monte basket"),
    "magnet": N_("magnet basket"),
    "disco": N_("disco basket"),
    "piggy": N_("piggy basket"),
    "lottery": N_("lottery basket"),
    "slide": N_("slide basket"),
    "popular": N_("popular basket"),
    "favorite": N_("favorite basket"),
    "badcandy": N_("badcandy basket"),
    "lice": N_("lice basket"),
}
"""A special basket as an action names it in the player's language: one word (``炸彈提籃``);
English keeps the notation's word (``bomb``)."""


def _basket(basket: int) -> str:
    """A basket in the row: its number, or a special's name (``bomb``, ``炸彈``)."""
    name = basket_name(basket)
    return _(SPECIAL_NAMES[name]) if name in SPECIAL_NAMES else name


def _label(basket: int) -> str:
    """A basket in a sentence: ``basket 3``, ``bomb basket`` (``提籃 3``, ``炸彈提籃``)."""
    return _basket_words(basket).told(_)


NOTATION: Final = kit.Notation(
    {
        "draw": (N_("draw"),),
        "play": (N_("play"),),
        "accuse": (N_("accuse"),),
        "swap": (N_("swap"),),
        "pull": (N_("pull"),),
        "skip": (N_("skip"),),
        # A special basket: its word in an action ("play K3 bomb"), in the player's language
        # as the name with "basket" ("炸彈提籃"), or the name alone.
        **{name: (SPECIAL_ACTION_WORDS[name], SPECIAL_NAMES[name]) for name in SPECIALS},
    },
    parse_action,
    _,
)
"""The actions in the player's words (``出牌 K3 炸彈提籃``), read back in either language."""


def _help() -> str:
    """What ``help`` prints, in the player's language, within 80 display columns.

    English keeps its help as written (``HELP``, also the ``--help`` of the command). Another
    language names each special basket as its text does, with the word that names it in an
    action in the player's language and in the notation (``炸彈提籃 (炸彈, bomb)``).
    """
    text = _(HELP_TEXT)
    if text == HELP_TEXT:
        return HELP
    return text + "\n".join(
        line
        for name, rule in SPECIAL_RULES.items()
        for line in kit.wrap(
            _("{basket} ({name}, {code}): {rule}").format(
                basket=_label(basket_id(name)), name=_(SPECIAL_NAMES[name]), code=name, rule=_(rule)
            ),
            80,
            subsequent_indent="  ",
        )
    )


def _row(view: TricksAndTreatsView) -> list[str]:
    """The row of baskets with the cards under each, and their candy, in 80 columns.

    The names are padded to the same display width (a Chinese name's characters take two
    columns each); a long pile goes on in lines indented under its first card.
    """
    names = [_label(b) + ":" for b in view.row]
    width = max(kit.columns(name) for name in names)
    lines = []
    for name, pile in zip(names, view.piles, strict=True):
        cards = " ".join(map(str, pile)) or "-"
        line = _("{basket} {cards}  ({count} candy)").format(
            basket=name + " " * (width - kit.columns(name)), cards=cards, count=_total(pile)
        )
        end = line.index(cards) + len(cards)
        indent = " " * kit.columns(line[: line.index(cards)])
        wrapped = kit.wrap(line[:end], 80, subsequent_indent=indent)
        if kit.columns(wrapped[-1] + line[end:]) <= 80:
            wrapped[-1] += line[end:]  # the candy count stays whole, after the last card
        else:
            wrapped.append(indent + line[end:].lstrip())
        lines.extend(wrapped)
    return lines


HELP: Final = HELP_TEXT + "\n".join(
    line
    for name, rule in SPECIAL_RULES.items()
    for line in textwrap.wrap(f"{basket_name(basket_id(name))}: {rule}", 96, subsequent_indent="  ")
)
"""The game in a few lines, in English, with each special basket's rule."""


def render(view: TricksAndTreatsView) -> str:
    """A player's view as text: the row, your hand, every player, what the specials did."""
    me = view.player
    specials = ", ".join(_basket(basket_id(s)) for s in view.specials)
    lines = [
        _("-- you are player {player}, basket {number}; deck {count} cards").format(
            player=me, number=view.numbers[me], count=view.deck_size
        )
        + (_("; special baskets: {names}").format(names=specials) if view.specials else ""),
        *_row(view),
        _("your hand: {cards}").format(cards=" ".join(map(str, view.hand)) or "-"),
    ]
    if len(view.history) < 2 * view.players:  # the first round: what each special does
        for special in view.specials:
            rule = _(SPECIAL_RULES[special])
            told = _("{basket}: {rule}").format(basket=_label(basket_id(special)), rule=rule)
            lines.extend(_wrapped(f"  {told}"))
    lines.extend(_player_lines(view))
    lines.extend(
        _("player {accuser} accused player {target} of basket {number}: {verdict}").format(
            accuser=a.accuser,
            target=a.target,
            number=a.number,
            verdict=_("right") if a.correct else _("wrong"),
        )
        for a in view.accusations
    )
    # What the specials did is told once, as it happens (describe), not on every screen.
    if view.step is Step.EFFECT and view.pending is not None:
        name = basket_name(view.pending)
        if view.current_player == me:
            lines.extend(
                _wrapped(
                    _("{basket}: {rule}").format(basket=_label(view.pending), rule=_(CHOICES[name]))
                )
            )
        else:
            lines.append(
                _("the {basket} waits for player {player}'s choice").format(
                    basket=_label(view.pending), player=view.current_player
                )
            )
    if view.times_up:
        lines.append(_("Time's Up!"))
    return "\n".join(lines)


def _wrapped(text: str) -> list[str]:
    """``text`` in lines of at most 80 display columns, the later ones indented under the first."""
    indent = " " * (len(text) - len(text.lstrip()) + 4)
    return kit.wrap(text, 80, subsequent_indent=indent)


def _player_lines(view: TricksAndTreatsView) -> list[str]:
    lines = []
    for q in range(view.players):
        who = _("you") if q == view.player else _("player {number}").format(number=q)
        number = view.numbers[q]
        basket = (
            _("basket {number}").format(number=number)
            if number is not None
            else _("basket unknown")
        )
        if view.step is not Step.OVER and q != view.player and number is None:
            basket += _(" (may be {numbers})").format(
                numbers=", ".join(map(str, view.possible_numbers(q)))
            )
        won = view.captured[q]
        cards = _("; won number card {numbers} (+{points})").format(
            numbers=", ".join(map(str, won)), points=CAPTURE_POINTS * len(won)
        )
        status = _("in the game") if view.alive[q] else _("OUT")
        lines.append(
            _("{who}: {status}, {basket}, {count} cards").format(
                who=who, status=status, basket=basket, count=view.hand_sizes[q]
            )
            + (cards if won else "")
        )
    return lines


def _told(action: Action) -> str:
    """What a player did, as a sentence's verb phrase: "plays K3 under basket 5"."""
    match action:
        case Draw():
            return _("draws a card")
        case Play(card=card, basket=basket):
            return _("plays {card} under {basket}").format(card=card, basket=_label(basket))
        case Accuse(target=target, number=number):
            return _("accuses player {target} of holding number {number}").format(
                target=target, number=number
            )
        case Swap(basket=basket, other=other):
            return _("swaps {basket} and {other}").format(
                basket=_label(basket), other=_label(other)
            )
        case Pull(source=source, target=target):
            return _("moves the top card under {source} under {target}").format(
                source=_label(source), target=_label(target)
            )
        case Skip():
            return _("skips the special basket")
    raise AssertionError(action)  # pragma: no cover - every action is matched


def refusal(info: InformationSet, action: Hashable) -> str:
    """Why the rules refuse ``action`` now, in the player's language.

    Asked of a state the player cannot tell from the real one: the reasons read only what
    the player to act knows (their hand, their own number, the row, the cards turned up).
    """
    state = info.determinize(random.Random(0))
    assert isinstance(state, TricksAndTreatsState)
    assert isinstance(action, Draw | Play | Accuse | Swap | Pull | Skip)
    reason, values = state.refusal(action, _label, _basket)
    return _(reason).format(**values)


def describe(state: TricksAndTreatsState, action: Hashable, seat: int) -> str:
    """An action and what followed that everyone sees: an accusation's result, specials."""
    after = state.apply(action)  # type: ignore[arg-type]
    assert isinstance(action, Draw | Play | Accuse | Swap | Pull | Skip)
    told = _told(action)
    if isinstance(action, Accuse):
        correct = after.accusations[-1].correct
        loser = action.target if correct else state.current_player
        verdict = _("right") if correct else _("wrong")
        told += _(": {verdict}, player {loser} is out").format(verdict=verdict, loser=loser)
    if after.times_up and not state.times_up:
        told += ": " + _("Time's Up!")
    new = after.effects[len(state.effects) :]
    return told + "".join(
        "\n" + "\n".join(_wrapped(_("  special basket: {effect}").format(effect=effect.told(_))))
        for effect in new
    )


def outcome(final: TurnBasedGame, seat: int) -> str:
    """Who won and why: the last player left, or the scores and the tie rule (TT-8)."""
    assert isinstance(final, TricksAndTreatsState)
    winners = final.winners()
    survivors = [p for p in range(final.num_players) if final.alive[p]]
    if not final.times_up:
        return _("player {player} is the last player left and wins ([3.(1)])").format(
            player=winners[0]
        )
    lines = [_("Time's Up: the scores")]
    scores = final.scores()
    for p in range(final.num_players):
        if not final.alive[p]:
            lines.append(_("  player {player}: out").format(player=p))
            continue
        basket = final.numbers[p]
        parts = [
            _("{points} for the candy of basket {basket}").format(
                points=final.candy_points(basket), basket=basket
            )
        ]
        if final.popular_bonus(basket):
            parts.append(
                _("{points} from the popular basket").format(points=final.popular_bonus(basket))
            )
        if final.captured[p]:
            parts.append(
                _("{points} for cards won").format(points=CAPTURE_POINTS * len(final.captured[p]))
            )
        lines.append(
            _("  player {player}: {score} ({parts})").format(
                player=p, score=scores[p], parts=" + ".join(parts)
            )
        )
    counts = Counter(scores[p] for p in survivors)
    tied = sorted((s for s, k in counts.items() if k > 1 and s is not None), reverse=True)
    best = max(scores[p] or 0 for p in survivors)
    shown = _(" and ").join(_("player {number}").format(number=p) for p in winners)
    if len(survivors) == 1:
        lines.append(
            _("{who} is the only player left after the special baskets, and wins").format(who=shown)
        )
    elif len(winners) > 1:
        lines.append(
            _("{who} tie at {best} and no score is held by one player alone: they share").format(
                who=shown, best=best
            )
        )
    elif tied and tied[0] > (scores[winners[0]] or 0):
        ties = ", ".join(str(s) for s in tied if s > (scores[winners[0]] or 0))
        lines.append(
            _(
                "the tied scores ({ties}) drop out (a tie goes to the next best untied score, "
                "TT-8): {who} wins with {score}"
            ).format(ties=ties, who=shown, score=scores[winners[0]])
        )
    else:
        lines.append(
            _("{who} wins with the best score, {score}").format(who=shown, score=scores[winners[0]])
        )
    return "\n".join(part for line in lines for part in _wrapped(line))


def _new(players: int, seed: int, specials: int = 0) -> TurnBasedGame:
    return new_game(players, seed, specials)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tricks-and-treats`` command."""
    return run_console(
        "tricks-and-treats",
        _new,
        render,
        argv,
        (2, 4),
        describe,
        help_text=HELP,
        outcome=outcome,
        languages=LANGUAGES,
        translate=lambda _english: _help(),
        spell=NOTATION.spell,
        parse=NOTATION.read,
        refusal=refusal,
        game_options={
            "specials": {
                "type": int,
                "default": 0,
                "help": "special baskets in the row: 0 (basic game), 1 or 2",
            }
        },
        make_bot=make_bot,
    )


if __name__ == "__main__":
    sys.exit(main())
