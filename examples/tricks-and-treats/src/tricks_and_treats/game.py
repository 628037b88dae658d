"""Tricks & Treats' rules, basic game and special baskets: actions, state, views, sampling.

Sections (``[1.(3)]``, ``[2]``, ``[3.(2)]``, ``[4]``) follow the numbered parts of the Chinese
text (``tricks-and-treats-zh.txt``); the special baskets are in its table of components;
``TT-n`` are this project's rulings, listed in ``RULES.md``.
"""

from __future__ import annotations

import enum
import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias

import attrs

from tricks_and_treats._i18n import N_
from tricks_and_treats.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidActionError,
)
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "CANDY_CARDS",
    "KINDS",
    "SPECIALS",
    "TIMES_UP",
    "Accusation",
    "Accuse",
    "Action",
    "Card",
    "Config",
    "Draw",
    "Effect",
    "Play",
    "Pull",
    "Skip",
    "Step",
    "Swap",
    "TricksAndTreatsState",
    "TricksAndTreatsView",
    "basket_id",
    "basket_name",
    "new_game",
    "parse_action",
]

KINDS: Final = ("mint", "gummy", "chocolate", "corn")
"""The four candies: mint (orange), gummy (green), chocolate (brown), candy corn (yellow)."""
_LETTERS: Final = {"mint": "M", "gummy": "G", "chocolate": "C", "corn": "K"}

SPECIALS: Final = (
    "bomb",
    "monte",
    "magnet",
    "disco",
    "piggy",
    "lottery",
    "slide",
    "popular",
    "favorite",
    "badcandy",
    "lice",
)
"""The 11 special baskets of the variant [4], in the order of the text's table (TT-14): 炸彈 Bomb,
蒙特 Monte, 磁鐵 Magnet, 迪斯可 Disco, 小豬 Piggy, 樂透 Lottery, 電動滑行 Electric Slide,
好人緣 Popular, 最愛 Favorite, 壞糖果 Bad Candy, 蝨子 Lice."""
_FIRST_SPECIAL: Final = 7
"""Special baskets are basket ids 7 to 17 (the number baskets are 1 to 6)."""
_TRIGGERED: Final = ("bomb", "monte", "magnet")
"""Specials that offer their placer a choice when a card is played under them."""


def basket_id(name: str) -> int:
    """The basket id of ``name``: a number basket ``"1"``-``"6"`` or a special's name."""
    if name in SPECIALS:
        return _FIRST_SPECIAL + SPECIALS.index(name)
    if len(name) == 1 and name in "123456":
        return int(name)
    raise InvalidActionError(
        f"{name!r:.20} is no basket; write a number 1-6 or a special basket: {', '.join(SPECIALS)}"
    )


def basket_name(basket: int) -> str:
    """How a basket is written: its number, or its special's name (``basket_id`` inverted)."""
    return SPECIALS[basket - _FIRST_SPECIAL] if basket >= _FIRST_SPECIAL else str(basket)


_KIND_WORDS: Final = {
    "mint": N_("mint"),
    "gummy": N_("gummy"),
    "chocolate": N_("chocolate"),
    "corn": N_("corn"),
}
"""The candy kinds as the special baskets' effects name them (marked for the console's catalog)."""


_Value: TypeAlias = "int | str | Effect | tuple[str | Effect, ...]"
"""A value of an effect's message (``Effect``)."""


class Effect(str):
    """What a special basket did, as text: the English text, and its message and values.

    An ``Effect`` is the ``str`` of its English text (``effects`` read as before); ``told`` gives
    it in the console's language. A value is a number, a literal (cards: ``"K3 M2"``), an
    ``Effect`` (a part of the sentence), or a tuple of words (baskets, candy kinds, players)
    translated and joined with " and ".
    """

    message: str
    """The English message with its ``{fields}``, the catalogs' id."""
    values: tuple[tuple[str, _Value], ...]
    """The fields' values, by name."""

    def __new__(cls, message: str, **values: _Value) -> Effect:  # noqa: D102 - the class says
        effect = super().__new__(cls, _told(message, tuple(values.items()), _english))
        effect.message = message
        effect.values = tuple(values.items())
        return effect

    def told(self, gettext: Callable[[str], str]) -> str:
        """The effect in the language of ``gettext`` (the console's ``_``)."""
        return _told(self.message, self.values, gettext)


def _english(message: str) -> str:
    return message


def _told(
    message: str, values: tuple[tuple[str, _Value], ...], gettext: Callable[[str], str]
) -> str:
    def shown(value: _Value) -> str:
        if isinstance(value, Effect):
            return value.told(gettext)
        if isinstance(value, tuple):  # words, each translated
            return gettext(" and ").join(
                shown(v) if isinstance(v, Effect) else gettext(v) for v in value
            )
        return str(value)

    return gettext(message).format(**{key: shown(value) for key, value in values})


def _words(*baskets: int) -> tuple[Effect, ...]:
    """Baskets as the effects name them: "basket 3", or a special's "piggy basket"."""
    return tuple(_basket_words(b) for b in baskets)


