"""Small pieces the candy games under ``examples/`` share, beside ``tricky_treats.protocol``.

The protocol gives them the agents, the runner, the console and the record codec; this module
gives the few lines of rules plumbing that were written once per game: the text of an action
(its word, then its fields), the seeded random source every shuffle and roll derives from, the
check of a seat number, returns shared among the winners, a tuple with one item replaced, the
"legal now" list of a refusal, a bot found by its name, a player's weighted guesses at the
hidden dealing, and text wrapped to the terminal's display columns.

Public (issue 44): the candy games are distributions of their own and build on it, as any
other game on the protocol may; the names in ``__all__`` follow the stability policy
(docs/stability.md).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import re
import textwrap
import unicodedata
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import attrs

from tricky_treats.protocol.game import Agent
from tricky_treats.protocol.players import SearchPlayer

__all__ = [
    "Dealings",
    "Habits",
    "Notation",
    "SpokenAction",
    "bot_named",
    "check_seat",
    "columns",
    "legal_now",
    "replaced",
    "seeded_random",
    "shared_returns",
    "wrap",
]

_T = TypeVar("_T")


@attrs.frozen
class SpokenAction:
    """An action written as its ``word`` then its fields in order: ``accuse 2 red``, ``pass``.

    A subclass sets ``word`` (a class variable, not a field); it overrides ``_written`` where
    a field is written otherwise than ``str()`` writes it. ``parse_action`` reads it back.
    """

    word: ClassVar[str]

    def __str__(self) -> str:
        fields = attrs.astuple(self, recurse=False)
        return " ".join([self.word, *map(self._written, fields)])

    @staticmethod
    def _written(value: object) -> str:
        return str(value)


_TOKENS = re.compile(
    r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+|[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+"
)
"""The words of a typed action: runs of wide characters apart from the rest, spaces or not
(``出牌G4小豬提籃`` is three words)."""


@attrs.frozen
class Notation:
    """A game's action notation in the console's language: written and read in its words.

    ``words`` maps each word of the notation (``move``, ``red``) to its message ids: the
    first is the word the player reads (``mover``, ``rojo`` once translated), the others
    more words the player may type for it. ``parse`` reads the English notation (the game's
    ``parse_action``); ``translate`` is the console's ``_``. Numbers and card codes pass as
    they are; the English words are always understood too.
    """

    words: Mapping[str, tuple[str, ...]]
    parse: Callable[[str], Hashable]
    translate: Callable[[str], str]

    def spell(self, action: object) -> str:
        """``action`` in the player's words: ``move red`` as ``mover rojo``."""
        return " ".join(self.word(part) for part in str(action).split())

    def word(self, part: str) -> str:
        """One word of the notation in the player's language (itself if it has none).

        Untranslated (in English), a word is the notation's own: ``bomb``, not its message
        id ``bomb basket``.
        """
        messages = self.words.get(part)
        if not messages:
            return part
        translated = self.translate(messages[0])
        return part if translated == messages[0] else translated

    def read(self, text: str) -> Any:
        """The action ``text`` names, in either language's words; None if it names none."""
        known: dict[str, str] = {}
        for english, messages in self.words.items():
            known[english.lower()] = english
            for message in messages:
                known.setdefault(self.translate(message).lower(), english)
        words = [known.get(w.lower(), w) for w in _TOKENS.findall(text)]
        try:
            return self.parse(" ".join(words))
        except ValueError:  # the games' InvalidActionError
            return None


def seeded_random(seed: int, *keys: object) -> random.Random:
    """The random source of ``seed`` for one purpose named by ``keys`` (a shuffle, a roll).

    Seeded by text, so the stream is the same in every Python process and on every platform.
    """
    return random.Random(":".join(map(str, (seed, *keys))))


def check_seat(player: object, players: int, error: type[Exception]) -> None:
    """Raise ``error`` unless ``player`` names a seat: a whole number from 0 to ``players - 1``."""
    if isinstance(player, bool) or not isinstance(player, int) or player not in range(players):
        raise error(f"no player {player!r:.40}; players are 0 to {players - 1}")


