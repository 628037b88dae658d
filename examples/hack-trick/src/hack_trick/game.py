"""Hack Trick's rules: actions, the immutable match state, views and determinization.

Rule references (``[2.B]``, ``[3.A]``, ...) follow the numbered sections of the Dutch rules text
(``hack-trick-nl.txt``); ``HT-n`` are this project's rulings, listed in ``RULES.md``.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence
from typing import Final, TypeVar

import attrs

from hack_trick._i18n import N_
from hack_trick.errors import ConfigurationError, IllegalActionError, InvalidActionError
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "CARDS",
    "LAYOUT",
    "LINES",
    "Action",
    "Ask",
    "Config",
    "Draw",
    "Force",
    "Guard",
    "HackTrickState",
    "HackTrickView",
    "HandResult",
    "Pass",
    "Play",
    "Reveal",
    "Square",
    "Start",
    "Step",
    "new_match",
    "parse_action",
]

CARDS: Final = tuple(sorted(v for v in range(6) for _ in range(3)))
"""The 18 cards: three each of 0 to 5."""
LAYOUT: Final = ((8, 1, 6), (3, 5, 7), (4, 9, 2))
"""The board's squares 1-9 as a magic square: every line sums to 15 (HT-1)."""
LINES: Final = tuple(
    frozenset(line)
    for line in (
        *LAYOUT,
        *zip(*LAYOUT, strict=True),
        (LAYOUT[0][0], LAYOUT[1][1], LAYOUT[2][2]),
        (LAYOUT[0][2], LAYOUT[1][1], LAYOUT[2][0]),
    )
)
"""The eight rows, columns and diagonals, as sets of square numbers."""
SINGLE_MARKERS: Final = 9
"""Each player has 10 markers, one of them the thick double marker."""
HAND_LIMIT: Final = 4
_T = TypeVar("_T")


# -- actions ------------------------------------------------------------------------------------
# One class per action, alike by design: a record tags each by its class name, and its text
# (word, then fields) comes from tricky_treats.protocol.game_kit.SpokenAction.


@attrs.frozen
class Start(kit.SpokenAction):
    """The four-card player lays ``card`` face up as the Row's first card (no marker)."""

    card: int
    word = "start"


@attrs.frozen
class Ask(kit.SpokenAction):
    """[1] Pay a captured opponent marker to learn the sum of the opponent's hand."""

    word = "ask"


@attrs.frozen
class Draw(kit.SpokenAction):
    """[2.A] Draw the top card of the deck."""

    word = "draw"


@attrs.frozen
class Play:
    """[2.B] Play ``card`` onto the Row and place a marker (the double one if ``double``)."""

    card: int
    double: bool = False

    def __str__(self) -> str:
        return f"play {self.card}{'x' if self.double else ''}"


@attrs.frozen
class Pass(kit.SpokenAction):
    """[3] End the turn without spending a marker."""

    word = "pass"


@attrs.frozen
class Force(kit.SpokenAction):
    """[3.A] "Play!": spend a marker; the opponent must play a card next turn."""

    word = "force"


@attrs.frozen
class Guard(kit.SpokenAction):
    """[3.B] "Block": spend a marker; the opponent may not force you next turn."""

    word = "guard"


Action = Start | Ask | Draw | Play | Pass | Force | Guard
_SPOKEN: Final[tuple[Action, ...]] = (Ask(), Draw(), Pass(), Force(), Guard())
_WORDS: Final = {str(action): action for action in _SPOKEN}


def parse_action(text: str) -> Action:
    """The action written as ``text`` (``str(action)`` gives it back).

    >>> parse_action("play 3x")
    Play(card=3, double=True)
    """
    if not isinstance(text, str) or len(text) > 20:
        raise InvalidActionError(f"{text!r:.40} is not an action; write e.g. 'play 3' or 'draw'")
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _WORDS:
        return _WORDS[words[0]]
    if len(words) == 2 and words[0] in ("start", "play"):
        value, double = words[1], False
        if words[0] == "play" and value.endswith("x"):
            value, double = value[:-1], True
        if len(value) == 1 and value in "012345":
            return Start(int(value)) if words[0] == "start" else Play(int(value), double)
    raise InvalidActionError(
        f"{text!r} is not an action; write start N, ask, draw, play N, play Nx (double marker), "
        "pass, force or guard, with N a card from 0 to 5"
    )


# -- state --------------------------------------------------------------------------------------


