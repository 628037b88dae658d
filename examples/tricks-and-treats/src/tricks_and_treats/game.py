"""Tricks & Treats' rules (basic game): actions, the immutable state, views, determinization.

Sections (``[1.(3)]``, ``[2]``, ``[3.(2)]``) follow the numbered parts of the Chinese text
(``tricks-and-treats-zh.txt``); ``TT-n`` are this project's rulings, listed in ``RULES.md``.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Final, TypeVar

import attrs

from tricks_and_treats.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidActionError,
)

__all__ = [
    "CANDY_CARDS",
    "KINDS",
    "TIMES_UP",
    "Accusation",
    "Accuse",
    "Action",
    "Card",
    "Config",
    "Draw",
    "Play",
    "Step",
    "TricksAndTreatsState",
    "TricksAndTreatsView",
    "new_game",
    "parse_action",
]

KINDS: Final = ("mint", "gummy", "chocolate", "corn")
"""The four candies: mint (orange), gummy (green), chocolate (brown), candy corn (yellow)."""
_LETTERS: Final = {"mint": "M", "gummy": "G", "chocolate": "C", "corn": "K"}


@attrs.frozen(order=True)
class Card:
    """A candy card (``kind`` and ``value`` 1-4), or the Time's Up card (kind ``"time"``)."""

    kind: str
    value: int

    def __str__(self) -> str:
        return "TU" if self.kind == "time" else f"{_LETTERS[self.kind]}{self.value}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The candy card written as ``text``: a letter M, G, C or K, and a value 1-4."""
        letters = {v: k for k, v in _LETTERS.items()}
        if len(text) == 2 and text[0].upper() in letters and text[1] in "1234":
            return cls(letters[text[0].upper()], int(text[1]))
        raise InvalidActionError(
            f"{text!r:.20} is not a candy card; write a letter M (mint), G (gummy), "
            "C (chocolate) or K (candy corn) and a value 1-4, e.g. K3"
        )


TIMES_UP: Final = Card("time", 0)
CANDY_CARDS: Final = tuple(Card(k, v) for k in KINDS for v in range(1, 5) for _ in range(3))
"""The 48 candy cards: each kind, values 1-4, three copies each."""
CAPTURE_POINTS: Final = 5
_T = TypeVar("_T")


# -- actions ------------------------------------------------------------------------------------


@attrs.frozen
class Draw:
    """[2.(1)] Draw the top card of the deck."""

    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class Play:
    """[2.(2)] Put ``card`` from hand on the pile under basket number ``basket``."""

    card: Card
    basket: int

    def __str__(self) -> str:
        return f"play {self.card} {self.basket}"


@attrs.frozen
class Accuse:
    """[2] Point at ``target`` and name the number on their number card."""

    target: int
    number: int

    def __str__(self) -> str:
        return f"accuse {self.target} {self.number}"


Action = Draw | Play | Accuse


def parse_action(text: str) -> Action:
    """The action written as ``text``.

    >>> parse_action("play K3 5")
    Play(card=Card(kind='corn', value=3), basket=5)
    """
    if not isinstance(text, str) or len(text) > 30:
        raise InvalidActionError(f"{text!r:.40} is not an action; write e.g. 'draw'")
    words = text.strip().split()
    digits = ("1", "2", "3", "4", "5", "6")
    if [w.lower() for w in words] == ["draw"]:
        return Draw()
    if len(words) == 3 and words[0].lower() == "play" and words[2] in digits:
        return Play(Card.parse(words[1]), int(words[2]))
    seats = ("0", "1", "2", "3")
    if (
        len(words) == 3
        and words[0].lower() == "accuse"
        and words[1] in seats
        and words[2] in digits
    ):
        return Accuse(int(words[1]), int(words[2]))
    raise InvalidActionError(
        f"{text!r} is not an action; write 'draw', 'play CARD BASKET' (e.g. play K3 5) or "
        "'accuse PLAYER NUMBER' (e.g. accuse 2 4)"
    )


# -- state --------------------------------------------------------------------------------------


class Step(enum.Enum):
    """Where the current turn stands."""

    DRAW = "draw"
    """[2.(1)] The player may accuse, then must draw."""
    PLAY = "play"
    """[2.(2)] The player may accuse, then must play a card."""
    OVER = "over"


@attrs.frozen
class Config:
    """A game's settings."""

    players: int
    seed: int = 0
    """The set-up shuffles derive from it; it is hidden from the players."""