def _basket_words(basket: int) -> Effect:
    special = _special(basket)
    if special is None:
        return Effect(N_("basket {number}"), number=basket)
    return Effect(N_("{name} basket"), name=(special,))


def _player(p: int) -> Effect:
    return Effect(N_("player {number}"), number=p)


def _special(basket: int) -> str | None:
    return SPECIALS[basket - _FIRST_SPECIAL] if basket >= _FIRST_SPECIAL else None


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
POPULAR_POINTS: Final = 10
DISCO_LIMIT: Final = 10


# -- actions ------------------------------------------------------------------------------------
# One class per action, alike by design: a record tags each by its class name, and its text
# (word, then fields) comes from tricky_treats.protocol.game_kit.SpokenAction.


@attrs.frozen
class _OnBaskets(kit.SpokenAction):
    """An action whose numbers are baskets: written by name (``swap 1 monte``, ``basket_id``)."""

    @staticmethod
    def _written(value: object) -> str:
        return basket_name(value) if isinstance(value, int) else str(value)


@attrs.frozen
class Draw(kit.SpokenAction):
    """[2.(1)] Draw the top card of the deck."""

    word = "draw"


@attrs.frozen
class Play(_OnBaskets):
    """[2.(2)] Put ``card`` from hand on the pile under basket ``basket`` (see ``basket_id``)."""

    card: Card
    basket: int
    word = "play"


@attrs.frozen
class Accuse(kit.SpokenAction):
    """[2] Point at ``target`` and name the number on their number card."""

    target: int
    number: int
    word = "accuse"


@attrs.frozen
class Swap(_OnBaskets):
    """[4] Bomb, Monte, Disco: exchange the places of basket cards ``basket`` and ``other``.

    The candy cards stay where they are ("不包括下方糖果卡"): only the basket cards move.
    """

    basket: int
    other: int
    word = "swap"


@attrs.frozen
class Pull(_OnBaskets):
    """[4] Magnet: move the top candy card under ``source`` onto the pile under ``target``."""

    source: int
    target: int
    word = "pull"


@attrs.frozen
class Skip(kit.SpokenAction):
    """[4] Decline what a Bomb, Monte or Magnet basket allows ("可立即": may, not must)."""

    word = "skip"


Action = Draw | Play | Accuse | Swap | Pull | Skip


def parse_action(text: str) -> Action:
    """The action written as ``text`` (any letter case).

    >>> parse_action("play K3 5")
    Play(card=Card(kind='corn', value=3), basket=5)
    """
    if not isinstance(text, str) or len(text) > 40:
        raise InvalidActionError(f"{text!r:.40} is not an action; write e.g. 'draw'")
    words = text.strip().lower().split()
    digits = ("1", "2", "3", "4", "5", "6")
    baskets = (*digits, *SPECIALS)
    if words in (["draw"], ["skip"]):
        return Draw() if words[0] == "draw" else Skip()
    if len(words) == 3 and words[0] == "play" and words[2] in baskets:
        return Play(Card.parse(words[1]), basket_id(words[2]))
    if len(words) == 3 and words[0] in ("swap", "pull") and {*words[1:]} <= {*baskets}:
        kind = Swap if words[0] == "swap" else Pull
        return kind(basket_id(words[1]), basket_id(words[2]))
    seats = ("0", "1", "2", "3")
    if len(words) == 3 and words[0] == "accuse" and words[1] in seats and words[2] in digits:
        return Accuse(int(words[1]), int(words[2]))
    raise InvalidActionError(
        f"{text!r} is not an action; write 'draw', 'play CARD BASKET' (e.g. play K3 5), "
        "'accuse PLAYER NUMBER' (e.g. accuse 2 4), or for a special basket 'swap BASKET BASKET', "
        "'pull FROM TO' or 'skip'"
    )


# -- state --------------------------------------------------------------------------------------


class Step(enum.Enum):
    """Where the current turn stands."""

    DRAW = "draw"
    """[2.(1)] The player may accuse, then must draw."""
    PLAY = "play"
    """[2.(2)] The player may accuse, then must play a card."""
    EFFECT = "effect"
    """[4] The player who placed a card decides what a special basket does (TT-12)."""
    OVER = "over"


@attrs.frozen
class Config:
    """A game's settings."""

    players: int
    seed: int = 0
    """The set-up shuffles derive from it; it is hidden from the players."""
    specials: tuple[str, ...] = ()
    """[4] The special baskets in the row, face up (none: the basic game)."""


@attrs.frozen
class Accusation:
    """A spoken accusation: everyone hears the target and the number, and the result."""

    accuser: int
    target: int
    number: int
    correct: bool