class Step(enum.Enum):
    """Where the match stands."""

    START = "start"
    """The four-card player chooses the Row's first card."""
    MAIN = "main"
    """[1]-[2] The player to move may ask, and must draw or play."""
    END = "end"
    """[3] After playing a card: pass, force or guard."""
    OVER = "over"


@attrs.frozen
class Config:
    """A match's settings."""

    target: int = 5
    """Points that win the match ("Doel van het spel": 5)."""
    seed: int = 0
    """Every shuffle of the match derives from it; it is hidden from the players."""
    asking: str = "hand"
    """How "in een eerdere ronde genomen" reads (HT-3): ``"hand"``, the default (captured in an
    earlier hand: captured markers stay with the captor across hands and only those pay for
    asking), or ``"turn"`` (captured on an earlier turn, markers go back at each deal)."""


@attrs.frozen
class Square:
    """One board square: whose markers are on it, bottom to top (True marks the double one)."""

    owner: int | None = None
    stack: tuple[bool, ...] = ()


@attrs.frozen
class Reveal:
    """Public information given during a hand: an announced sum or a shown hand."""

    player: int
    kind: str
    """``"announce"`` (set-up sum), ``"ask"`` ([1]) or ``"show"`` (forced but unable, [3.A])."""
    hand_sum: int
    cards: tuple[int, ...] | None = None


@attrs.frozen
class HandResult:
    """How a hand ended."""

    winner: int
    points: int
    reason: str
    """``"line"``, ``"triple"`` or ``"no marker"``."""
    squares: tuple[int, ...] = ()
    """The scoring area: the winning line's squares or the triple's square (HT-8)."""
    board: tuple[Square, ...] = attrs.field(default=(), repr=False, eq=False)
    """The board as the hand ended, before the next deal clears it."""


