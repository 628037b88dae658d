"""Candy Chaser's rules: actions, the immutable game state, views and determinization.

Sections (``[A.2]``, ``[B.4]``, ...) follow the Spanish rules text (``candy-chaser-es.txt``);
``CC-n`` are this project's rulings, listed in ``RULES.md``.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Sequence
from typing import Final

import attrs

from candy_chaser._i18n import N_
from candy_chaser.errors import ConfigurationError, IllegalActionError, InvalidActionError
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "CANDIES",
    "DIE_FACES",
    "GOAL",
    "Accusation",
    "Accuse",
    "Action",
    "CandyChaserState",
    "CandyChaserView",
    "Config",
    "Move",
    "Pass",
    "Phase",
    "new_game",
    "parse_action",
]

CANDIES: Final = ("red", "orange", "yellow", "green", "purple")
"""The five candies (CC-1: the engine's names for the five colours)."""
LOWEST: Final = -2
TOP: Final = 5
GOAL: Final = 6
"""The G space, above 5."""
DIE_FACES: Final = (-2, -1, 1, 2, 3)
"""CC-2: the die's results, uniformly likely."""


# -- actions ------------------------------------------------------------------------------------
# One class per action, alike by design: a record tags each by its class name, and its text
# (word, then fields) comes from tricky_treats.protocol.game_kit.SpokenAction.


@attrs.frozen
class Move(kit.SpokenAction):
    """[A.2] Move the cube of ``candy`` by the roll."""

    candy: str
    word = "move"


@attrs.frozen
class Accuse(kit.SpokenAction):
    """[B.1] Slide ``target`` the Tattletale card of ``candy``, face down."""

    target: int
    candy: str
    word = "accuse"


@attrs.frozen
class Pass(kit.SpokenAction):
    """[B] Do not accuse (or stop after a correct accusation, [B.4])."""

    word = "pass"


Action = Move | Accuse | Pass


def parse_action(text: str) -> Action:
    """The action written as ``text``.

    >>> parse_action("accuse 2 red")
    Accuse(target=2, candy='red')
    """
    if not isinstance(text, str) or len(text) > 30:
        raise InvalidActionError(f"{text!r:.40} is not an action; write e.g. 'move red' or 'pass'")
    words = text.strip().lower().split()
    if words == ["pass"]:
        return Pass()
    if len(words) == 2 and words[0] == "move" and words[1] in CANDIES:
        return Move(words[1])
    seats = ("0", "1", "2", "3")
    if len(words) == 3 and words[0] == "accuse" and words[1] in seats and words[2] in CANDIES:
        return Accuse(int(words[1]), words[2])
    raise InvalidActionError(
        f"{text!r} is not an action; write 'move CANDY', 'accuse PLAYER CANDY' or 'pass', "
        f"with CANDY one of {', '.join(CANDIES)}"
    )


# -- state --------------------------------------------------------------------------------------


class Phase(enum.Enum):
    """The two phases of the game, and its end."""

    MARKETING = "marketing"
    TATTLETALE = "tattletale"
    OVER = "over"


@attrs.frozen
class Config:
    """A game's settings."""

    players: int
    seed: int = 0
    """Every shuffle and roll derives from it; it is hidden from the players."""


@attrs.frozen
class Accusation:
    """One accusation. Only accuser and target see ``candy``; the result is public [B.2]."""

    accuser: int
    target: int
    candy: str | None
    correct: bool


@attrs.frozen
class CandyChaserState:
    """A game of Candy Chaser at one moment. Immutable: ``apply()`` returns a new state."""

    config: Config
    objectives: tuple[str, ...] = attrs.field(repr=False)
    """Each player's secret candy."""
    prices: tuple[int, ...]
    """Per candy (in ``CANDIES`` order), its space: -2 to 5, or 6 for G."""
    alive: tuple[bool, ...]
    phase: Phase
    current_player: int | None
    roll: int | None
    """The die result the current player must move by (Marketing only)."""
    turn: int
    """Marketing turns finished so far."""
    to_accuse: tuple[int, ...] = attrs.field(repr=False)
    """Tattletale: the players after the current one still to have their chance, in order."""
    accusations: tuple[Accusation, ...] = attrs.field(repr=False)
    history: tuple[Action, ...] = attrs.field(repr=False)

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """Whether the Tattletale phase has ended."""
        return self.phase is Phase.OVER

    def price(self, candy: str) -> int:
        """The space of ``candy``'s cube."""
        return self.prices[CANDIES.index(candy)]

    def winners(self) -> tuple[int, ...]:
        """The survivors whose candy has the highest price (CC-6: ties share)."""
        if not self.is_over:
            return ()
        survivors = [p for p in range(self.num_players) if self.alive[p]]
        best = max(self.price(self.objectives[p]) for p in survivors)
        return tuple(p for p in survivors if self.price(self.objectives[p]) == best)

    def returns(self) -> tuple[float, ...]:
        """Winners share 1.0."""
        return kit.shared_returns(self.winners(), self.num_players)

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's legal actions, in a fixed order."""
        p = self.current_player
        if p is None:
            return ()
        if self.phase is Phase.MARKETING:
            return tuple(Move(c) for c in CANDIES)  # [A.4], [A.5]: even a cube that cannot move
        targets = [t for t in range(self.num_players) if t != p and self.alive[t]]
        return (Pass(), *(Accuse(t, c) for t in targets for c in CANDIES))

    def destination(self, candy: str) -> int:
        """Where ``candy``'s cube would end with the current roll ([A.3], G condition)."""
        assert self.roll is not None
        return _move_end(self.prices, CANDIES.index(candy), self.roll)

    def apply(self, action: Action | str) -> CandyChaserState:
        """The state after ``action``; raises ``IllegalActionError`` if the rules forbid it."""
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, Move | Accuse | Pass):
            raise InvalidActionError(f"{action!r:.60} is not a Candy Chaser action")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action, legal))
        p = self.current_player
        assert p is not None
        state = attrs.evolve(self, history=(*self.history, action))
        if isinstance(action, Move):
            return state._move(p, action.candy)
        if isinstance(action, Accuse):
            return state._accuse(p, action)
        return state._next_accuser()

    def _why_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        reason, values = self.refusal(action)
        return (
            f"{action} is illegal: {reason.format(**values)}; legal now: {kit.legal_now(legal, 8)}"
        )

    def refusal(self, action: Action) -> tuple[str, dict[str, int]]:
        """Why the rules refuse ``action`` now: an English message id and its values.

        The console says it in the player's language; the exception says it in English.
        """
        if self.phase is Phase.OVER:
            return N_("the game is over"), {}
        if self.phase is Phase.MARKETING:
            return N_("in the Marketing phase you roll and move one cube [A]"), {}
        if isinstance(action, Accuse) and action.target == self.current_player:
            return N_("you cannot accuse yourself"), {}
        if isinstance(action, Accuse):
            return N_("player {player} is not a player still in the game [B]"), {
                "player": action.target
            }
        return N_("in the Tattletale phase you accuse or pass [B]"), {}

    def _move(self, p: int, candy: str) -> CandyChaserState:
        i = CANDIES.index(candy)
        end = self.destination(candy)
        prices = kit.replaced(self.prices, i, end)
        if end == GOAL:
            # [A] end: the player left of the mover accuses first; the mover is last [B].
            n = self.num_players
            order = tuple((p + k) % n for k in range(1, n + 1))
            state = attrs.evolve(
                self, prices=prices, phase=Phase.TATTLETALE, roll=None, turn=self.turn + 1
            )
            return attrs.evolve(state, to_accuse=order)._next_accuser()
        turn = self.turn + 1
        return attrs.evolve(
            self,
            prices=prices,
            turn=turn,
            current_player=(p + 1) % self.num_players,
            roll=_roll(self.config.seed, turn),
        )

    def _accuse(self, p: int, action: Accuse) -> CandyChaserState:
        correct = self.objectives[action.target] == action.candy
        loser = action.target if correct else p
        alive = tuple(a and q != loser for q, a in enumerate(self.alive))
        accusation = Accusation(p, action.target, action.candy, correct)
        state = attrs.evolve(self, alive=alive, accusations=(*self.accusations, accusation))
        if correct and sum(alive) > 1:
            return state  # [B.4] a correct accuser may accuse again or stop
        return state._next_accuser()

    def _next_accuser(self) -> CandyChaserState:
        order = self.to_accuse
        # [B] eliminated players cannot accuse; a lone survivor has nobody to accuse.
        while order and (not self.alive[order[0]] or sum(self.alive) < 2):
            order = order[1:]
        if not order:
            return attrs.evolve(self, to_accuse=(), phase=Phase.OVER, current_player=None)
        return attrs.evolve(self, current_player=order[0], to_accuse=order[1:])

    # -- views ------------------------------------------------------------------------------

    def view(self, player: int) -> CandyChaserView:
        """What ``player`` sees: their own candy; others' only for survivors once over (CC-7)."""
        kit.check_seat(player, self.num_players, ConfigurationError)
        objectives = tuple(
            c if q == player or (self.is_over and self.alive[q]) else None
            for q, c in enumerate(self.objectives)
        )
        accusations = tuple(
            a if player in (a.accuser, a.target) else attrs.evolve(a, candy=None)
            for a in self.accusations
        )
        return CandyChaserView(
            player=player,
            players=self.num_players,
            objectives=objectives,
            prices=self.prices,
            alive=self.alive,
            phase=self.phase,
            current_player=self.current_player,
            roll=self.roll,
            turn=self.turn,
            to_accuse=self.to_accuse,
            accusations=accusations,
            history=tuple(_public(self.history, accusations)),
        )

    def determinize(self, player: int, rng: random.Random) -> CandyChaserState:
        """A state ``player`` cannot tell from this one: others' candies and the seed resampled."""
        return self.view(player).determinize(rng)

    def __str__(self) -> str:
        return "\n".join(_price_lines(self.prices))