@attrs.frozen
class TricksAndTreatsState:
    """A game of Tricks & Treats at one moment. Immutable: ``apply()`` returns a new state."""

    config: Config
    deck: tuple[Card, ...] = attrs.field(repr=False)
    """Top card first; the Time's Up card is among the bottom six [1.(1)]. Hidden."""
    hands: tuple[tuple[Card, ...], ...] = attrs.field(repr=False)
    row: tuple[int, ...]
    """The basket cards left to right [1.(3)]: numbers 1-6, specials 7-17 (``basket_name``)."""
    piles: tuple[tuple[Card, ...], ...] = attrs.field(repr=False)
    """Per place in the row (not per basket: basket cards move, candy stays), bottom to top."""
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
    removed: tuple[Card, ...] = attrs.field(default=(), repr=False)
    """Candy cards a Disco or Bomb basket took out of the game, face up [4]."""
    pending: int | None = attrs.field(default=None, repr=False)
    """The special basket whose choice the current player must make (``Step.EFFECT``)."""
    effects: tuple[Effect, ...] = attrs.field(default=(), repr=False)
    """What the special baskets did, in order, as text for the players [4]."""
    doubled: tuple[str, ...] = attrs.field(default=(), repr=False)
    """Favorite: candy kinds worth 2 points a candy in the final scoring."""
    spoiled: tuple[str, ...] = attrs.field(default=(), repr=False)
    """Bad Candy: candy kinds worth 0 points in the final scoring (over Favorite, TT-14)."""
    popular: int | None = attrs.field(default=None, repr=False)
    """Popular: baskets whose candy has this parity (0 even, 1 odd) score 10 more."""

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended [3]."""
        return self.step is Step.OVER

    def pile(self, basket: int) -> tuple[Card, ...]:
        """The candy cards under basket ``basket`` where it lies now, bottom to top."""
        return self.piles[self.row.index(basket)]

    def pile_value(self, basket: int) -> int:
        """The candy on basket ``basket``: the sum of its cards' values [3.(2)]."""
        return sum(card.value for card in self.pile(basket))

    def candy_points(self, basket: int) -> int:
        """The points of basket ``basket``'s candy: its value, Favorite and Bad Candy applied."""
        return sum(card.value * self._points_per_candy(card.kind) for card in self.pile(basket))

    def _points_per_candy(self, kind: str) -> int:
        return 0 if kind in self.spoiled else 2 if kind in self.doubled else 1

    def popular_bonus(self, basket: int) -> int:
        """Popular's 10 points when basket ``basket``'s candy has Popular's parity, else 0."""
        if self.popular is None or self.pile_value(basket) % 2 != self.popular:
            return 0
        return POPULAR_POINTS

    def scores(self) -> tuple[int | None, ...]:
        """[3.(2)] Per surviving player, own basket's candy plus 5 per captured number card."""
        return tuple(
            self.candy_points(self.numbers[p])
            + self.popular_bonus(self.numbers[p])
            + CAPTURE_POINTS * len(self.captured[p])
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
        return kit.shared_returns(self.winners(), self.num_players)

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's legal actions, in a fixed order."""
        p = self.current_player
        if p is None:
            return ()
        if self.step is Step.EFFECT:
            return self._effect_actions()
        face_up = self._face_up()
        accusations = tuple(
            Accuse(t, n)
            for t in range(self.num_players)
            if t != p and self.alive[t]
            for n in range(1, self.num_players + 3)
            if n != self.numbers[p] and n not in face_up  # TT-4, TT-9: never a sure miss
        )
        if self.step is Step.DRAW:
            return (Draw(), *accusations)
        cards = sorted(set(self.hands[p]), key=_card_order)
        plays = tuple(Play(c, b) for c in cards for b in sorted(self.row))
        return (*plays, *accusations)

    def _face_up(self) -> set[int]:
        """TT-9: the number cards turned up, won by a player; nobody still in holds one."""
        return {n for won in self.captured for n in won}

    def _effect_actions(self) -> tuple[Action, ...]:
        special = self.pending
        assert special is not None
        name = _special(special)
        if name == "disco":
            most, fewest = _extremes(self.row, self.piles)
            return tuple(Swap(a, b) for a in most for b in fewest)
        if name in ("bomb", "monte"):
            i, n = self.row.index(special), len(self.row)
            neighbours = sorted({self.row[(i - 1) % n], self.row[(i + 1) % n]})
            return (Skip(), *(Swap(special, b) for b in neighbours))
        pulls = tuple(
            Pull(source, target)
            for source in sorted(self.row)
            if source != special and self.pile(source)
            for target in sorted(self.row)
            if target != source
        )
        return (Skip(), *pulls)

    def apply(self, action: Action | str) -> TricksAndTreatsState:
        """The state after ``action``; raises ``IllegalActionError`` if the rules forbid it."""
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, Draw | Play | Accuse | Swap | Pull | Skip):
            raise InvalidActionError(f"{action!r:.60} is not a Tricks & Treats action")
        if not self._allows(action):
            raise IllegalActionError(self._why_illegal(action, self.legal_actions()))
        p = self.current_player
        assert p is not None
        state = attrs.evolve(self, history=(*self.history, action))
        if isinstance(action, Draw):
            return state._draw(p)
        if isinstance(action, Play):
            return state._play(p, action)
        if isinstance(action, Accuse):
            return state._accuse(p, action)
        return state._resolve_choice(p, action)

    def _allows(self, action: Action) -> bool:
        """Whether ``action`` is in ``legal_actions()``, without listing them (the hot path)."""
        p = self.current_player
        if p is None:
            return False
        if self.step is Step.EFFECT:
            return action in self._effect_actions()
        if isinstance(action, Draw):
            return self.step is Step.DRAW
        if isinstance(action, Play):
            return (
                self.step is Step.PLAY
                and action.card in self.hands[p]
                and action.basket in self.row
            )
        if isinstance(action, Accuse):
            t, n = action.target, action.number
            return (
                t in range(self.num_players)
                and t != p
                and self.alive[t]
                and n in range(1, self.num_players + 3)
                and n != self.numbers[p]
                and n not in self._face_up()
            )
        return False

    def _why_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        reason, values = self.refusal(action)
        return (
            f"{action} is illegal: {reason.format(**values)}; legal now: {kit.legal_now(legal, 6)}"
        )

    def refusal(
        self,
        action: Action,
        label: Callable[[int], str] = lambda basket: str(_basket_words(basket)),
        name: Callable[[int], str] = basket_name,
    ) -> tuple[str, dict[str, object]]:
        """Why the rules refuse ``action`` now: an English message id and its values.

        ``label`` names a basket in a sentence ("basket 3", "bomb basket"), ``name`` in the
        row ("3", "bomb"); the console gives both in the player's language, and says the
        message in it. It reads only what the player to act knows: their hand, their own
        number, the row, the cards turned up.
        """
        p = self.current_player
        if p is None:
            return N_("the game is over"), {}
        if self.step is Step.EFFECT:
            assert self.pending is not None
            return N_("first decide what the {basket} does (no accusing meanwhile, TT-12)"), {
                "basket": label(self.pending)
            }
        if isinstance(action, Swap | Pull | Skip):
            return N_("no special basket is waiting for a decision"), {}
        if isinstance(action, Draw):
            return N_("you have drawn this turn: play a card [2.(2)]"), {}
        if isinstance(action, Play) and self.step is Step.DRAW:
            return N_("draw a card first [2.(1)]"), {}
        if isinstance(action, Play) and action.card not in self.hands[p]:
            return N_("you hold no {card}"), {"card": action.card}
        if isinstance(action, Play):
            return N_("there is no {basket}; the row is {row}"), {
                "basket": label(action.basket),
                "row": " ".join(map(name, self.row)),
            }
        if action.target == p or action.number == self.numbers[p]:
            return N_("accuse another player, naming a number that is not your own (TT-4)"), {}
        if not 0 <= action.target < self.num_players or not self.alive[action.target]:
            return N_("player {player} is not in the game"), {"player": action.target}
        if action.number in self._face_up():
            return N_("number card {number} is turned up: nobody in the game holds it (TT-9)"), {
                "number": action.number
            }
        return N_("the number cards run from 1 to {last}"), {"last": self.num_players + 2}

    def _draw(self, p: int) -> TricksAndTreatsState:
        card, deck = self.deck[0], self.deck[1:]
        if card == TIMES_UP:
            # [3.(2)] the game ends as soon as Time's Up is drawn (TT-6); [4] specials first.
            over = attrs.evolve(self, deck=deck, step=Step.OVER, current_player=None, times_up=True)
            return over._end_effects()
        hands = kit.replaced(self.hands, p, tuple(sorted((*self.hands[p], card), key=_card_order)))
        return attrs.evolve(self, deck=deck, hands=hands, step=Step.PLAY)

    def _play(self, p: int, action: Play) -> TricksAndTreatsState:
        hand = list(self.hands[p])
        hand.remove(action.card)
        i = self.row.index(action.basket)
        piles = kit.replaced(self.piles, i, (*self.piles[i], action.card))
        state = attrs.evolve(self, hands=kit.replaced(self.hands, p, tuple(hand)), piles=piles)
        name = _special(action.basket)
        if name == "disco":
            return state._disco(p)
        if name in _TRIGGERED and (name != "monte" or action.card.value == 2):
            # [4] Bomb: any card; Monte: "數字2的糖果卡" only; Magnet: any card (TT-12).
            return attrs.evolve(state, step=Step.EFFECT, pending=action.basket)
        return state._next_turn(p)

    def _resolve_choice(self, p: int, action: Swap | Pull | Skip) -> TricksAndTreatsState:
        special = self.pending
        assert special is not None
        name = basket_name(special)
        state = attrs.evolve(self, pending=None, step=Step.PLAY)
        if isinstance(action, Skip):
            return state._next_turn(p)
        if isinstance(action, Swap):
            state = state._swap(action.basket, action.other)
            moved = _words(action.basket, action.other)
            return state._log(
                N_("{name}: player {player} swapped {baskets}"),
                name=(name,),
                player=p,
                baskets=moved,
            )._next_turn(p)
        i, j = self.row.index(action.source), self.row.index(action.target)
        card = self.piles[i][-1]
        piles = kit.replaced(state.piles, i, state.piles[i][:-1])
        piles = kit.replaced(piles, j, (*piles[j], card))
        state = attrs.evolve(state, piles=piles)._log(
            N_("magnet: player {player} moved {card} from {source} to {target}"),
            player=p,
            card=str(card),
            source=_words(action.source),
            target=_words(action.target),
        )
        if _special(action.target) == "disco":
            return state._disco(p)  # TT-13: Disco counts whatever comes under it
        return state._next_turn(p)

    def _disco(self, p: int) -> TricksAndTreatsState:
        disco = basket_id("disco")
        i = self.row.index(disco)
        if sum(c.value for c in self.piles[i]) < DISCO_LIMIT:
            return self._next_turn(p)
        # [4] 10+ candy: the cards go, then the fullest and the emptiest baskets swap places.
        state = attrs.evolve(
            self, piles=kit.replaced(self.piles, i, ()), removed=(*self.removed, *self.piles[i])
        )._log(N_("disco: {count} candy removed"), count=_total(self.piles[i]))
        most, fewest = _extremes(state.row, state.piles)
        if most == fewest:
            return state._next_turn(p)  # every pile alike: nothing to exchange (TT-13)
        if len(most) > 1 or len(fewest) > 1:
            # "由原先在此提籃卡下方放置最後1張卡牌的玩家決定": the placer chooses.
            return attrs.evolve(state, step=Step.EFFECT, pending=disco)
        a, b = most[0], fewest[0]
        moved = _words(a, b)
        return state._swap(a, b)._log(N_("disco: {baskets} swapped"), baskets=moved)._next_turn(p)

    def _swap(self, a: int, b: int) -> TricksAndTreatsState:
        i, j = self.row.index(a), self.row.index(b)
        row = kit.replaced(kit.replaced(self.row, i, b), j, a)
        return attrs.evolve(self, row=row)

    def _log(self, message: str, **values: _Value) -> TricksAndTreatsState:
        return attrs.evolve(self, effects=(*self.effects, Effect(message, **values)))

    def _accuse(self, p: int, action: Accuse) -> TricksAndTreatsState:
        t = action.target
        correct = self.numbers[t] == action.number
        loser, winner = (t, p) if correct else (p, t)
        captured = kit.replaced(
            self.captured, winner, (*self.captured[winner], self.numbers[loser])
        )
        state = attrs.evolve(
            self,
            alive=kit.replaced(self.alive, loser, False),
            captured=captured,
            hands=kit.replaced(self.hands, loser, ()),
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

    # -- the end of the variant [4] ---------------------------------------------------------

    def _end_effects(self) -> TricksAndTreatsState:
        """[4] "須先執行特殊提籃卡的效能": effects first, in the order of the table (TT-14)."""
        state = self
        for name in sorted(self.config.specials, key=SPECIALS.index):
            effect = _END_EFFECTS.get(name)
            if effect is not None:
                state = effect(state)
        return state

    def _neighbours(self, basket: int) -> tuple[int, int]:
        i, n = self.row.index(basket), len(self.row)
        return (i - 1) % n, (i + 1) % n

    def _end_bomb(self) -> TricksAndTreatsState:
        left, right = self._neighbours(basket_id("bomb"))
        gone = (*self.piles[left], *self.piles[right])
        piles = kit.replaced(kit.replaced(self.piles, left, ()), right, ())
        state = attrs.evolve(self, piles=piles, removed=(*self.removed, *gone))
        names = _words(self.row[left], self.row[right])
        return state._log(N_("bomb: the candy of {baskets} is gone"), baskets=names)

    def _end_monte(self) -> TricksAndTreatsState:
        left, right = self._neighbours(basket_id("monte"))
        a, b = self.row[left], self.row[right]
        return self._swap(a, b)._log(N_("monte: {baskets} swap"), baskets=_words(a, b))

    def _move_pile(self, source: int, target: int, name: str) -> TricksAndTreatsState:
        cards = self.piles[source]
        piles = kit.replaced(self.piles, source, ())
        piles = kit.replaced(piles, target, (*piles[target], *cards))
        shown = " ".join(map(str, cards))
        return attrs.evolve(self, piles=piles)._log(
            N_("{name}: {cards} moved under {basket}"),
            name=(name,),
            cards=shown,
            basket=_words(self.row[target]),
        )

    def _end_piggy(self) -> TricksAndTreatsState:
        i = self.row.index(basket_id("piggy"))
        totals = {j: _total(pile) for j, pile in enumerate(self.piles) if j != i}
        counts = Counter(totals.values())
        # A tie: "次少且只有1張提籃卡符合", the least total held by one basket only (TT-15).
        unique = sorted(t for t, k in counts.items() if k == 1)
        if not self.piles[i] or not unique:
            return self._log(N_("{name}: no effect"), name=("piggy",))
        target = next(j for j, t in totals.items() if t == unique[0])
        return self._move_pile(i, target, "piggy")

    def _end_lottery(self) -> TricksAndTreatsState:
        i = self.row.index(basket_id("lottery"))
        size = len(self.piles[i])
        same = [j for j, pile in enumerate(self.piles) if j != i and len(pile) == size]
        if same:
            fewest = min(_total(self.piles[j]) for j in same)
            same = [j for j in same if _total(self.piles[j]) == fewest]
        if size == 0 or len(same) != 1:
            return self._log(
                N_("{name}: no effect"), name=("lottery",)
            )  # "此卡牌將無任何效能" (TT-15)
        return self._move_pile(i, same[0], "lottery")

    def _end_slide(self) -> TricksAndTreatsState:
        odd = _total(self.pile(basket_id("slide"))) % 2 == 1
        # Odd: "所有提籃卡須右移1格位置" (all right); even: left. The row wraps (TT-17).
        row = (self.row[-1], *self.row[:-1]) if odd else (*self.row[1:], self.row[0])
        return attrs.evolve(self, row=row)._log(
            N_("slide: every basket moves one place right")
            if odd
            else N_("slide: every basket moves one place left")
        )

    def _end_popular(self) -> TricksAndTreatsState:
        parity = _total(self.pile(basket_id("popular"))) % 2
        return attrs.evolve(self, popular=parity)._log(
            N_("popular: baskets with an odd amount of candy score 10 more")
            if parity
            else N_("popular: baskets with an even amount of candy score 10 more")
        )

    def _end_favorite(self) -> TricksAndTreatsState:
        return self._mark_leading_kinds(
            "favorite", "doubled", N_("{name}: {kinds} score 2 points a candy")
        )

    def _end_badcandy(self) -> TricksAndTreatsState:
        return self._mark_leading_kinds("badcandy", "spoiled", N_("{name}: {kinds} score 0 points"))

    def _mark_leading_kinds(self, special: str, field: str, message: str) -> TricksAndTreatsState:
        """Favorite, Bad Candy: the one or two kinds most under ``special`` go to ``field``."""
        kinds = _leading_kinds(self.pile(basket_id(special)))
        if not 1 <= len(kinds) <= 2:
            return self._log(N_("{name}: no effect"), name=(special,))
        changes: dict[str, Any] = {field: kinds}
        return attrs.evolve(self, **changes)._log(
            message, name=(special,), kinds=tuple(_KIND_WORDS[k] for k in kinds)
        )

    def _end_lice(self) -> TricksAndTreatsState:
        kinds = _leading_kinds(self.pile(basket_id("lice")))
        survivors = [p for p in range(self.num_players) if self.alive[p]]
        lousy: set[int] = set()
        found = []
        for kind in kinds:  # TT-16: every kind tied for the most has lice
            amounts = {p: _total(self.pile(self.numbers[p]), kind) for p in survivors}
            most = max(amounts.values())
            if most > 0:
                lousy |= {p for p, a in amounts.items() if a == most}
                found.append(Effect(N_("{count} {kind}"), count=most, kind=(_KIND_WORDS[kind],)))
        if not kinds:
            return self._log(N_("lice: no candy under the lice basket, so nobody has lice"))
        has = Effect(
            N_("{kinds} has lice (the most candy under the lice basket)")
            if len(kinds) == 1
            else N_("{kinds} have lice (the most candy under the lice basket)"),
            kinds=tuple(_KIND_WORDS[k] for k in kinds),
        )
        if not lousy:
            return self._log(
                N_("lice: {has}, but no basket of a player still in holds any: nobody has lice"),
                has=has,
            )
        most_held = tuple(found)
        if lousy == set(survivors):
            # TT-16: a game needs a winner ([3]); lice that would leave nobody eliminate nobody.
            return self._log(
                N_(
                    "lice: {has}; every player left holds the most ({most}), so nobody is "
                    "eliminated (TT-16)"
                ),
                has=has,
                most=most_held,
            )
        alive = tuple(a and p not in lousy for p, a in enumerate(self.alive))
        out = tuple(_player(p) for p in sorted(lousy))
        return attrs.evolve(self, alive=alive)._log(
            N_("lice: {has}; {players}, whose basket holds the most of it ({most}), is out")
            if len(lousy) == 1
            else N_("lice: {has}; {players}, whose baskets hold the most of it ({most}), are out"),
            has=has,
            players=out,
            most=most_held,
        )

    # -- views ------------------------------------------------------------------------------

    def view(self, player: int) -> TricksAndTreatsView:
        """What ``player`` sees: own hand and number, public piles and accusations (TT-3, TT-7)."""
        kit.check_seat(player, self.num_players, ConfigurationError)
        known: dict[int, int] = {player: self.numbers[player]}
        for a in self.accusations:
            known[a.target if a.correct else a.accuser] = self.numbers[
                a.target if a.correct else a.accuser
            ]
            if a.accuser == player and not a.correct:
                known[a.target] = self.numbers[a.target]  # shown secretly [2.(2)]
        if self.is_over:
            # TT-7: at the end the survivors turn their number cards up; every other number
            # card is face up already ([2]: a loser's card goes face up to the winner), and a
            # player Lice eliminates at the end turns it up with the others (TT-16).
            known = dict(enumerate(self.numbers))
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
            specials=self.config.specials,
            removed=self.removed,
            pending=self.pending,
            effects=self.effects,
            doubled=self.doubled,
            spoiled=self.spoiled,
            popular=self.popular,
        )

    def determinize(self, player: int, rng: random.Random) -> TricksAndTreatsState:
        """A state ``player`` cannot tell from this one: hidden cards, numbers, seed resampled."""
        return self.view(player).determinize(rng)

    def __str__(self) -> str:
        return "\n".join(_row_lines(self.row, self.piles))