@attrs.frozen
class HackTrickState:
    """A Hack Trick match at one moment. Immutable: ``apply()`` returns a new state.

    Create one with ``new_match()``. The match is a series of hands; the first to
    ``config.target`` points wins it.
    """

    config: Config
    scores: tuple[int, int]
    hand_number: int
    step: Step
    current_player: int | None
    deck: tuple[int, ...] = attrs.field(repr=False)
    """Top card first; hidden."""
    set_aside: tuple[int, ...] = attrs.field(repr=False)
    """The two cards laid aside unseen for the whole hand."""
    row: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]] = attrs.field(repr=False)
    singles: tuple[int, int] = attrs.field(repr=False)
    """Unplayed single markers per player."""
    doubles: tuple[bool, bool] = attrs.field(repr=False)
    """Whether each player's double marker is still unplayed."""
    board: tuple[Square, ...] = attrs.field(repr=False)
    """Squares 1-9 at indexes 0-8."""
    captured: tuple[tuple[int, int], tuple[int, int]] = attrs.field(repr=False)
    """Per player, the opponent's markers they hold: (singles, doubles)."""
    spent: tuple[tuple[int, int], tuple[int, int]] = attrs.field(repr=False)
    """Per player, their own markers out of the hand: (singles, doubles) (HT-5)."""
    forced: tuple[bool, bool] = attrs.field(repr=False)
    guarded: tuple[bool, bool] = attrs.field(repr=False)
    asked: bool = attrs.field(repr=False)
    reveals: tuple[Reveal, ...] = attrs.field(repr=False)
    reshuffles: int = attrs.field(repr=False)
    results: tuple[HandResult, ...] = attrs.field(repr=False)
    history: tuple[Action, ...] = attrs.field(repr=False)
    banked: tuple[tuple[int, int], tuple[int, int]] = attrs.field(
        default=((0, 0), (0, 0)), repr=False
    )
    """``asking="hand"``: per player, the opponent's markers captured in earlier hands and still
    held, (singles, doubles); only they pay for asking (HT-3)."""

    # -- protocol ---------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Always 2."""
        return 2

    @property
    def is_over(self) -> bool:
        """Whether a player has reached the target."""
        return self.step is Step.OVER

    @property
    def dealer(self) -> int:
        """The starting player of this hand; it alternates, seat 0 first (HT-2)."""
        return self.hand_number % 2

    @property
    def top(self) -> int | None:
        """The last card played to the Row."""
        return self.row[-1] if self.row else None

    def winner(self) -> int | None:
        """The match winner, once over."""
        if not self.is_over:
            return None
        return 0 if self.scores[0] >= self.config.target else 1

    def returns(self) -> tuple[float, ...]:
        """1.0 for the match winner, 0.0 for the other (0.0 each before the end)."""
        won = self.winner()
        return kit.shared_returns(() if won is None else (won,), 2)

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's legal actions, in a fixed order."""
        p = self.current_player
        if p is None:
            return ()
        hand = self.hands[p]
        if self.step is Step.START:
            return tuple(Start(c) for c in sorted(set(hand)))
        if self.step is Step.END:
            spend: tuple[Action, ...] = ()
            if self._markers(p):
                spend = (Guard(),) if self.guarded[p] else (Force(), Guard())
            return (Pass(), *spend)
        actions: list[Action] = []
        if not self.asked and self._ask_tokens(p) != (0, 0):
            actions.append(Ask())
        plays = self._plays(p)
        if len(hand) < HAND_LIMIT and not (self.forced[p] and plays):
            actions.append(Draw())
        actions.extend(plays)
        return tuple(actions)

    def _ask_tokens(self, p: int) -> tuple[int, int]:
        """The captured markers ``p`` may pay for asking (HT-3)."""
        return self.banked[p] if self.config.asking == "hand" else self.captured[p]

    def _markers(self, p: int) -> int:
        return self.singles[p] + self.doubles[p]

    def _plays(self, p: int) -> list[Action]:
        plays: list[Action] = []
        for card in sorted(set(self.hands[p])):
            if card == self.top:
                continue
            if self.singles[p]:
                plays.append(Play(card))
            if self.doubles[p]:
                plays.append(Play(card, double=True))
        return plays

    def apply(self, action: Action) -> HackTrickState:
        """The state after ``action``; raises ``IllegalActionError`` naming the rule if illegal."""
        if isinstance(action, str):
            action = parse_action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action, legal))
        p = self.current_player
        assert p is not None
        state = attrs.evolve(self, history=(*self.history, action))
        match action:
            case Start(card=card):
                return state._start(p, card)
            case Ask():
                return state._ask(p)
            case Draw():
                return state._draw(p)._end_turn(p)
            case Play():
                return state._play(p, action)
            case Force():
                return state._spend(p, "forced")._end_turn(p)
            case Guard():
                return state._spend(p, "guarded")._end_turn(p)
            case Pass():
                return state._end_turn(p)
        raise AssertionError(action)  # pragma: no cover - every legal action is matched

    def _why_illegal(self, action: object, legal: Sequence[Action]) -> str:
        listed = kit.legal_now(legal, none="none, the match is over")
        if not isinstance(action, Start | Ask | Draw | Play | Pass | Force | Guard):
            raise InvalidActionError(f"{action!r:.60} is not a Hack Trick action")
        reason, values = self.refusal(action)
        return f"{action} is illegal: {reason.format(**values)}; legal now: {listed}"

    def refusal(self, action: Action) -> tuple[str, dict[str, int]]:
        """Why the rules refuse ``action`` now: an English message id and its values.

        The console says it in the player's language; the exception says it in English. It
        reads only what the player to act knows: their hand, the Row, the calls made.
        """
        p = self.current_player
        if p is not None and isinstance(action, Play):
            if action.card not in self.hands[p]:
                return N_("you hold no {card} [2.B]"), {"card": action.card}
            if action.card == self.top:
                return N_("the card played may not equal the last card, {card} [2.B]"), {
                    "card": self.top
                }
            if not self._markers(p):
                return N_("you have no marker left to place [2.B]"), {}
        elif p is not None and isinstance(action, Draw):
            if len(self.hands[p]) >= HAND_LIMIT:
                return N_("your hand limit is 4: with 4 cards you must play [2.A]"), {}
            if self.forced[p]:
                return N_("the opponent called Play!: you must play a card [3.A]"), {}
        elif isinstance(action, Force) and p is not None and self.guarded[p]:
            return N_("the opponent guarded: you may not call Play! this turn [3.B]"), {}
        elif isinstance(action, Ask) and p is not None:
            return N_(
                "ask once a turn, before drawing or playing, paying a captured marker [1]"
            ), {}
        if p is None:
            return N_("the match is over"), {}
        if isinstance(action, Pass | Force | Guard) and self.step is not Step.END:
            return N_("pass, force and guard come after playing a card [3]"), {}
        if self.step is Step.START:
            return N_("the hand begins: the four-card player lays the start card (start N)"), {}
        if self.step is Step.END:
            return N_("after playing a card: pass, force or guard [3]"), {}
        return N_("it is not legal now"), {}

    # -- rules ------------------------------------------------------------------------------

    def _start(self, p: int, card: int) -> HackTrickState:
        hands = _with_hand(self.hands, p, _remove(self.hands[p], card))
        reveals = tuple(
            Reveal(q, "announce", sum(hands[q])) for q in (self.dealer, 1 - self.dealer)
        )
        state = attrs.evolve(
            self,
            row=(card,),
            hands=hands,
            reveals=reveals,
            step=Step.MAIN,
            current_player=self.dealer,
        )
        return state._begin_turn()

    def _ask(self, p: int) -> HackTrickState:
        singles, doubles = self._ask_tokens(p)
        # HT-5: the paid marker leaves the game; a single one is paid while there is one.
        paid = (1, 0) if singles else (0, 1)
        o = 1 - p
        spent = _with_pair(self.spent, o, _add(self.spent[o], paid))
        reveal = Reveal(o, "ask", sum(self.hands[o]))
        state = attrs.evolve(self, spent=spent, asked=True, reveals=(*self.reveals, reveal))
        if self.config.asking == "hand":
            banked = _with_pair(self.banked, p, (singles - paid[0], doubles - paid[1]))
            return attrs.evolve(state, banked=banked)
        captured = _with_pair(self.captured, p, (singles - paid[0], doubles - paid[1]))
        return attrs.evolve(state, captured=captured)

    def _draw(self, p: int) -> HackTrickState:
        state = self
        if not state.deck:
            # [2.A] the played cards but the last are shuffled into a new deck.
            pile = list(state.row[:-1])
            shuffle = kit.seeded_random(
                self.config.seed, "reshuffle", self.hand_number, self.reshuffles
            )
            shuffle.shuffle(pile)
            state = attrs.evolve(
                state, deck=tuple(pile), row=state.row[-1:], reshuffles=state.reshuffles + 1
            )
        hand = tuple(sorted((*state.hands[p], state.deck[0])))
        return attrs.evolve(state, deck=state.deck[1:], hands=_with_hand(state.hands, p, hand))

    def _play(self, p: int, action: Play) -> HackTrickState:
        top = self.top
        assert top is not None
        number = action.card + top  # [2.B]; 1..9 since the two cards differ
        square = self.board[number - 1]
        o = 1 - p
        captured = self.captured
        if square.owner == o:
            taken = (square.stack.count(False), square.stack.count(True))
            captured = _with_pair(captured, p, _add(captured[p], taken))
            square = Square()
        square = Square(p, (*square.stack, action.double))
        board = (*self.board[: number - 1], square, *self.board[number:])
        state = attrs.evolve(
            self,
            row=(*self.row, action.card),
            hands=_with_hand(self.hands, p, _remove(self.hands[p], action.card)),
            board=board,
            captured=captured,
            singles=_with(self.singles, p, self.singles[p] - (not action.double)),
            doubles=_with(self.doubles, p, self.doubles[p] and not action.double),
            step=Step.END,
        )
        won = state._formation_points(p, number)
        if won is not None:
            return state._end_hand(HandResult(p, won[0], won[1], won[2], state.board))
        return state

    def _formation_points(self, p: int, number: int) -> tuple[int, str, tuple[int, ...]] | None:
        """Points, kind and squares of the best winning formation through ``number``, if any."""
        best: tuple[int, str, tuple[int, ...]] | None = None
        square = self.board[number - 1]
        # The marker just placed is the top of this square; it never earns the double (HT-4).
        earlier = square.stack[:-1]
        if len(square.stack) >= 3:
            best = (2 if True in earlier else 1, "triple", (number,))
        for line in LINES:
            if number in line and all(self.board[n - 1].owner == p for n in line):
                others = (m for n in line if n != number for m in self.board[n - 1].stack)
                points = 2 if True in earlier or True in others else 1
                if best is None or points > best[0]:
                    best = (points, "line", _in_layout_order(line))
        return best

    def _spend(self, p: int, flag: str) -> HackTrickState:
        # HT-6: a single marker is spent while there is one, else the double one.
        use_single = self.singles[p] > 0
        o = 1 - p
        state = attrs.evolve(
            self,
            singles=_with(self.singles, p, self.singles[p] - use_single),
            doubles=_with(self.doubles, p, self.doubles[p] and use_single),
            spent=_with_pair(self.spent, p, _add(self.spent[p], (1, 0) if use_single else (0, 1))),
        )
        if flag == "forced":
            return attrs.evolve(state, forced=_with(state.forced, o, True))
        return attrs.evolve(state, guarded=_with(state.guarded, o, True))

    def _end_turn(self, p: int) -> HackTrickState:
        state = attrs.evolve(
            self,
            forced=_with(self.forced, p, False),
            guarded=_with(self.guarded, p, False),
            asked=False,
            step=Step.MAIN,
            current_player=1 - p,
        )
        return state._begin_turn()

    def _begin_turn(self) -> HackTrickState:
        p = self.current_player
        assert p is not None
        if not self._markers(p) and (self.forced[p] or len(self.hands[p]) == HAND_LIMIT):
            # "Einde van het spel": the opponent must play a card but has no marker left.
            return self._end_hand(HandResult(1 - p, 1, "no marker", (), self.board))
        if self.forced[p] and not self._plays(p):
            # [3.A] unable to play, the forced player shows the hand and draws instead.
            hand = self.hands[p]
            return attrs.evolve(self, reveals=(*self.reveals, Reveal(p, "show", sum(hand), hand)))
        return self

    def _end_hand(self, result: HandResult) -> HackTrickState:
        scores = _with(self.scores, result.winner, self.scores[result.winner] + result.points)
        results = (*self.results, result)
        if scores[result.winner] >= self.config.target:
            return attrs.evolve(
                self, scores=scores, results=results, step=Step.OVER, current_player=None
            )
        banked = self.banked
        if self.config.asking == "hand":
            # HT-3 "hand": this hand's captures join the captor's bank for the next hands.
            banked = (_add(banked[0], self.captured[0]), _add(banked[1], self.captured[1]))
        return _deal(self.config, scores, self.hand_number + 1, results, self.history, banked)

    # -- views ------------------------------------------------------------------------------

    def view(self, player: int) -> HackTrickView:
        """What ``player`` sees: not the opponent's hand, the deck or the set-aside cards."""
        kit.check_seat(player, 2, ConfigurationError)
        return HackTrickView(
            player=player,
            target=self.config.target,
            scores=self.scores,
            hand_number=self.hand_number,
            step=self.step,
            current_player=self.current_player,
            hand=self.hands[player],
            opponent_hand_size=len(self.hands[1 - player]),
            deck_size=len(self.deck),
            row=self.row,
            singles=self.singles,
            doubles=self.doubles,
            board=self.board,
            captured=self.captured,
            spent=self.spent,
            forced=self.forced,
            guarded=self.guarded,
            asked=self.asked,
            reveals=self.reveals,
            reshuffles=self.reshuffles,
            results=self.results,
            history=self.history,
            asking=self.config.asking,
            banked=self.banked,
        )

    def determinize(self, player: int, rng: random.Random) -> HackTrickState:
        """A state ``player`` cannot tell from this one: unseen cards and the seed resampled.

        The unseen cards are dealt uniformly; the sums the opponent has revealed are not used
        to constrain them (a simplification for search, not a rule).
        """
        return self.view(player).determinize(rng)

    def __str__(self) -> str:
        lines = [f"hand {self.hand_number + 1}, scores {self.scores[0]}-{self.scores[1]}"]
        lines.extend(_board_lines(self.board))
        lines.append(f"row: {' '.join(map(str, self.row))}  deck: {len(self.deck)}")
        return "\n".join(lines)