def _public(history: Sequence[Action], accusations: Sequence[Accusation]) -> list[Action | str]:
    """The history as ``player`` saw it: others' accusations without the candy."""
    seen: list[Action | str] = []
    count = 0
    for action in history:
        if isinstance(action, Accuse):
            shown = accusations[count]
            count += 1
            if shown.candy is None:
                seen.append(f"accuse {action.target} ?")
                continue
        seen.append(action)
    return seen


@attrs.frozen
class CandyChaserView:
    """One player's view; equal views mean the player cannot tell the states apart."""

    # The view repeats the state's public fields one by one on purpose: a new state field
    # reaches a player only when it is written here (hidden information stays hidden).

    player: int
    players: int
    objectives: tuple[str | None, ...]
    prices: tuple[int, ...]
    alive: tuple[bool, ...]
    phase: Phase
    current_player: int | None
    roll: int | None
    turn: int
    to_accuse: tuple[int, ...]
    accusations: tuple[Accusation, ...]
    history: tuple[Action | str, ...]

    def determinize(self, rng: random.Random) -> CandyChaserState:
        """A full state consistent with this view; hidden candies and seed drawn with ``rng``."""
        options = [
            assignment
            for assignment in itertools.permutations(CANDIES, self.players)
            if self._consistent(assignment)
        ]
        objectives = options[rng.randrange(len(options))]
        return CandyChaserState(
            config=Config(self.players, rng.getrandbits(64)),
            objectives=objectives,
            prices=self.prices,
            alive=self.alive,
            phase=self.phase,
            current_player=self.current_player,
            roll=self.roll,
            turn=self.turn,
            to_accuse=self.to_accuse,
            accusations=tuple(
                attrs.evolve(
                    a, candy=objectives[a.target] if a.correct else _wrong(objectives[a.target])
                )
                if a.candy is None
                else a
                for a in self.accusations
            ),
            history=tuple(self._history(objectives)),
        )

    def destination(self, candy: str) -> int:
        """Where ``candy``'s cube would end with the current roll (as the state's)."""
        assert self.roll is not None
        return _move_end(self.prices, CANDIES.index(candy), self.roll)

    def _consistent(self, assignment: tuple[str, ...]) -> bool:
        if any(c is not None and assignment[q] != c for q, c in enumerate(self.objectives)):
            return False
        for a in self.accusations:
            if a.candy is not None and (assignment[a.target] == a.candy) != a.correct:
                return False
        return True

    def _history(self, objectives: tuple[str, ...]) -> list[Action]:
        # Hidden candies of others' wrong accusations are unknown: any other candy will do.
        actions: list[Action] = []
        count = 0
        for entry in self.history:
            if isinstance(entry, str):
                a = self.accusations[count]
                candy = objectives[a.target] if a.correct else _wrong(objectives[a.target])
                actions.append(Accuse(a.target, candy))
                count += 1
                continue
            if isinstance(entry, Accuse):
                count += 1
            actions.append(entry)
        return actions


