"""A game host for servers: one authoritative game, seats with secret credentials, bots.

``Table`` is what a server keeps per game, whatever carries its messages (WebSockets, HTTP,
a chat bot). It speaks JSON text: a client sends a message, the table answers with a tuple of
``Outgoing`` messages, each saying who it is for (``to``): a seat number, ``SPECTATORS``, or
``SENDER`` (the client that sent the message, and only it).

Every human seat gets a secret credential (``secrets.token_urlsafe``) that only its player
knows; bots fill the other seats and move as soon as it is their turn. A *hosted* seat is
played by the host itself (a program it runs, a player on another channel): the table never
runs it, and the host moves for it with ``play_for``, as it may for a human seat whose player
is away or out of time (the move then says which bot played it, and why). The messages:

- a client connects with ``connect(credential)`` (None for a spectator) and gets the current
  state of the game for its seat, with every move so far and its events in ``moves`` (all of
  them are new to a client that just connected): this is also how a player reconnects;
- a move is ``{"type": "move", "credential": "...", "action": "t0k2"}``, the action in text
  notation or as its integer (``ActionSpace``); ``"seat"`` may be given too and must match,
  and so may ``"moves_played"`` (from the last update): a move sent for a state the game has
  left (another message came first) is then refused as ``stale``;
- after a move, every human seat gets an ``update`` with its player record
  (``tt.dumps(game, player=seat)``), the moves since the last message with their events
  (``event_to_json``) and, for a move the host played for a seat, ``played_by`` (its bot,
  why, and a line of words), and its legal actions; spectators get the public view;
- a message from the wrong seat or with a wrong credential, out of turn, malformed, too
  large or naming an illegal action gets an ``error`` for the sender alone, and the game is
  unchanged.

No message holds what its reader may not see (R16): not another seat's secret tile before the
end, not the deck order, not the seed, not a credential. ``save()`` writes the table (the game
record and the seats; ``hash_credentials=True`` keeps only a SHA-256 of each credential) and
``Table.resume()`` reads it back. ``handle(..., commit=store)`` lets a server store each move
before anyone hears of it, and undoes the move when storing fails; ``follow(actions)`` plays
the moves another server process stored, each checked by the rules, and tells the clients.

One concern, kept whole though over 600 lines: ``Table`` is one state machine, whose message
handlers share its seats, game and bots.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from tricky_treats._json import StrictJSONError, strict_loads
from tricky_treats.actions import Action, ActionSpace, parse_action
from tricky_treats.agents import Agent, make_agent
from tricky_treats.dealing import _first_state, new_game
from tricky_treats.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidActionError,
    TrickyTreatsError,
    brief,
)
from tricky_treats.event_records import EVENT_FORMAT_VERSION, event_to_json
from tricky_treats.events import Event, describe_event
from tricky_treats.model import GameState
from tricky_treats.serialization import RecordError, dumps, dumps_view, loads
from tricky_treats.serialization.shapes import MAX_RECORD_BYTES
from tricky_treats.views import PlayerView

__all__ = [
    "PROTOCOL_VERSION",
    "SENDER",
    "SPECTATORS",
    "TABLE_FORMAT",
    "TABLE_FORMAT_VERSION",
    "Outgoing",
    "PlayedBy",
    "Table",
]

SENDER: Final = "sender"
"""``Outgoing.to`` for a message meant only for the client that sent the incoming one."""
SPECTATORS: Final = "spectators"
"""``Outgoing.to`` for a message meant for every spectator."""

TABLE_FORMAT = "tricky-treats-table"
TABLE_FORMAT_VERSION = 2
"""The version of ``Table.save()``: 2 added hosted seats and ``played_by``; 1 still resumes."""
PROTOCOL_VERSION = 2
"""The version of the messages' shape (``protocol_version`` in every update): 2 added the
hosted seats to ``bots`` and ``played_by`` to the moves a host played for a seat."""

_DEFAULT_MAX_MESSAGE_BYTES = 1024
_MOST_MESSAGE_BYTES = 64 * 1024
"""The largest ``max_message_bytes``: a move is a few hundred bytes, its credential included."""


class Outgoing:
    """One message from the table: who it is for (``to``) and its JSON ``text``.

    ``to`` is a seat number, ``SPECTATORS`` or ``SENDER``. The text is written when first
    read, so a transport that has nobody to send a message to (no spectator watching, a seat
    not connected) does not pay for it.
    """

    __slots__ = ("_render", "_text", "to")

    def __init__(self, to: int | str, text: str | Callable[[], str]) -> None:
        self.to = to
        self._text = text if isinstance(text, str) else None
        self._render = None if isinstance(text, str) else text

    @property
    def text(self) -> str:
        """The message as JSON text."""
        if self._text is None:
            assert self._render is not None
            self._text = self._render()
            self._render = None
        return self._text

    @property
    def message(self) -> dict[str, Any]:
        """The message as a dict (parsed from ``text``)."""
        value: dict[str, Any] = json.loads(self.text)
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outgoing):
            return NotImplemented
        return (self.to, self.text) == (other.to, other.text)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Outgoing(to={self.to!r}, text={self.text[:60]!r}...)"


def _short_text(limit: int, *, empty: bool = False) -> Callable[[Any, Any, Any], None]:
    def check(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
        if not isinstance(value, str) or len(value) > limit or (not empty and not value):
            what = "a string" if empty else "a non-empty string"
            raise ConfigurationError(
                f"PlayedBy.{attribute.name} must be {what} of at most {limit} characters, "
                f"got {brief(value)}"
            )

    return check


@attrs.frozen
class PlayedBy:
    """Who played a move for a seat that did not make it itself, and why.

    A host that moves for a seat (``Table.play_for``: its player is away or out of time, or
    a hosted program failed) says so; every client sees it on that move (``played_by``).
    """

    bot: str = attrs.field(validator=_short_text(64))
    """The bot that played, by the name the table shows (``greedy``, a program's name)."""
    reason: str = attrs.field(validator=_short_text(32))
    """Why, as a short code of the host's (the web app's: ``away``, ``time``, ``failed``)."""
    detail: str = attrs.field(default="", validator=_short_text(200, empty=True))
    """A line of words for the log, if any (why a hosted program's move failed)."""

    def to_json(self) -> dict[str, str]:
        """The JSON object of a move's ``played_by``."""
        return {"bot": self.bot, "reason": self.reason, "detail": self.detail}

    @classmethod
    def from_json(cls, value: object) -> PlayedBy:
        """A ``PlayedBy`` from its JSON object; ``ConfigurationError`` for another shape."""
        if not isinstance(value, dict) or not {"bot", "reason"} <= set(value) <= {
            "bot",
            "reason",
            "detail",
        }:
            raise ConfigurationError(
                f"played_by is an object with bot, reason and detail, got {brief(value)}"
            )
        return cls(value["bot"], value["reason"], value.get("detail", ""))


@attrs.frozen
class _Move:
    player: int
    action: Action
    events: tuple[Event, ...]
    played_by: PlayedBy | None = None


class _RefusalError(Exception):
    """An incoming message the table refuses; ``code`` is stable, the text says why."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def _hash_credential(credential: str) -> str:
    # Credentials carry 144 random bits, so a plain SHA-256 cannot be searched backwards.
    return hashlib.sha256(credential.encode("utf-8", "replace")).hexdigest()


def _is_sha256(text: object) -> bool:
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def _json_brief(value: object) -> str:
    """``value`` as the JSON a client sent, cut as ``brief`` cuts: no echo of a long list."""
    text = json.dumps(value)
    return text if len(text) <= 60 else f"{text[:40]}...({len(text)} characters)"


def _error(code: str, text: str) -> Outgoing:
    return Outgoing(SENDER, json.dumps({"type": "error", "code": code, "error": text}))


class Table:
    """One game hosted for several clients: seats with credentials, bots and spectators.

    ``bots`` maps seats to agent names (``random``, ``greedy``, ``search:N``); ``hosted``
    maps seats the host plays itself (with ``play_for``) to the names the clients see; every
    other seat is a human seat with a credential. The table never runs a hosted seat: a name
    in it is only a name. Bots draw their randomness from the game's seed and the move
    number, so a table plays the same way after ``resume()``.
    ``max_message_bytes`` (64 to 65,536) bounds an incoming message. ``credential_hashes``
    (instead of ``credentials``) seats a table whose credentials are known only by their
    SHA-256, as ``save(hash_credentials=True)`` keeps them: it checks a credential but cannot
    tell one.

    >>> import tricky_treats as tt
    >>> table = Table.new(["Ann", "Bot"], seed=7, bots={1: "greedy"})
    >>> hello = table.connect(table.credential(0))
    >>> hello.to, hello.message["type"]
    (0, 'update')
    >>> move = {"credential": table.credential(0), "action": "t0k0"}
    >>> [out.to for out in table.handle(json.dumps(move))]
    [0, 'spectators']
    >>> table.handle(json.dumps({"credential": "guess", "action": "pass"}))[0].message["code"]
    'bad-credential'
    """

    def __init__(
        self,
        game: GameState,
        *,
        bots: Mapping[int, str] | None = None,
        hosted: Mapping[int, str] | None = None,
        credentials: Sequence[str | None] | None = None,
        credential_hashes: Sequence[str | None] | None = None,
        max_message_bytes: int = _DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        bots = dict(bots or {})
        hosted = dict(hosted or {})
        self._agents: dict[int, Agent] = {}
        for seat, name in bots.items():
            game.check_player(seat)
            if not isinstance(name, str):
                raise ConfigurationError(f"bots must be named by a string, got {brief(name)}")
            self._agents[seat] = make_agent(name)
        for seat, name in hosted.items():
            game.check_player(seat)
            if seat in bots:
                raise ConfigurationError(f"seat {seat} is a bot's; it cannot be hosted too")
            if not isinstance(name, str) or not 0 < len(name) <= 64:
                raise ConfigurationError(
                    f"a hosted seat is named by a string of 1 to 64 characters, got {brief(name)}"
                )
        self._bots = bots
        self._hosted = hosted
        others = {**bots, **hosted}
        seats = range(len(game.players))
        if credential_hashes is not None:
            if credentials is not None:
                raise ConfigurationError("give credentials or credential_hashes, not both")
            self._init_hashes(seats, others, credential_hashes)
        else:
            self._init_credentials(seats, others, credentials)
        if type(max_message_bytes) is not int or not (
            64 <= max_message_bytes <= _MOST_MESSAGE_BYTES
        ):
            raise ConfigurationError(
                f"max_message_bytes must be a whole number from 64 to {_MOST_MESSAGE_BYTES:,}, "
                f"got {brief(max_message_bytes)}"
            )
        self._max_bytes = max_message_bytes
        self._game = game
        self._played_by: dict[int, PlayedBy] = {}
        self._history_cache: tuple[GameState, str] | None = None
        self._play_bots()

    def _init_credentials(
        self, seats: range, bots: Mapping[int, str], credentials: Sequence[str | None] | None
    ) -> None:
        if credentials is None:
            credentials = [None if s in bots else secrets.token_urlsafe(18) for s in seats]
        if len(credentials) != len(seats):
            raise ConfigurationError(f"need {len(seats)} credentials, got {len(credentials)}")
        for seat, credential in zip(seats, credentials, strict=True):
            if (credential is None) != (seat in bots):
                raise ConfigurationError(
                    f"seat {seat}: a human seat needs a credential and a bot or hosted seat "
                    "has none"
                )
            if credential is not None and (not isinstance(credential, str) or len(credential) < 16):
                raise ConfigurationError(f"seat {seat}: a credential is a string of 16+ characters")
        if len({c for c in credentials if c is not None}) < len(seats) - len(bots):
            raise ConfigurationError("two seats share a credential")
        self._credentials: tuple[str | None, ...] = tuple(credentials)
        self._hashes = tuple(None if c is None else _hash_credential(c) for c in credentials)

    def _init_hashes(
        self, seats: range, bots: Mapping[int, str], hashes: Sequence[str | None]
    ) -> None:
        if len(hashes) != len(seats):
            raise ConfigurationError(f"need {len(seats)} credential hashes, got {len(hashes)}")
        for seat, digest in zip(seats, hashes, strict=True):
            if (digest is None) != (seat in bots):
                raise ConfigurationError(
                    f"seat {seat}: a human seat needs a credential hash and a bot or hosted "
                    "seat has none"
                )
            if digest is not None and not _is_sha256(digest):
                raise ConfigurationError(
                    f"seat {seat}: a credential hash is 64 lowercase hexadecimal digits"
                )
        if len({h for h in hashes if h is not None}) < len(seats) - len(bots):
            raise ConfigurationError("two seats share a credential")
        self._credentials = tuple(None for _ in seats)
        self._hashes = tuple(hashes)

    @classmethod
    def new(
        cls,
        players: int | Sequence[str] = 2,
        seed: int | None = None,
        *,
        bots: Mapping[int, str] | None = None,
        hosted: Mapping[int, str] | None = None,
        variants: Iterable[str] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        any_mean_house: bool = False,
        refresh_ends_turn: bool = False,
        first_player: int = 0,
        max_message_bytes: int = _DEFAULT_MAX_MESSAGE_BYTES,
    ) -> Table:
        """Deal a new game (as ``tt.new_game``) and seat it at a new table."""
        game = new_game(
            players,
            seed,
            first_player=first_player,
            any_mean_house=any_mean_house,
            refresh_ends_turn=refresh_ends_turn,
            variants=variants,
            variant_options=variant_options,
        )
        return cls(game, bots=bots, hosted=hosted, max_message_bytes=max_message_bytes)

    # -- reading --------------------------------------------------------------------------------

    @property
    def game(self) -> GameState:
        """The authoritative game. It holds every secret: never send it to a client."""
        return self._game

    @property
    def bots(self) -> Mapping[int, str]:
        """The bot seats and their agent names."""
        return dict(self._bots)

    @property
    def hosted(self) -> Mapping[int, str]:
        """The seats the host plays itself (``play_for``), and the names clients see."""
        return dict(self._hosted)

    @property
    def played_by(self) -> Mapping[int, PlayedBy]:
        """Who played the moves the host made for a seat, by their index in the history."""
        return dict(self._played_by)

    @property
    def human_seats(self) -> tuple[int, ...]:
        """The seats played by people, each with a credential."""
        return tuple(s for s, h in enumerate(self._hashes) if h is not None)

    def credential(self, seat: int) -> str:
        """The secret credential of human ``seat``: give it to that player only."""
        seat = self._game.check_player(seat)
        credential = self._credentials[seat]
        if self._hashes[seat] is None:
            raise ConfigurationError(f"seat {seat} is played by a bot and has no credential")
        if credential is None:
            raise ConfigurationError(
                f"seat {seat}: this table keeps only a hash of its credential; the player's "
                "link holds it"
            )
        return credential

    def seat_of(self, credential: object) -> int | None:
        """The seat whose credential is ``credential``, or None."""
        if not isinstance(credential, str):
            return None
        presented = _hash_credential(credential)
        found = None
        for seat, digest in enumerate(self._hashes):
            # Compare every hash in constant time, so timing tells nothing.
            if digest is not None and secrets.compare_digest(digest, presented):
                found = seat
        return found

    # -- messages --------------------------------------------------------------------------------

    def connect(self, credential: str | None) -> Outgoing:
        """Greet a client: a seat's (re)connection with its credential, or a spectator's.

        The answer is the current state of the game as that client may see it, addressed to
        the seat (or ``SPECTATORS``), with every move of the game so far in ``moves`` (events
        are public, R16), so that a new tab or a new spectator can show the whole game's log;
        a wrong credential gets an error for ``SENDER``.
        """
        if credential is None:
            return Outgoing(SPECTATORS, self._spectator_update(self._game, self._all_moves()))
        seat = self.seat_of(credential)
        if seat is None:
            return _error("bad-credential", "no seat has this credential; check your link")
        return Outgoing(seat, self._seat_update(self._game, seat, self._all_moves()))

    def _all_moves(self) -> str:
        """Every move so far with its events, replayed from the game's first state."""
        game = self._game
        if self._history_cache is not None and self._history_cache[0] is game:
            return self._history_cache[1]
        state = _first_state(game.setup)
        moves = []
        for index, action in enumerate(game.history):
            player = state.current_player
            assert player is not None  # a recorded action was played by someone
            state, events = state.apply_with_events(action)
            moves.append(_Move(player, action, events, self._played_by.get(index)))
        text = self._moves_json(moves)
        self._history_cache = (game, text)
        return text

    def handle(
        self,
        message: str | bytes,
        *,
        sender: int | str | None = None,
        commit: Callable[[Table], object] | None = None,
    ) -> tuple[Outgoing, ...]:
        """Answer one incoming message: the updates of a legal move, or an error for ``SENDER``.

        ``sender`` is the seat (or ``SPECTATORS``) the transport knows the client as, if it
        does: a move with another seat's credential is then refused. The game changes only
        when the answer is not an error.

        ``commit``, if given, is called with the table after the move and the bots' moves
        that follow it, before any answer is written: a server stores the table there, so
        that no client hears of a move that is not stored. If it raises an ``Exception``, the
        moves are undone and the sender gets a ``not-saved`` error.
        """
        before = self._game
        try:
            seat, action = self._read_move(message, sender)
            moves = [self._apply(seat, action)]
        except _RefusalError as refusal:
            return (_error(refusal.code, str(refusal)),)
        moves += self._play_bots()
        if commit is not None:
            try:
                commit(self)
            except Exception:  # whatever the store raises, the move must not stand
                self._game = before
                return (_error("not-saved", "the server could not store this move; try again"),)
        return self._updates(moves)

    def play_for(
        self,
        seat: int,
        action: Action | str,
        *,
        played_by: PlayedBy | None = None,
        commit: Callable[[Table], object] | None = None,
    ) -> tuple[Outgoing, ...]:
        """The host plays ``action`` for ``seat``: a hosted seat, or a human seat it fills in.

        No credential is asked: this is the host's own move, for a seat it plays (a program
        it runs) or whose player is away or out of time. ``played_by`` says which bot played
        it and why, and every client sees it on the move (``played_by``); a hosted seat's own
        program needs none. The bots that follow play, as after ``handle``, and ``commit``
        is called as there; if it raises, the moves are undone and ``not-saved`` is the
        answer (for ``SENDER``: the host).

        Raises ``ConfigurationError`` for a bot's seat (the table plays those),
        ``IllegalActionError`` if it is not ``seat``'s turn or the rules forbid the action,
        and ``InvalidActionError`` for text that is no action; the table is then unchanged.
        """
        seat = self._game.check_player(seat)
        if seat in self._bots:
            raise ConfigurationError(
                f"seat {seat} is the {self._bots[seat]} bot's: it plays itself"
            )
        if self._game.current_player != seat:
            raise IllegalActionError(
                f"it is not seat {seat}'s turn"
                + ("" if self._game.current_player is not None else ": the game is over")
            )
        if isinstance(action, str):
            action = parse_action(action)
        before = self._game
        index = len(before.history)
        self._game, events = before.apply_with_events(action)  # raises for an illegal one
        moves = [_Move(seat, action, events, played_by)]
        if played_by is not None:
            self._played_by[index] = played_by
        moves += self._play_bots()
        if commit is not None:
            try:
                commit(self)
            except Exception:  # whatever the store raises, the move must not stand
                self._game = before
                self._played_by.pop(index, None)
                return (_error("not-saved", "the server could not store this move; try again"),)
        return self._updates(moves)

    def updates_since(self, earlier: GameState) -> tuple[Outgoing, ...]:
        """The updates that bring clients who last saw ``earlier`` to this table's game.

        A server with several processes uses it when another process moved the game: the
        moves since ``earlier`` are played again from it to tell their events. If ``earlier``
        is not an earlier state of this game, the updates carry the current state and no moves.
        """
        history = self._game.history
        moves: list[_Move] = []
        game = earlier
        if game.config == self._game.config and history[: len(game.history)] == game.history:
            for index in range(len(game.history), len(history)):
                seat = game.current_player
                assert seat is not None  # a game with moves after it is not over
                game, events = game.apply_with_events(history[index])
                moves.append(_Move(seat, history[index], events, self._played_by.get(index)))
        return self._updates(moves if game == self._game else [])

    def follow(
        self,
        actions: Iterable[Action | str],
        *,
        played_by: Mapping[int, PlayedBy] | None = None,
    ) -> tuple[Outgoing, ...]:
        """Play moves that another server process accepted and stored: the updates they make.

        A server with several processes uses it when another process moved the game: the
        actions (``Action`` values or their notation) are the ones stored after this table's
        game, bots' moves included, and each is checked as any move is, by ``apply``.
        ``played_by`` maps the position of an action among ``actions`` to who played it, for
        those a host played for their seat (``play_for``). If one is not legal here (the
        store is damaged, or this table is not the state they follow), the table is unchanged
        and ``IllegalActionError`` or ``InvalidActionError`` says why. The updates' texts are
        written when first read, as ever.
        """
        game = self._game
        first = len(game.history)
        played_by = dict(played_by or {})
        moves: list[_Move] = []
        for item in actions:
            action = parse_action(item) if isinstance(item, str) else item
            seat = game.current_player
            if seat is None:
                raise IllegalActionError(f"the game is over: no more moves ({action} was stored)")
            game, events = game.apply_with_events(action)
            moves.append(_Move(seat, action, events, played_by.get(len(moves))))
        self._game = game
        for offset, by in played_by.items():
            if 0 <= offset < len(moves):
                self._played_by[first + offset] = by
        return self._updates(moves)

    def _updates(self, moves: Sequence[_Move]) -> tuple[Outgoing, ...]:
        game = self._game
        # Written once, when the first client's update is: a table followed by a server
        # with no socket for it (or loading a game) never writes the moves' texts.
        moves_text = functools.cache(functools.partial(self._moves_json, tuple(moves)))
        out = [
            Outgoing(seat, functools.partial(self._seat_update, game, seat, moves_text))
            for seat in self.human_seats
        ]
        spectators = functools.partial(self._spectator_update, game, moves_text)
        out.append(Outgoing(SPECTATORS, spectators))
        return tuple(out)

    def _read_move(self, message: str | bytes, sender: int | str | None) -> tuple[int, Action]:
        encoded = message.encode("utf-8", "surrogatepass") if isinstance(message, str) else message
        size = len(encoded)
        if size > self._max_bytes:
            raise _RefusalError(
                "too-large", f"message of {size} bytes; messages are at most {self._max_bytes}"
            )
        try:
            document = json.loads(message)
        except (ValueError, RecursionError):
            # ValueError also covers integers past Python's digit limit; RecursionError, JSON
            # nested deeper than the parser goes: both are malformed messages, not crashes.
            raise _RefusalError("malformed", "not JSON: send a JSON object") from None
        if not isinstance(document, dict):
            raise _RefusalError("malformed", "expected a JSON object")
        unknown = sorted(set(document) - {"type", "seat", "credential", "action", "moves_played"})
        if unknown:
            more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
            raise _RefusalError(
                "malformed",
                f"unknown key {brief(unknown[0])}{more}: a move has credential, action",
            )
        if document.get("type", "move") != "move":
            raise _RefusalError("malformed", f"unknown message type {brief(document.get('type'))}")
        seat = self.seat_of(document.get("credential"))
        if seat is None:
            raise _RefusalError("bad-credential", "no seat has this credential; check your link")
        claimed = document.get("seat", seat)
        if claimed != seat or (sender is not None and sender != seat):
            raise _RefusalError("wrong-seat", "this credential is not the credential of your seat")
        if self._game.is_over:
            raise _RefusalError("game-over", "the game is over; no more moves")
        if "moves_played" in document:
            seen = document["moves_played"]
            if type(seen) is not int:
                raise _RefusalError("malformed", "moves_played must be an integer")
            played = len(self._game.history)
            if seen != played:
                raise _RefusalError(
                    "stale",
                    f"this move was meant for the game after {brief(seen)} moves, but {played} "
                    "have been played: another message came first; look at the update",
                )
        if self._game.current_player != seat:
            raise _RefusalError(
                "not-your-turn",
                f"it is {self._game.config.players[self._game.current_player or 0]}'s turn",
            )
        if "action" not in document:
            raise _RefusalError("malformed", "a move needs an action: notation or integer")
        raw = document["action"]
        try:
            if isinstance(raw, str):
                action = parse_action(raw)
            elif isinstance(raw, int) and not isinstance(raw, bool):
                action = self._game.action_space.decode(raw)
            else:
                raise InvalidActionError(
                    f"action must be notation (like 't0k2') or an integer, got {_json_brief(raw)}"
                )
        except InvalidActionError as exc:
            raise _RefusalError("invalid-action", str(exc)) from None
        return seat, action

    def _apply(self, seat: int, action: Action) -> _Move:
        try:
            self._game, events = self._game.apply_with_events(action)
        except IllegalActionError as exc:
            raise _RefusalError("illegal-action", str(exc)) from None
        except TrickyTreatsError as exc:
            raise _RefusalError("invalid-action", str(exc)) from None
        return _Move(seat, action, events)

    def _play_bots(self) -> list[_Move]:
        moves = []
        game = self._game
        while game.current_player in self._agents:
            seat = game.current_player
            # A fresh generator per move, from the seed and the move number: resume-safe.
            rng = random.Random(f"tricky-treats table bots {game.config.seed} {game.turn}")
            action = self._agents[seat].choose(game.view(seat), game.legal_actions(), rng)
            game, events = game.apply_with_events(action)
            moves.append(_Move(seat, action, events))
        self._game = game
        return moves

    # -- what each client sees -----------------------------------------------------------------

    def _moves_json(self, moves: Sequence[_Move]) -> str:
        names = self._game.config.players
        return json.dumps(
            [
                {
                    "player": move.player,
                    "action": str(move.action),
                    "events": [event_to_json(e) for e in move.events],
                    "text": [describe_event(e, names) for e in move.events],
                }
                | ({} if move.played_by is None else {"played_by": move.played_by.to_json()})
                for move in moves
            ],
            ensure_ascii=False,
        )

    def _header(
        self, game: GameState, seat: int | None, moves_text: str | Callable[[], str]
    ) -> str:
        head = {
            "type": "update",
            "protocol_version": PROTOCOL_VERSION,
            "event_format_version": EVENT_FORMAT_VERSION,
            "seat": seat,
            "players": list(game.config.players),
            "bots": {str(s): name for s, name in sorted((self._bots | self._hosted).items())},
            "current_player": game.current_player,
            "moves_played": len(game.history),
            "over": game.is_over,
            "your_turn": seat is not None and game.current_player == seat,
            "winners": list(game.winners()),
        }
        text = json.dumps(head, ensure_ascii=False)
        moves = moves_text if isinstance(moves_text, str) else moves_text()
        return f'{text[:-1]}, "moves": {moves}'

    def _seat_update(self, game: GameState, seat: int, moves_text: str | Callable[[], str]) -> str:
        if game.current_player == seat:
            texts = _legal_texts(game.action_space)
            legal = "[" + ", ".join([texts[a] for a in game.legal_actions()]) + "]"
        else:
            legal = "[]"
        record = dumps(game, player=seat)
        return (
            f'{self._header(game, seat, moves_text)}, "legal_actions": {legal}, '
            f'"record": {record}}}'
        )

    def _spectator_update(self, game: GameState, moves_text: str | Callable[[], str]) -> str:
        view = json.loads(dumps_view(game, _public_view(game)))["view"]
        view["player"] = None
        view_text = json.dumps(view, ensure_ascii=False)
        return f'{self._header(game, None, moves_text)}, "view": {view_text}}}'

    def public_view(self) -> PlayerView:
        """What everyone may see: a ``PlayerView`` with no secret tile of anyone before the end.

        Its ``player`` is 0 and its ``legal_actions`` empty; spectators get it with ``player``
        set to null. It is built from the players' views: seat p's sheet and secret tile are
        shown as seat ``p + 1`` sees them.
        """
        return _public_view(self._game)

    # -- saving ----------------------------------------------------------------------------------

    def save(self, *, hash_credentials: bool = False) -> str:
        """The table as JSON text: the game record (``tt.dumps``), the seats and the bots.

        It holds every secret (the seed, the deck, the credentials): keep it on the server.
        With ``hash_credentials`` each seat holds ``credential_sha256`` instead of its
        credential: a table resumed from it checks credentials but cannot tell them. A table
        that knows only the hashes always saves them. Each seat says whether it is hosted;
        ``played_by`` lists the moves the host played for a seat.
        """
        hashed = hash_credentials or any(
            c is None and h is not None
            for c, h in zip(self._credentials, self._hashes, strict=True)
        )
        key = "credential_sha256" if hashed else "credential"
        seats = [
            {
                key: digest if hashed else credential,
                "bot": self._bots.get(seat, self._hosted.get(seat)),
                "hosted": seat in self._hosted,
            }
            for seat, (credential, digest) in enumerate(
                zip(self._credentials, self._hashes, strict=True)
            )
        ]
        document = {
            "format": TABLE_FORMAT,
            "format_version": TABLE_FORMAT_VERSION,
            "seats": seats,
            "max_message_bytes": self._max_bytes,
            "played_by": [
                {"move": index, **by.to_json()} for index, by in sorted(self._played_by.items())
            ],
            "record": json.loads(dumps(self._game)),
        }
        return json.dumps(document, ensure_ascii=False)

    @classmethod
    def resume(cls, text: str | bytes) -> Table:
        """A table saved by ``save()``: same game, seats, credentials and bots.

        Reads every ``format_version`` up to ``TABLE_FORMAT_VERSION`` (1 had no hosted seats
        and no ``played_by``). Raises ``RecordError`` for a malformed save (the game record is
        checked by ``tt.loads``): text that is not strict JSON, larger than a game record may
        be (``MAX_RECORD_BYTES``) and 64 KiB for the seats, or with a key ``save()`` does not
        write.
        """
        # Strict and bounded like a record (tt.loads), before any work grows with the text: a
        # save nested 100,000 deep, or of 48 MB, is refused at once.
        try:
            document = strict_loads(text, max_bytes=_MAX_TABLE_BYTES)
        except StrictJSONError as exc:
            raise RecordError(f"not a saved table: {exc}") from None
        if not isinstance(document, dict) or document.get("format") != TABLE_FORMAT:
            raise RecordError(f"$.format: expected {TABLE_FORMAT!r}")
        version = document.get("format_version")
        if version not in (1, TABLE_FORMAT_VERSION):
            raise RecordError(f"$.format_version: expected 1 to {TABLE_FORMAT_VERSION}")
        keys = _TABLE_KEYS if version == TABLE_FORMAT_VERSION else _TABLE_KEYS - {"played_by"}
        unknown = sorted(set(document) - keys)
        if unknown:
            raise RecordError(
                f"$: unknown key {brief(unknown[0])} (a saved table holds "
                f"{', '.join(sorted(keys))})"
            )
        seats = document.get("seats")
        seat_keys = {"bot"} if version == 1 else {"bot", "hosted"}
        plain = isinstance(seats, list) and all(
            isinstance(s, dict) and set(s) == {"credential", *seat_keys} for s in seats
        )
        hashed = isinstance(seats, list) and all(
            isinstance(s, dict) and set(s) == {"credential_sha256", *seat_keys} for s in seats
        )
        if not isinstance(seats, list) or not (plain or hashed):
            what = "bot" if version == 1 else "bot, hosted"
            raise RecordError(
                f"$.seats: expected a list of {{credential, {what}}} or "
                f"{{credential_sha256, {what}}} objects"
            )
        if any(s.get("hosted", False) not in (True, False) for s in seats):
            raise RecordError("$.seats: hosted is true or false")
        # Written again in the layout tt.dumps uses, an intact record takes the quick check.
        game = loads(
            json.dumps(
                document.get("record"), sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
        )
        max_bytes = document.get("max_message_bytes")
        if type(max_bytes) is not int or not 64 <= max_bytes <= _MOST_MESSAGE_BYTES:
            raise RecordError(
                f"$.max_message_bytes: expected a whole number from 64 to {_MOST_MESSAGE_BYTES:,}"
            )
        named = {s: seat for s, seat in enumerate(seats) if seat["bot"] is not None}
        bots = {s: seat["bot"] for s, seat in named.items() if not seat.get("hosted")}
        hosted = {s: seat["bot"] for s, seat in named.items() if seat.get("hosted")}
        played_by = _read_played_by(document.get("played_by", []), len(game.history))
        try:
            if plain:
                table = cls(
                    game,
                    bots=bots,
                    hosted=hosted,
                    credentials=[seat["credential"] for seat in seats],
                    max_message_bytes=max_bytes,
                )
            else:
                table = cls(
                    game,
                    bots=bots,
                    hosted=hosted,
                    credential_hashes=[seat["credential_sha256"] for seat in seats],
                    max_message_bytes=max_bytes,
                )
        except TrickyTreatsError as exc:
            raise RecordError(f"$.seats: {exc}") from None
        table._played_by = played_by
        return table


def _read_played_by(value: object, moves: int) -> dict[int, PlayedBy]:
    """The ``played_by`` list of a save, by move index; ``RecordError`` if it is malformed."""
    if not isinstance(value, list):
        raise RecordError("$.played_by: expected a list")
    found: dict[int, PlayedBy] = {}
    for i, entry in enumerate(value):
        where = f"$.played_by[{i}]"
        if not isinstance(entry, dict) or type(entry.get("move")) is not int:
            raise RecordError(f"{where}: expected {{move, bot, reason, detail}}")
        index = entry["move"]
        if not 0 <= index < moves or index in found:
            raise RecordError(f"{where}.move: no move {index} of {moves}, or given twice")
        try:
            found[index] = PlayedBy.from_json({k: v for k, v in entry.items() if k != "move"})
        except ConfigurationError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return found


@functools.cache
def _legal_texts(space: ActionSpace) -> dict[Action, str]:
    """Each action of ``space`` as an update lists it: written once per action space."""
    return {a: json.dumps({"action": str(a), "code": space.encode(a)}) for a in space.actions}


_MAX_TABLE_BYTES = MAX_RECORD_BYTES + 64 * 1024
"""The largest save ``Table.resume`` reads: a game record's limit, and room for the seats."""

_TABLE_KEYS = frozenset(
    {"format", "format_version", "seats", "max_message_bytes", "played_by", "record"}
)


def _public_view(game: GameState) -> PlayerView:
    n = len(game.players)
    views = [game.view(seat) for seat in range(n)]
    others = [views[(p + 1) % n] for p in range(n)]
    unseen = {t.id: t for t in views[0].unseen_tiles} | {t.id: t for t in views[1].unseen_tiles}
    return attrs.evolve(
        views[0],
        secret_tiles=tuple(others[p].secret_tiles[p] for p in range(n)),
        scores=tuple(others[p].scores[p] for p in range(n)),
        unseen_tiles=tuple(unseen[k] for k in sorted(unseen)),
        legal_actions=(),
    )