@attrs.frozen
class HackTrickView:
    """One player's view of a match; equal views mean the player cannot tell the states apart."""

    # The view repeats the state's public fields one by one on purpose: a new state field
    # reaches a player only when it is written here (hidden information stays hidden).

    player: int
    target: int
    scores: tuple[int, int]
    hand_number: int
    step: Step
    current_player: int | None
    hand: tuple[int, ...]
    opponent_hand_size: int
    deck_size: int
    row: tuple[int, ...]
    singles: tuple[int, int]
    doubles: tuple[bool, bool]
    board: tuple[Square, ...]
    captured: tuple[tuple[int, int], tuple[int, int]]
    spent: tuple[tuple[int, int], tuple[int, int]]
    forced: tuple[bool, bool]
    guarded: tuple[bool, bool]
    asked: bool
    reveals: tuple[Reveal, ...]
    reshuffles: int
    results: tuple[HandResult, ...]
    history: tuple[Action, ...]
    asking: str = "hand"
    banked: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))

    def determinize(self, rng: random.Random) -> HackTrickState:
        """A full state consistent with this view, unseen cards and seed drawn with ``rng``."""
        unseen = list((Counter(CARDS) - Counter(self.row) - Counter(self.hand)).elements())
        rng.shuffle(unseen)
        k = self.opponent_hand_size
        other = tuple(sorted(unseen[:k]))
        set_aside, deck = tuple(unseen[k : k + 2]), tuple(unseen[k + 2 :])
        return HackTrickState(
            config=Config(self.target, rng.getrandbits(64), self.asking),
            scores=self.scores,
            hand_number=self.hand_number,
            step=self.step,
            current_player=self.current_player,
            deck=deck,
            set_aside=set_aside,
            row=self.row,
            hands=_with_hand((self.hand, self.hand), 1 - self.player, other),
            singles=self.singles,
            doubles=self.doubles,
            board=self.board,
            captured=self.captured,
            spent=self.spent,
            forced=self.forced,
            guarded=self.guarded,
            asked=self.asked,
            reveals=self.reveals,
            reshuffles=self.reshuffles,
            results=self.results,
            history=self.history,
            banked=self.banked,
        )