def _move_end(prices: Sequence[int], i: int, roll: int) -> int:
    """Where cube ``i`` ends when moved by ``roll`` ([A.3], and the G condition)."""
    start = prices[i]
    if roll < 0:
        return max(LOWEST, start + roll)
    others_high = any(p >= 3 for j, p in enumerate(prices) if j != i)
    # CC-3: without another cube on 3 or more, a move that would reach G stops on 5.
    return min(GOAL if others_high else TOP, start + roll)


def _wrong(candy: str) -> str:
    return CANDIES[(CANDIES.index(candy) + 1) % len(CANDIES)]


def _price_lines(prices: Sequence[int]) -> list[str]:
    spaces = [*range(LOWEST, TOP + 1), GOAL]
    header = "        " + " ".join(f"{'G' if s == GOAL else s:>2}" for s in spaces)
    rows = [
        f"{candy:<7} " + " ".join(" #" if s == price else " ." for s in spaces)
        for candy, price in zip(CANDIES, prices, strict=True)
    ]
    return [header, *rows]


def _roll(seed: int, turn: int) -> int:
    return kit.seeded_random(seed, "roll", turn).choice(DIE_FACES)


def new_game(players: int, seed: int = 0) -> CandyChaserState:
    """A new game for 2 to 4 players; objectives, first player and rolls drawn from ``seed``.

    >>> game = new_game(3, seed=1)
    >>> game.prices, game.phase.value
    ((0, 0, 0, 0, 0), 'marketing')
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ConfigurationError(f"Candy Chaser is for 2 to 4 players, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigurationError(f"seed must be an int, got {seed!r}")
    rng = kit.seeded_random(seed, "setup")
    objectives = tuple(rng.sample(CANDIES, players))
    first = rng.randrange(players)
    return CandyChaserState(
        config=Config(players, seed),
        objectives=objectives,
        prices=(0,) * len(CANDIES),
        alive=(True,) * players,
        phase=Phase.MARKETING,
        current_player=first,
        roll=_roll(seed, 0),
        turn=0,
        to_accuse=(),
        accusations=(),
        history=(),
    )