def shared_returns(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """Each seat's share of the result: the winners share 1.0; 0.0 for everybody before the end."""
    return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(players))


def replaced(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """``items`` with the one at ``index`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def legal_now(legal: Sequence[object], most: int | None = None, none: str = "nothing") -> str:
    """The legal actions as a refusal lists them: at most ``most`` of them, or ``none``."""
    shown = legal if most is None else legal[:most]
    listed = ", ".join(map(str, shown)) + (", ..." if len(shown) < len(legal) else "")
    return listed or none


MAX_ITERATIONS = 100_000
"""The most search iterations a bot's name may ask for."""


def bot_named(
    spec: str,
    plain: Mapping[str, Callable[[], Agent]],
    searching: Mapping[str, Callable[[int], Agent]],
    error: type[Exception],
) -> Agent:
    """The bot ``spec`` names, else ``error`` listing the names.

    A ``plain`` bot is named alone; a ``searching`` one as ``NAME`` or ``NAME:ITERATIONS``
    (1 to ``MAX_ITERATIONS``; ``SearchPlayer``'s default without).
    """
    name, colon, budget = spec.partition(":")
    if name in plain and not colon:
        return plain[name]()
    if name in searching and (
        not colon or (budget.isascii() and budget.isdigit() and 0 < int(budget) <= MAX_ITERATIONS)
    ):
        return searching[name](int(budget) if colon else SearchPlayer().iterations)
    names = [*plain, *(f"{n}[:ITERATIONS]" for n in searching)]
    raise error(
        f"no bot {spec!r:.40}; choose {', '.join(names)} (ITERATIONS 1 to {MAX_ITERATIONS})"
    )


Habits = Mapping[_T, Sequence[tuple[_T | None, float]]]
"""For one seat and each secret it may hold, the ways it may play (``Dealings.weigh``)."""


@attrs.frozen
class Dealings(Generic[_T]):
    """One player's weighted guesses at the hidden dealing: which secret each seat holds.

    ``weigh`` builds them from every dealing that agrees with what the player knows for
    certain and, per seat, how likely each secret makes what that seat was seen doing. A
    seat may play for its own secret, for a decoy (a secret it does not hold, to hide its
    own) or for none in particular: its *favourite* is the secret it plays for, or None, and
    ``draw_favourites`` draws one per seat as likely as what the seat did makes it.
    """

    player: int
    dealings: tuple[tuple[_T, ...], ...]
    """Every dealing (the secret of each seat) that agrees with what the player knows."""
    weights: tuple[float, ...]
    """Each dealing's probability; they sum to 1."""
    habits: tuple[Habits[_T], ...] = attrs.field(repr=False, eq=False)
    """Per seat, per secret, each favourite it may have and how likely (see ``weigh``)."""
    _cumulative: tuple[float, ...] = attrs.field(repr=False, eq=False)

    @classmethod
    def weigh(
        cls,
        player: int,
        dealings: Sequence[tuple[_T, ...]],
        habits: Sequence[Habits[_T]],
    ) -> Dealings[_T]:
        """Each dealing weighed by its seats' ``habits``.

        ``habits[seat][secret]`` lists the favourites the seat may have if it holds
        ``secret``, each with the prior chance of that favourite times how likely it makes
        what the seat did; their sum is how likely the secret makes it. The player's own seat
        is left out (they know their secret); a secret missing from a seat's mapping counts 1.
        """
        likelihoods = [{s: sum(w for _, w in options) for s, options in h.items()} for h in habits]
        raw = [
            math.prod(likelihoods[q].get(secret, 1.0) for q, secret in enumerate(d) if q != player)
            for d in dealings
        ]
        return cls._normalised(player, tuple(dealings), raw, tuple(habits))

    @classmethod
    def _normalised(
        cls,
        player: int,
        dealings: tuple[tuple[_T, ...], ...],
        raw: Sequence[float],
        habits: tuple[Habits[_T], ...],
    ) -> Dealings[_T]:
        total = sum(raw)
        weights = tuple(w / total for w in raw)
        return cls(player, dealings, weights, habits, tuple(itertools.accumulate(weights)))

    def odds(self, seat: int) -> dict[_T, float]:
        """The probability of each secret ``seat`` may hold."""
        odds: dict[_T, float] = {}
        for dealing, weight in zip(self.dealings, self.weights, strict=True):
            odds[dealing[seat]] = odds.get(dealing[seat], 0.0) + weight
        return odds

    def likely(self, least: float) -> list[tuple[int, _T]]:
        """Every (seat, secret) of another seat at least ``least`` likely."""
        seats = len(self.dealings[0])
        return [
            (seat, secret)
            for seat in range(seats)
            if seat != self.player
            for secret, chance in self.odds(seat).items()
            if chance >= least
        ]

    def given(self, seat: int, secret: _T) -> Dealings[_T]:
        """These guesses once it is known that ``seat`` holds ``secret`` (it must be possible)."""
        kept = [
            (d, w) for d, w in zip(self.dealings, self.weights, strict=True) if d[seat] == secret
        ]
        if not kept:
            raise ValueError(f"seat {seat} cannot hold {secret!r} in these dealings")
        dealings, raw = zip(*kept, strict=True)
        return self._normalised(self.player, dealings, raw, self.habits)

    def draw(self, rng: random.Random) -> tuple[_T, ...]:
        """A dealing drawn with ``rng`` by the weights."""
        at = bisect.bisect_right(self._cumulative, rng.random() * self._cumulative[-1])
        return self.dealings[min(at, len(self.dealings) - 1)]

    def draw_favourites(self, dealing: tuple[_T, ...], rng: random.Random) -> tuple[_T | None, ...]:
        """Per seat, the secret it plays for in ``dealing``, drawn by its habits.

        The player's own seat, and a seat without habits, play for their own secret.
        """
        favourites: list[_T | None] = []
        for seat, secret in enumerate(dealing):
            options = self.habits[seat].get(secret) if seat != self.player else None
            if not options:
                favourites.append(secret)
                continue
            total = sum(w for _, w in options)
            pick = rng.random() * total
            chosen = options[-1][0]  # the last one, should rounding leave ``pick`` over
            for favourite, weight in options:
                pick -= weight
                if pick < 0:
                    chosen = favourite
                    break
            favourites.append(chosen)
        return tuple(favourites)


def columns(text: str) -> int:
    """The terminal columns ``text`` takes: East Asian wide and full-width characters take 2."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


_PIECES = re.compile(r" +|[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+|\S")
"""A line's pieces: spaces, a run of narrow characters (a word), or one wide character."""
_NO_LINE_START = frozenset("，。、；：！？）」』】》〉,.;:!?)")  # noqa: RUF001 - the wide ones
"""Punctuation that stays at the end of a line rather than begin the next (kinsoku)."""


def wrap(text: str, width: int = 80, subsequent_indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` display columns (``columns``), like ``textwrap``.

    Text of narrow characters only is wrapped by ``textwrap`` exactly as before (no hyphen
    breaks); text with wide characters (Chinese, which has no spaces between words) may break
    between any two of them, but not before closing punctuation.
    """
    if columns(text) == len(text):
        return textwrap.wrap(
            text, width, subsequent_indent=subsequent_indent, break_on_hyphens=False
        )
    lines: list[str] = []
    line: list[str] = []  # the pieces of the line being filled
    for piece in _PIECES.findall(" ".join(text.split("\n"))):
        if "".join(line).strip() and columns("".join([*line, piece])) > width:
            carried = []
            if piece in _NO_LINE_START and len(line) > 1:
                carried.append(line.pop())  # the punctuation goes down with what it closes
            lines.append("".join(line).rstrip())
            line = [subsequent_indent, *carried]
            if piece.isspace():
                continue
        line.append(piece)
    if "".join(line).strip():
        lines.append("".join(line).rstrip())
    return lines