def _board_lines(board: Sequence[Square]) -> list[str]:
    def cell(n: int) -> str:
        sq = board[n - 1]
        if sq.owner is None:
            return f"{n}:  .  "
        marks = "".join("X" if d else "x" for d in sq.stack)
        return f"{n}:{'AB'[sq.owner]}{marks:<4}"

    return ["  ".join(cell(n) for n in row) for row in LAYOUT]


# -- dealing ------------------------------------------------------------------------------------


def new_match(target: int = 5, seed: int = 0, asking: str = "hand") -> HackTrickState:
    """A new match to ``target`` points, every shuffle drawn from ``seed``.

    ``asking`` chooses the reading of the asking rule (HT-3): ``"hand"`` (the default:
    captured markers carry across hands and pay for asking in later hands) or ``"turn"``
    (captured on an earlier turn; markers go back at each deal).

    >>> match = new_match(seed=1)
    >>> match.current_player, len(match.hands[1]), len(match.hands[0]), len(match.deck)
    (1, 4, 3, 9)
    """
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 99:
        raise ConfigurationError(
            f"target must be a whole number of points from 1 to 99, got {target!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigurationError(f"seed must be an int, got {seed!r}")
    if asking not in ("turn", "hand"):
        raise ConfigurationError(
            f'asking must be "turn" or "hand" (the two readings of HT-3), got {asking!r:.20}'
        )
    return _deal(Config(target, seed, asking), (0, 0), 0, (), ())


def _deal(
    config: Config,
    scores: tuple[int, int],
    hand_number: int,
    results: tuple[HandResult, ...],
    history: tuple[Action, ...],
    banked: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
) -> HackTrickState:
    cards = list(CARDS)
    kit.seeded_random(config.seed, "deal", hand_number).shuffle(cards)
    dealer = hand_number % 2
    four, three = tuple(sorted(cards[2:6])), tuple(sorted(cards[6:9]))
    hands = _with_hand((three, three), 1 - dealer, four)
    return HackTrickState(
        config=config,
        scores=scores,
        hand_number=hand_number,
        step=Step.START,
        current_player=1 - dealer,
        deck=tuple(cards[9:]),
        set_aside=tuple(cards[:2]),
        row=(),
        hands=hands,
        # HT-3 "hand": markers the opponent still holds do not come back to their owner.
        singles=(SINGLE_MARKERS - banked[1][0], SINGLE_MARKERS - banked[0][0]),
        doubles=(banked[1][1] == 0, banked[0][1] == 0),
        board=(Square(),) * 9,
        captured=((0, 0), (0, 0)),
        spent=((0, 0), (0, 0)),
        forced=(False, False),
        guarded=(False, False),
        asked=False,
        reveals=(),
        reshuffles=0,
        results=results,
        history=history,
        banked=banked,
    )


def _in_layout_order(squares: frozenset[int]) -> tuple[int, ...]:
    order = [n for row in LAYOUT for n in row]
    return tuple(sorted(squares, key=order.index))


def _with(pair: tuple[_T, _T], index: int, value: _T) -> tuple[_T, _T]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def _with_hand(
    hands: tuple[tuple[int, ...], tuple[int, ...]], p: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return _with(hands, p, hand)


def _with_pair(
    pairs: tuple[tuple[int, int], tuple[int, int]], p: int, value: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    return _with(pairs, p, value)


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]