@attrs.frozen
class TricksAndTreatsView:
    """One player's view; equal views mean the player cannot tell the states apart."""

    # The view repeats the state's public fields one by one on purpose: a new state field
    # reaches a player only when it is written here (hidden information stays hidden).

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
    specials: tuple[str, ...] = ()
    removed: tuple[Card, ...] = ()
    pending: int | None = None
    effects: tuple[Effect, ...] = ()
    doubled: tuple[str, ...] = ()
    spoiled: tuple[str, ...] = ()
    popular: int | None = None

    def possible_numbers(self, target: int) -> tuple[int, ...]:
        """The number cards ``target`` may hold, as far as this player knows.

        Known numbers (own, face up, shown) are taken; a number named wrongly for ``target`` is
        not theirs. Every assignment of the remaining numbers to the unknown players is checked,
        so a number only ``target`` can hold is found too.
        """
        return tuple(sorted({assignment[target] for assignment in self._assignments()}))

    def _assignments(self) -> tuple[tuple[int, ...], ...]:
        wrong = frozenset((a.target, a.number) for a in self.accusations if not a.correct)
        return _number_assignments(self.players, self.numbers, wrong)

    def determinize(self, rng: random.Random) -> TricksAndTreatsState:
        """A full state consistent with this view, the hidden parts drawn with ``rng``."""
        numbers, removed = self._sample_numbers(rng)
        seen = (
            Counter(self.hand)
            + Counter(c for pile in self.piles for c in pile)
            + Counter(self.removed)
        )
        unseen = list((Counter(CANDY_CARDS) - seen).elements())
        rng.shuffle(unseen)
        hands: list[tuple[Card, ...]] = []
        for q, size in enumerate(self.hand_sizes):
            if q == self.player:
                hands.append(self.hand)
            else:
                hands.append(tuple(sorted(unseen[:size], key=_card_order)))
                unseen = unseen[size:]
        discarded = tuple(unseen[: self.discarded])
        deck = unseen[self.discarded :]
        if not self.times_up:
            # Time's Up lies among the bottom six cards of the deck [1.(1)].
            bottom = min(6, len(deck) + 1)
            deck.insert(len(deck) + 1 - bottom + rng.randrange(bottom), TIMES_UP)
        return TricksAndTreatsState(
            config=Config(self.players, rng.getrandbits(64), self.specials),
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
            removed=self.removed,
            pending=self.pending,
            effects=self.effects,
            doubled=self.doubled,
            spoiled=self.spoiled,
            popular=self.popular,
        )

    def _sample_numbers(self, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
        options = self._assignments()
        numbers = options[rng.randrange(len(options))]
        removed = tuple(sorted(set(range(1, self.players + 3)) - set(numbers)))
        return numbers, removed


_END_EFFECTS: Final[dict[str, Callable[[TricksAndTreatsState], TricksAndTreatsState]]] = {
    "bomb": TricksAndTreatsState._end_bomb,
    "monte": TricksAndTreatsState._end_monte,
    "piggy": TricksAndTreatsState._end_piggy,
    "lottery": TricksAndTreatsState._end_lottery,
    "slide": TricksAndTreatsState._end_slide,
    "popular": TricksAndTreatsState._end_popular,
    "favorite": TricksAndTreatsState._end_favorite,
    "badcandy": TricksAndTreatsState._end_badcandy,
    "lice": TricksAndTreatsState._end_lice,
}
"""[4] The specials that act at the end (Magnet and Disco act only during play)."""


@functools.lru_cache(maxsize=4096)
def _number_assignments(
    players: int, known: tuple[int | None, ...], wrong: frozenset[tuple[int, int]]
) -> tuple[tuple[int, ...], ...]:
    """Every way to deal the number cards to the players that agrees with what one knows.

    ``known`` gives the numbers known per seat (None: unknown); ``wrong`` holds (seat, number)
    pairs named wrongly in accusations. Cached: the search asks the same questions often.
    """
    return tuple(
        assignment
        for assignment in itertools.permutations(range(1, players + 3), players)
        if all(k is None or assignment[q] == k for q, k in enumerate(known))
        and not any((q, n) in wrong for q, n in enumerate(assignment))
    )


def _card_order(card: Card) -> tuple[str, int]:
    """The order of ``Card`` (kind, then value), without the slower generated comparison."""
    return card.kind, card.value


def _total(pile: Sequence[Card], kind: str | None = None) -> int:
    return sum(c.value for c in pile if kind is None or c.kind == kind)


def _leading_kinds(pile: Sequence[Card]) -> tuple[str, ...]:
    """The candy kinds with the most candy in ``pile`` (none for an empty pile)."""
    amounts = {kind: _total(pile, kind) for kind in KINDS}
    most = max(amounts.values())
    return tuple(k for k in KINDS if most > 0 and amounts[k] == most)


def _extremes(
    row: Sequence[int], piles: Sequence[tuple[Card, ...]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The baskets with the most candy and those with the fewest (Disco, TT-13)."""
    totals = [_total(pile) for pile in piles]
    most, fewest = max(totals), min(totals)
    return (
        tuple(sorted(b for b, t in zip(row, totals, strict=True) if t == most)),
        tuple(sorted(b for b, t in zip(row, totals, strict=True) if t == fewest)),
    )


def _row_lines(row: Sequence[int], piles: Sequence[tuple[Card, ...]]) -> list[str]:
    width = max(len(basket_name(b)) for b in row) + 1
    return [
        f"basket {basket_name(b) + ':':<{width}} {' '.join(map(str, pile)) or '-'}"
        f"  ({_total(pile)} candy)"
        for b, pile in zip(row, piles, strict=True)
    ]


def _choose_specials(players: int, seed: int, specials: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(specials, bool):
        raise ConfigurationError(f"specials must be 0, 1, 2 or names, got {specials!r}")
    if isinstance(specials, int):
        if not 0 <= specials <= 2:
            raise ConfigurationError(
                f"the variant uses 1 or 2 special baskets ([4] 1~2張), or 0 for the basic game;"
                f" got {specials}"
            )
        # [4] "從中抽取1~2張": 1 or 2 drawn from the shuffled specials.
        return tuple(kit.seeded_random(seed, "specials").sample(SPECIALS, specials))
    names = tuple(specials)
    unknown = [n for n in names if n not in SPECIALS]
    if unknown or len(set(names)) != len(names) or len(names) > 2:
        raise ConfigurationError(
            f"specials must be at most 2 different names of {', '.join(SPECIALS)}; got {names!r}"
        )
    return names


def new_game(
    players: int, seed: int = 0, specials: int | Sequence[str] = 0
) -> TricksAndTreatsState:
    """A new game for 2 to 4 players, every shuffle drawn from ``seed`` [1].

    ``specials`` plays the variant [4]: 1 or 2 special baskets drawn from the seed, or their
    names (``SPECIALS``); 0 (the default) plays the basic game.

    >>> game = new_game(3, seed=1)
    >>> len(game.row), len(game.deck), [len(h) for h in game.hands]
    (5, 43, [2, 2, 2])
    >>> [basket_name(b) for b in new_game(3, seed=1, specials=["piggy"]).row]
    ['2', '3', 'piggy', '5', '4', '1']
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ConfigurationError(f"Tricks & Treats is for 2 to 4 players, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigurationError(f"seed must be an int, got {seed!r}")
    names = _choose_specials(players, seed, specials)
    rng = kit.seeded_random(seed, "setup")
    cards = list(CANDY_CARDS)
    rng.shuffle(cards)
    bottom = [*cards[:5], TIMES_UP]  # [1.(1)] five cards and Time's Up, shuffled, at the bottom
    rng.shuffle(bottom)
    deck = cards[5:] + bottom
    hands = tuple(  # [1.(2)]
        tuple(sorted(deck[2 * p : 2 * p + 2], key=_card_order)) for p in range(players)
    )
    deck = deck[2 * players :]
    baskets = list(range(1, players + 3))
    rng.shuffle(baskets)  # [1.(3)] laid out in a row, in no particular order
    numbers = list(range(1, players + 3))
    rng.shuffle(numbers)  # [1.(4)]
    first = rng.randrange(players)  # TT-2
    row: list[int] = baskets
    piles: list[tuple[Card, ...]] = [()] * len(baskets)
    placing = kit.seeded_random(seed, "special places")
    for name in names:  # [4] "正面朝上加入桌面上的提籃卡列中": anywhere in the row (TT-10)
        at = placing.randrange(len(row) + 1)
        row.insert(at, basket_id(name))
        start: tuple[Card, ...] = ()
        if name in ("piggy", "lottery"):
            # "從糖果卡牌堆上方抽取3張卡牌" face up under it, after the hands are dealt (TT-11).
            start, deck = tuple(deck[:3]), deck[3:]
        piles.insert(at, start)
    return TricksAndTreatsState(
        config=Config(players, seed, names),
        deck=tuple(deck),
        hands=hands,
        row=tuple(row),
        piles=tuple(piles),
        numbers=tuple(numbers[:players]),
        removed_numbers=tuple(sorted(numbers[players:])),
        alive=(True,) * players,
        captured=((),) * players,
        discarded=(),
        accusations=(),
        step=Step.DRAW,
        current_player=first,
        times_up=False,
        history=(),
    )