@attrs.frozen
class Accusation:
    """A spoken accusation: everyone hears the target and the number, and the result."""

    accuser: int
    target: int
    number: int
    correct: bool


def _rng(seed: int, *keys: object) -> random.Random:
    return random.Random(":".join(map(str, (seed, *keys))))


@attrs.frozen
class TricksAndTreatsState:
    """A game of Tricks & Treats at one moment. Immutable: ``apply()`` returns a new state."""

    config: Config
    deck: tuple[Card, ...] = attrs.field(repr=False)
    """Top card first; the Time's Up card is among the bottom six [1.(1)]. Hidden."""
    hands: tuple[tuple[Card, ...], ...] = attrs.field(repr=False)
    row: tuple[int, ...]
    """The basket cards left to right, by number [1.(3)]."""
    piles: tuple[tuple[Card, ...], ...] = attrs.field(repr=False)
    """Per basket number (index number - 1), its candy cards bottom to top."""
    numbers: tuple[int, ...] = attrs.field(repr=False)
    """Each player's secret number card [1.(4)]."""
    removed_numbers: tuple[int, ...] = attrs.field(repr=False)
    """The number cards nobody holds, removed unseen."""
    alive: tuple[bool, ...]
    captured: tuple[tuple[int, ...], ...]
    """Per player, the number cards won from others, face up ([2], 5 points each)."""
    discarded: tuple[Card, ...] = attrs.field(repr=False)
    """Hands of eliminated players, face down (TT-5)."""
    accusations: tuple[Accusation, ...] = attrs.field(repr=False)
    step: Step
    current_player: int | None
    times_up: bool
    """Whether the game ended by drawing the Time's Up card."""
    history: tuple[Action, ...] = attrs.field(repr=False)

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended [3]."""
        return self.step is Step.OVER

    def pile_value(self, basket: int) -> int:
        """The candy on basket ``basket``: the sum of its cards' values [3.(2)]."""
        return sum(card.value for card in self.piles[basket - 1])

    def scores(self) -> tuple[int | None, ...]:
        """[3.(2)] Per surviving player, own basket's candy plus 5 per captured number card."""
        return tuple(
            self.pile_value(self.numbers[p]) + CAPTURE_POINTS * len(self.captured[p])
            if self.alive[p]
            else None
            for p in range(self.num_players)
        )

    def winners(self) -> tuple[int, ...]:
        """[3] The last survivor; or the best score that is not tied (TT-8)."""
        if not self.is_over:
            return ()
        survivors = [p for p in range(self.num_players) if self.alive[p]]
        if len(survivors) == 1:
            return (survivors[0],)
        scores = self.scores()
        counts = Counter(scores[p] for p in survivors)
        for score in sorted(counts, key=lambda s: -(s or 0)):
            if counts[score] == 1:
                return tuple(p for p in survivors if scores[p] == score)
        best = max(scores[p] or 0 for p in survivors)
        return tuple(p for p in survivors if scores[p] == best)

    def returns(self) -> tuple[float, ...]:
        """Winners share 1.0."""
        won = self.winners()
        return tuple(1.0 / len(won) if p in won else 0.0 for p in range(self.num_players))

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's legal actions, in a fixed order."""
        p = self.current_player
        if p is None:
            return ()
        accusations = tuple(
            Accuse(t, n)
            for t in range(self.num_players)
            if t != p and self.alive[t]
            for n in range(1, len(self.row) + 1)
            if n != self.numbers[p]  # TT-4: never your own number
        )
        if self.step is Step.DRAW:
            return (Draw(), *accusations)
        plays = tuple(Play(c, b) for c in sorted(set(self.hands[p])) for b in sorted(self.row))
        return (*plays, *accusations)

    def apply(self, action: Action | str) -> TricksAndTreatsState:
        """The state after ``action``; raises ``IllegalActionError`` if the rules forbid it."""
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, Draw | Play | Accuse):
            raise InvalidActionError(f"{action!r:.60} is not a Tricks & Treats action")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action, legal))
        p = self.current_player
        assert p is not None
        state = attrs.evolve(self, history=(*self.history, action))
        if isinstance(action, Draw):
            return state._draw(p)
        if isinstance(action, Play):
            return state._play(p, action)
        return state._accuse(p, action)

    def _why_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        p = self.current_player
        if p is None:
            reason = "the game is over"
        elif isinstance(action, Draw):
            reason = "you have drawn this turn: play a card [2.(2)]"
        elif isinstance(action, Play) and self.step is Step.DRAW:
            reason = "draw a card first [2.(1)]"
        elif isinstance(action, Play) and action.card not in self.hands[p]:
            reason = f"player {p} holds no {action.card}"
        elif isinstance(action, Play):
            reason = f"there is no basket {action.basket}; the row is {self.row}"
        elif action.target == p or action.number == self.numbers[p]:
            reason = "accuse another player, naming a number that is not your own (TT-4)"
        elif not 0 <= action.target < self.num_players or not self.alive[action.target]:
            reason = f"player {action.target} is not in the game"
        else:
            reason = f"the number cards run from 1 to {len(self.row)}"
        shown = ", ".join(map(str, legal[:6])) + (", ..." if len(legal) > 6 else "")
        return f"{action} is illegal: {reason}; legal now: {shown or 'nothing'}"

    def _draw(self, p: int) -> TricksAndTreatsState:
        card, deck = self.deck[0], self.deck[1:]
        if card == TIMES_UP:
            # [3.(2)] the game ends as soon as Time's Up is drawn (TT-6).
            return attrs.evolve(self, deck=deck, step=Step.OVER, current_player=None, times_up=True)
        hands = _replace(self.hands, p, tuple(sorted((*self.hands[p], card))))
        return attrs.evolve(self, deck=deck, hands=hands, step=Step.PLAY)

    def _play(self, p: int, action: Play) -> TricksAndTreatsState:
        hand = list(self.hands[p])
        hand.remove(action.card)
        i = action.basket - 1
        piles = _replace(self.piles, i, (*self.piles[i], action.card))
        state = attrs.evolve(self, hands=_replace(self.hands, p, tuple(hand)), piles=piles)
        return state._next_turn(p)

    def _accuse(self, p: int, action: Accuse) -> TricksAndTreatsState:
        t = action.target
        correct = self.numbers[t] == action.number
        loser, winner = (t, p) if correct else (p, t)
        captured = _replace(self.captured, winner, (*self.captured[winner], self.numbers[loser]))
        state = attrs.evolve(
            self,
            alive=_replace(self.alive, loser, False),
            captured=captured,
            hands=_replace(self.hands, loser, ()),
            discarded=(*self.discarded, *self.hands[loser]),
            accusations=(*self.accusations, Accusation(p, t, action.number, correct)),
        )
        if sum(state.alive) == 1:
            return attrs.evolve(state, step=Step.OVER, current_player=None)  # [3.(1)]
        if correct:
            return state  # the accuser's turn goes on
        return state._next_turn(p)

    def _next_turn(self, p: int) -> TricksAndTreatsState:
        n = self.num_players
        nxt = next(q % n for q in range(p + 1, p + n + 1) if self.alive[q % n])
        return attrs.evolve(self, current_player=nxt, step=Step.DRAW)

    # -- views ------------------------------------------------------------------------------

    def view(self, player: int) -> TricksAndTreatsView:
        """What ``player`` sees: own hand and number, public piles and accusations (TT-3, TT-7)."""
        if isinstance(player, bool) or player not in range(self.num_players):
            raise ConfigurationError(
                f"no player {player!r}; players are 0 to {self.num_players - 1}"
            )
        known: dict[int, int] = {player: self.numbers[player]}
        for a in self.accusations:
            known[a.target if a.correct else a.accuser] = self.numbers[
                a.target if a.correct else a.accuser
            ]
            if a.accuser == player and not a.correct:
                known[a.target] = self.numbers[a.target]  # shown secretly [2.(2)]
        if self.is_over:
            known.update({q: self.numbers[q] for q in range(self.num_players) if self.alive[q]})
        return TricksAndTreatsView(
            player=player,
            players=self.num_players,
            hand=self.hands[player],
            hand_sizes=tuple(len(h) for h in self.hands),
            deck_size=len(self.deck),
            discarded=len(self.discarded),
            row=self.row,
            piles=self.piles,
            numbers=tuple(known.get(q) for q in range(self.num_players)),
            alive=self.alive,
            captured=self.captured,
            accusations=self.accusations,
            step=self.step,
            current_player=self.current_player,
            times_up=self.times_up,
            history=self.history,
        )

    def determinize(self, player: int, rng: random.Random) -> TricksAndTreatsState:
        """A state ``player`` cannot tell from this one: hidden cards, numbers, seed resampled."""
        return self.view(player).determinize(rng)

    def __str__(self) -> str:
        return "\n".join(_row_lines(self.row, self.piles))


@attrs.frozen
class TricksAndTreatsView:
    """One player's view; equal views mean the player cannot tell the states apart."""

    player: int
    players: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discarded: int
    row: tuple[int, ...]
    piles: tuple[tuple[Card, ...], ...]
    numbers: tuple[int | None, ...]
    """The number cards this player knows (own, revealed, or shown after a wrong guess)."""
    alive: tuple[bool, ...]
    captured: tuple[tuple[int, ...], ...]
    accusations: tuple[Accusation, ...]
    step: Step
    current_player: int | None
    times_up: bool
    history: tuple[Action, ...]

    def determinize(self, rng: random.Random) -> TricksAndTreatsState:
        """A full state consistent with this view, the hidden parts drawn with ``rng``."""
        numbers, removed = self._sample_numbers(rng)
        seen = Counter(self.hand) + Counter(c for pile in self.piles for c in pile)
        unseen = list((Counter(CANDY_CARDS) - seen).elements())
        rng.shuffle(unseen)
        hands: list[tuple[Card, ...]] = []
        for q, size in enumerate(self.hand_sizes):
            if q == self.player:
                hands.append(self.hand)
            else:
                hands.append(tuple(sorted(unseen[:size])))
                unseen = unseen[size:]
        discarded = tuple(unseen[: self.discarded])
        deck = unseen[self.discarded :]
        if not self.times_up:
            # Time's Up lies among the bottom six cards of the deck [1.(1)].
            bottom = min(6, len(deck) + 1)
            deck.insert(len(deck) + 1 - bottom + rng.randrange(bottom), TIMES_UP)
        return TricksAndTreatsState(
            config=Config(self.players, rng.getrandbits(64)),
            deck=tuple(deck),
            hands=tuple(hands),
            row=self.row,
            piles=self.piles,
            numbers=numbers,
            removed_numbers=removed,
            alive=self.alive,
            captured=self.captured,
            discarded=discarded,
            accusations=self.accusations,
            step=self.step,
            current_player=self.current_player,
            times_up=self.times_up,
            history=self.history,
        )

    def _sample_numbers(self, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
        everything = range(1, len(self.row) + 1)
        options = []
        for assignment in itertools.permutations(everything, self.players):
            if any(k is not None and assignment[q] != k for q, k in enumerate(self.numbers)):
                continue
            if any(assignment[a.target] == a.number for a in self.accusations if not a.correct):
                continue
            options.append(assignment)
        numbers = options[rng.randrange(len(options))]
        removed = tuple(sorted(set(everything) - set(numbers)))
        return numbers, removed


def _row_lines(row: Sequence[int], piles: Sequence[tuple[Card, ...]]) -> list[str]:
    return [
        f"basket {b}: {' '.join(map(str, piles[b - 1])) or '-'}"
        f"  ({sum(c.value for c in piles[b - 1])} candy)"
        for b in row
    ]


def _replace(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def new_game(players: int, seed: int = 0) -> TricksAndTreatsState:
    """A new basic game for 2 to 4 players, every shuffle drawn from ``seed`` [1].

    >>> game = new_game(3, seed=1)
    >>> len(game.row), len(game.deck), [len(h) for h in game.hands]
    (5, 43, [2, 2, 2])
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ConfigurationError(f"Tricks & Treats is for 2 to 4 players, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigurationError(f"seed must be an int, got {seed!r}")
    rng = _rng(seed, "setup")
    cards = list(CANDY_CARDS)
    rng.shuffle(cards)
    bottom = [*cards[:5], TIMES_UP]  # [1.(1)] five cards and Time's Up, shuffled, at the bottom
    rng.shuffle(bottom)
    deck = cards[5:] + bottom
    hands = tuple(tuple(sorted(deck[2 * p : 2 * p + 2])) for p in range(players))  # [1.(2)]
    deck = deck[2 * players :]
    baskets = list(range(1, players + 3))
    rng.shuffle(baskets)  # [1.(3)] laid out in a row, in no particular order
    numbers = list(range(1, players + 3))
    rng.shuffle(numbers)  # [1.(4)]
    return TricksAndTreatsState(
        config=Config(players, seed),
        deck=tuple(deck),
        hands=hands,
        row=tuple(baskets),
        piles=((),) * (players + 2),
        numbers=tuple(numbers[:players]),
        removed_numbers=tuple(sorted(numbers[players:])),
        alive=(True,) * players,
        captured=((),) * players,
        discarded=(),
        accusations=(),
        step=Step.DRAW,
        current_player=rng.randrange(players),  # TT-2
        times_up=False,
        history=(),
    )
