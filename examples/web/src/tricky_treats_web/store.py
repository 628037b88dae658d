"""Where the web app keeps its tables so that games survive a restart, a crash, or many processes.

``TableStore`` is the interface the app needs: ``save`` a new game or a move (and return only
once it is durable), ``load`` one game by id, ``moves_since`` a version (how a process follows
the moves other processes make), ``load_unfinished`` the games to bring back, ``expire`` the
games left idle too long, ``quarantined`` the stored games that failed to load, and ``watch``
the moves that other processes store.

A game is stored as its moves. When it is created, the store keeps its table whole (the
*snapshot*: ``table.save(hash_credentials=True)``, the game record, a SHA-256 of each seat's
credential, never the credential, and the bots); then every accepted move adds one row to the
game's *log*: its version and its actions (the player's, and the bots' that followed), in
notation. A move writes the same few bytes at move 5 and at move 60. A game is loaded by
resuming its snapshot (a verified load) and playing its logged actions, each checked by the
rules (``Table.follow``); a snapshot taken later would cost as much to load (a verified load
replays the game too) and more to write, so none is.

Every stored game has a version: 0 when created, one more per accepted move. ``save`` with
``version=v`` stores the move only if the stored game is at version ``v - 1``, and raises
``VersionConflictError`` otherwise: the log's key (game, version) puts two processes' moves
in order in the database, never in a process's memory.

Per-game data beside the moves lives in the ``games`` row (over, when, the next game, the
table's *policy*: its time control and takeover, as the app writes it); data that changes
with every move lives in the move's row (the *clock* after it, and ``played_by`` when the
host played it for a seat). The store keeps the policy and the clocks as the app's text and
never reads them. Who is connected to a game, on which process, is in the *presence* rows:
each process writes how many sockets it holds for each seat and when the last one closed,
and reads the others' (``set_presence``, ``presence``). Each change of the schema is a
numbered step (``SCHEMA_VERSION``), run once, in one transaction, when a store opens an older
database; the data of schema 1 (a whole table per game, rewritten on every move) is kept,
renamed, until the operator drops it.

- ``SqliteTableStore`` is the default: one SQLite file (the standard library's ``sqlite3``) in
  WAL mode with ``synchronous=FULL``, one transaction per move, for one server process. On
  start it checks the file and its write-ahead log and reports what damage lost.
- ``PostgresTableStore`` (``tricky_treats_web.postgres``) is for several server processes on
  one PostgreSQL database; they hear of each other's moves by LISTEN/NOTIFY, the move's
  actions in the notification.

``open_store(spec)`` picks one from a path or a ``postgresql://`` URL.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import sqlite3
import struct
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

import attrs

import tricky_treats as tt
from tricky_treats.host import PlayedBy, Table

__all__ = [
    "SCHEMA_VERSION",
    "CapReachedError",
    "PresenceRow",
    "QuarantinedTable",
    "SqliteTableStore",
    "StoreUnavailableError",
    "StoredMove",
    "StoredMoves",
    "StoredTable",
    "TableStore",
    "VersionConflictError",
    "WalDamage",
    "open_store",
]

log = logging.getLogger("tricky_treats_web.store")

SCHEMA_VERSION = 3
"""The stores' schema: 1 kept each game as a whole table, 2 as a snapshot and a log of moves,
3 added each game's policy, its maker and the seats that moved in it, each move's clock and
``played_by``, and the presence rows."""

PRESENCE_SECONDS = 5.0
"""How often a process that shares its store says it is alive (``heartbeat``)."""
PRESENCE_TTL = 3 * PRESENCE_SECONDS
"""A process not heard of for this long is gone: its sockets count as closed when it was
last heard of."""

Changed = Callable[[str, int, "StoredMove | None"], Awaitable[None] | None]
"""Called with a game id, its new version and that move (None: not told) when another
process stored a move; answers the work to run, or None if there is none."""
PresenceChanged = Callable[[str], Awaitable[None] | None]
"""Called with a game id when another process's sockets of that game changed."""
NextGame = Callable[[str, str], Awaitable[None]]
"""Called with a game id and the id of its next game when another process stored that."""
Resync = Callable[[], Awaitable[None]]
"""Called when saves by other processes may have gone unheard (a lost connection)."""


class VersionConflictError(Exception):
    """The stored game is not at the version this move follows: another process moved first."""


class StoreUnavailableError(Exception):
    """The store cannot be reached now (the database is down): try again later."""


class CapReachedError(Exception):
    """A new game the caps refuse (``TableStore.create``).

    ``code`` is ``too-many-games`` (its maker holds its share of unplayed games: ``held``) or
    ``busy`` (the store holds ``total`` unplayed games, and nobody holds more than their share).
    """

    def __init__(self, code: str, held: int, total: int) -> None:
        super().__init__(f"{code}: {held} of the maker's, {total} in all")
        self.code = code
        self.held = held
        self.total = total


def maker_to_make_way(
    held: int, total: int, per_maker: int, most: int, heaviest: Callable[[], tuple[str, int] | None]
) -> str | None:
    """The caps of a new game, the same for every store (``TableStore.create``).

    ``held``: the maker's unplayed games, ``total``: all of them; ``heaviest()`` reads the
    maker holding the most, ``(maker, count)`` or None, only when the store is full. The maker
    whose oldest unplayed game gives way (None: there is room), or ``CapReachedError``.
    """
    if held >= per_maker:
        raise CapReachedError("too-many-games", held, total)
    if total < most:
        return None
    found = heaviest()
    if found is None or found[1] < held + 2:
        raise CapReachedError("busy", held, total)
    return str(found[0])


def mover_bit(mover: int | None) -> int:
    """The bit of the seat that made a move itself in a game's ``movers`` (0: the host did)."""
    return 0 if mover is None else 1 << mover


@attrs.frozen
class StoredTable:
    """A table as stored, with its version (0 when created, one more per accepted move)."""

    table: Table
    version: int
    next_game: str | None = None
    """The game "play again" made after this one, once a seat asked for it."""
    policy: str | None = None
    """The table's policy as the app stored it (None: a game stored before policies)."""
    clock: str | None = None
    """The clock stored with the last move (None: no move, or no clock)."""


@attrs.frozen
class StoredMove:
    """One row of a game's log: a version and the actions that made it, in notation."""

    version: int
    actions: tuple[str, ...]
    clock: str | None = None
    """The clock after this move, as the app stored it."""
    played_by: PlayedBy | None = None
    """Who played the first action for its seat, when the host did (``Table.play_for``)."""


@attrs.frozen
class PresenceRow:
    """One process's sockets of one seat of a game, as the store holds them."""

    process: str
    seat: int | None
    """The seat; None for the spectators."""
    sockets: int
    """Its open sockets now: 0 once they closed, or once the process is gone."""
    away_seconds: float | None
    """How long ago the last one closed (or the process was last heard of); None while open."""


@attrs.frozen
class StoredMoves:
    """What the store holds of a game after a version: how a process follows the game."""

    version: int
    """The game's stored version."""
    moves: tuple[StoredMove, ...]
    """The logged moves after the version asked, in order. If they do not start right after
    it, the log no longer holds what came between: load the whole game."""
    next_game: str | None = None


@attrs.frozen
class QuarantinedTable:
    """A stored game that failed to load: kept aside with the reason, never dropped."""

    game_id: str
    data: str
    """The game's snapshot, as stored."""
    reason: str
    moves: str = ""
    """The game's log, one move a line: ``<version> <actions>``."""


class TableStore(Protocol):
    """What the web app needs from a store of tables."""

    def save(
        self,
        game_id: str,
        table: Table,
        *,
        version: int = 0,
        since: int | None = None,
        policy: str | None = None,
        clock: str | None = None,
        mover: int | None = None,
    ) -> None:
        """Store a new game or a move of ``game_id``; return only once it would survive a crash.

        Version 0 stores ``table`` as a new game, if no game has that id, with its ``policy``.
        Version ``v > 0`` stores a move: the actions ``table.game.history[since:]``, ``since``
        being how many the game had at version ``v - 1``, the ``clock`` after it, and who
        played its first action (``table.played_by``); ``mover`` is the human seat that made
        it itself (None: a bot or the host). A game counts as played once two seats have.
        Either raises ``VersionConflictError`` if the stored game is not at the version before
        (or, for 0, exists).
        """

    def create(
        self,
        game_id: str,
        table: Table,
        *,
        policy: str | None,
        maker: str,
        per_maker: int,
        most: int,
    ) -> list[str]:
        """Store a new game of ``maker`` (a client) if the caps on unplayed games allow it.

        One transaction, one at a time over every process. Unplayed games are the unfinished
        ones fewer than two seats have moved in themselves. ``CapReachedError``
        ``too-many-games`` if ``maker`` holds ``per_maker`` of them; past ``most`` in all, the
        oldest unplayed game of the maker who holds the most is deleted to make room if that
        maker holds at least two more than ``maker`` does (else ``busy``): nobody holds more
        than a fair share while newcomers are waiting. Answers the ids of the games deleted.
        """

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id`` (finished or not), or None."""

    def moves_since(self, game_id: str, version: int) -> StoredMoves | None:
        """The moves of ``game_id`` stored after ``version``, or None if it is not stored."""

    def load_unfinished(self) -> dict[str, StoredTable]:
        """Every stored game that is not over; a game that fails to load is quarantined."""

    def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, or None if it is not stored."""

    def expire(
        self,
        idle_before: datetime.datetime,
        finished_before: datetime.datetime | None,
        unplayed_before: datetime.datetime | None = None,
    ) -> list[str]:
        """Delete the games left idle too long; answer their ids.

        Those are the unfinished games last moved in before ``idle_before``, the finished ones
        ended before ``finished_before`` (None keeps them), and the games nobody has moved in
        (no move stored, not over) stored before ``unplayed_before``.
        """

    def count_unplayed(self) -> int:
        """How many stored games are unplayed (fewer than two seats moved, not over)."""

    def open_next(self, game_id: str, next_id: str, table: Table, policy: str | None = None) -> str:
        """Store ``table`` as ``next_id``, the next game of ``game_id``, unless it has one.

        One transaction; answers the id of the next game: ``next_id``, or the one another
        process stored first (then ``table`` is not stored). Announced to the other processes.
        """

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored games that failed to load, kept aside."""

    def set_presence(self, game_id: str, process: str, seat: int | None, sockets: int) -> None:
        """Say that ``process`` holds ``sockets`` open sockets of ``seat`` (None: spectators).

        Its row's time of leaving is now if ``sockets`` is 0. Other processes are told.
        """

    def presence(self, game_id: str, process: str) -> list[PresenceRow]:
        """The presence rows of ``game_id`` of every process but ``process``."""

    def heartbeat(self, process: str) -> None:
        """Say that ``process`` is alive, with the sockets it said it holds."""

    async def watch(
        self,
        changed: Changed,
        resync: Resync,
        next_game: NextGame,
        presence: PresenceChanged | None = None,
    ) -> None:
        """Call ``changed`` for every move stored by another process, until cancelled.

        And ``next_game`` for every next game another process stored, and ``presence`` when
        another process's sockets of a game changed. A store that only one process uses
        returns at once.
        """


def open_store(spec: str | Path) -> TableStore:
    """A store from ``spec``: a ``postgresql://`` URL, or else the path of a SQLite file."""
    text = str(spec)
    if text.startswith(("postgresql://", "postgres://")):
        from tricky_treats_web.postgres import PostgresTableStore

        return PostgresTableStore(text)
    return SqliteTableStore(text)


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _stamp(moment: datetime.datetime) -> str:
    # One fixed layout, so that SQLite compares the texts in time order.
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def new_actions(table: Table, version: int, since: int | None) -> str:
    """The actions a move adds to the log, in notation, one space apart."""
    if since is None:
        raise ValueError(f"storing version {version} needs since: the actions at version before")
    history = table.game.history
    if not 0 <= since < len(history):
        raise ValueError(f"no actions after the first {since} of {len(history)}")
    return " ".join(map(str, history[since:]))


def played_by_text(table: Table, since: int) -> str | None:
    """Who played the move's first action, as its row keeps it (None: its seat did)."""
    by = table.played_by.get(since)
    return None if by is None else json.dumps(by.to_json(), ensure_ascii=False)


def read_played_by(text: object) -> PlayedBy | None:
    """A row's ``played_by`` back: ``tt.RecordError`` if it is not one."""
    if text is None:
        return None
    try:
        return PlayedBy.from_json(json.loads(str(text)))
    except (ValueError, tt.TrickyTreatsError) as exc:
        raise tt.RecordError(f"played_by {str(text)[:80]!r}: {exc}") from None


LogRow = tuple[int, str, str | None, str | None]
"""A row of a game's log as read: version, actions, clock, played_by."""


Quarantine = Callable[[str, str, str, str], None]
"""Keeps a game aside: its id, its snapshot, the reason and its log."""


def log_text(moves: Iterable[Sequence[object]]) -> str:
    """A game's log as text: one move a line, ``<version> <actions>``."""
    return "".join(f"{move[0]} {move[1]}\n" for move in moves)


def resume_logged(
    game_id: str,
    snapshot: object,
    snapshot_version: int,
    moves: Sequence[LogRow],
    next_game: str | None,
    quarantine: Quarantine,
    policy: str | None = None,
) -> StoredTable | None:
    """The table of a snapshot and its log, or None after quarantining the game if it fails.

    Its snapshot is resumed (``Table.resume``, a verified load) and its moves played in order
    (``Table.follow``: each checked by the rules); a log with a gap is damage too.
    """
    clock = None
    try:
        if not isinstance(snapshot, str):
            raise tt.RecordError(f"expected text, got {type(snapshot).__name__}")
        table = Table.resume(snapshot)
        expected = snapshot_version + 1
        for version, actions, moved_clock, played_by in moves:
            clock = moved_clock
            if version != expected:
                raise tt.RecordError(f"the log goes from version {expected - 1} to {version}")
            try:
                by = read_played_by(played_by)
                table.follow(actions.split(), played_by=None if by is None else {0: by})
            except tt.TrickyTreatsError as exc:
                raise tt.RecordError(f"move {version} ({actions}): {exc}") from None
            expected += 1
    except Exception as exc:  # any bad game is kept aside; the server must still serve
        reason = f"{type(exc).__name__}: {exc}"
        log.error("stored game %s does not load (%s); it is kept in quarantine", game_id, reason)
        data = snapshot if isinstance(snapshot, str) else repr(snapshot)
        quarantine(game_id, data, reason, log_text(moves))
        return None
    return StoredTable(table, expected - 1, next_game, policy, clock)


def stored_moves(
    snapshot_version: int, next_game: str | None, moves: Iterable[LogRow]
) -> StoredMoves:
    """``moves_since``'s answer from the game's row and its log's rows after a version.

    ``tt.RecordError`` for a row whose ``played_by`` is damaged.
    """
    logged = tuple(
        StoredMove(version, tuple(actions.split()), clock, read_played_by(played_by))
        for version, actions, clock, played_by in moves
    )
    version = max(snapshot_version, logged[-1].version if logged else 0)
    return StoredMoves(version, logged, next_game)


@attrs.frozen
class WalDamage:
    """What a damaged SQLite write-ahead log lost: found on start, logged, its copy kept."""

    kind: str
    """What is wrong: ``header`` (the log's header does not check, so SQLite ignores the whole
    log), ``frame`` (a frame's checksum), ``salt`` (a frame of another generation amid this
    one's), ``truncated`` (the log ends inside a frame) or ``missing`` (no log, yet saves that
    only it held are gone)."""
    frames: int
    """Frames the log file holds (of this log's generation)."""
    valid_frames: int
    """Frames SQLite reads: those before the first damaged one, up to the last commit."""
    lost_commits: int
    """Committed transactions seen in the log after the damage, which SQLite drops (those of
    a truncated log's lost end cannot be counted)."""
    games: tuple[str, ...]
    """Every game that lost moves: its acknowledged version (by the store's save journal) is
    above the version SQLite has."""
    losses: tuple[tuple[str, int, int | None], ...]
    """For each of ``games``: (game id, the last version saved, the version left or None if
    the whole game is gone)."""
    kept_as: Path | None
    """The damaged log, copied before SQLite opened the database (None: there was no log)."""


def _wal_checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


@attrs.frozen
class _WalCheck:
    kind: str
    frames: int
    valid_frames: int
    lost_commits: int


def _commits(wal: bytes, size: int, frames: range, salts: tuple[int, int] | None) -> int:
    """Commit frames among ``frames`` (those with ``salts``, if given)."""
    count = 0
    for index in frames:
        start = 32 + index * size
        _, commit, f1, f2 = struct.unpack(">4I", wal[start : start + 16])
        count += commit != 0 and (salts is None or (f1, f2) == salts)
    return count


def _check_wal(wal: bytes, page_size: int) -> _WalCheck | None:
    """What is wrong with a write-ahead log, checked as SQLite checks it; None if intact.

    By the checksums and salts of https://www.sqlite.org/fileformat.html#the_write_ahead_log.
    ``page_size`` is the database's, for a log whose own header cannot be read.
    """
    if not wal:
        return None
    if len(wal) < 32:
        return _WalCheck("header", 0, 0, 0)
    magic, _, own_page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    big = magic == 0x377F0683
    if magic in (0x377F0682, 0x377F0683) and own_page >= 512:
        page_size = own_page
    size = 24 + page_size
    count = (len(wal) - 32) // size
    if magic not in (0x377F0682, 0x377F0683) or _wal_checksum(wal[:24], big, 0, 0) != (c1, c2):
        # SQLite ignores a log whose header does not check: every frame in it is lost.
        first = struct.unpack(">2I", wal[40:48]) if count else None
        return _WalCheck("header", count, 0, _commits(wal, size, range(count), first))
    s0, s1 = _wal_checksum(wal[:24], big, 0, 0)
    valid = 0
    for index in range(count):
        start = 32 + index * size
        header = wal[start : start + 24]
        _, commit, f1, f2, k1, k2 = struct.unpack(">6I", header)
        kind = None
        if (f1, f2) != (salt1, salt2):
            # Frames of an earlier generation after this one's end are normal; but a frame
            # with this generation's salts after it means the odd one is damage.
            later = range(index + 1, count)
            if not _commits(wal, size, later, (salt1, salt2)):
                return (
                    None if (len(wal) - 32) % size == 0 else _WalCheck("truncated", index, valid, 0)
                )
            kind = "salt"
        else:
            s0, s1 = _wal_checksum(header[:8], big, s0, s1)
            s0, s1 = _wal_checksum(wal[start + 24 : start + size], big, s0, s1)
            if (s0, s1) != (k1, k2):
                kind = "frame"
        if kind is not None:
            lost = _commits(wal, size, range(index, count), (salt1, salt2))
            return _WalCheck(kind, count, valid, lost)
        if commit:
            valid = index + 1
    if (len(wal) - 32) % size:
        return _WalCheck("truncated", count, valid, 0)
    return None


class _SaveJournal:
    """The last version saved of every game, appended to ``<store>-saves`` after each commit.

    SQLite drops, without a word, whatever a damaged write-ahead log held; this journal is
    what the store knows it acknowledged, so that on start it can name every game that lost
    moves. Appended without an fsync of its own (a killed process loses none of it; a power
    cut may lose its last lines, so the report may then miss the very latest moves); rewritten
    short when it grows.
    """

    COMPACT_BYTES = 4 * 1024 * 1024

    def __init__(self, path: Path) -> None:
        self.path = path
        self.versions: dict[str, int] = {}
        self._size = 0
        if path.is_file():
            for line in path.read_text("utf-8", "replace").splitlines():
                game_id, _, version = line.partition(" ")
                if version == "-":
                    self.versions.pop(game_id, None)
                elif version.isdigit():
                    self.versions[game_id] = int(version)

    def start(self, stored: dict[str, int]) -> None:
        """Begin a new journal from the versions now stored."""
        self.versions = dict(stored)
        self._rewrite()

    def saved(self, game_id: str, version: int) -> None:
        self.versions[game_id] = version
        self._append(f"{game_id} {version}\n")

    def deleted(self, game_ids: Iterable[str]) -> None:
        lines = []
        for game_id in game_ids:
            self.versions.pop(game_id, None)
            lines.append(f"{game_id} -\n")
        if lines:
            self._append("".join(lines))

    def _append(self, text: str) -> None:
        # Opened per append (a few microseconds beside the commit's fsync): no file is left
        # open by a store nobody closed.
        with self.path.open("a", encoding="utf-8") as journal:
            journal.write(text)
        self._size += len(text)
        if self._size > self.COMPACT_BYTES:
            self._rewrite()

    def _rewrite(self) -> None:
        fresh = self.path.with_name(f"{self.path.name}.new")
        text = "".join(f"{g} {v}\n" for g, v in sorted(self.versions.items()))
        fresh.write_text(text, "utf-8")
        fresh.replace(self.path)
        self._size = len(text)


class SqliteTableStore:
    """Tables in one SQLite file: WAL mode, a transaction per save, fsync'd on commit.

    On start it checks the write-ahead log before SQLite reads it (SQLite silently drops
    every transaction after a damaged frame, and the whole log if its header is damaged):
    the damaged log is copied aside (``<name>-wal.damaged-<time>``), and every game that lost
    moves is named in the log and in ``wal_damage``, by the save journal (``<name>-saves``,
    the last version saved of each game). A file that is not a readable SQLite database
    (``quick_check`` fails) is moved aside (renamed to ``<name>.corrupt-<time>``, reported in
    the log and in ``set_aside``) and a new one started, so that the server still starts.
    Safe to call from several threads.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.set_aside: Path | None = None
        self.wal_damage: WalDamage | None = None
        self._lock = threading.Lock()
        memory = str(self.path) == ":memory:"
        self._journal = None if memory else _SaveJournal(Path(f"{self.path}-saves"))
        found = None if memory else self._check_wal()
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self.set_aside = self._move_aside(exc)
            self._db = self._open()
        if self._journal is not None:
            stored = dict(self._db.execute(_VERSIONS).fetchall())
            self._report_losses(found, stored)
            self._journal.start(stored)
        # One process uses this file: the sockets of an earlier run closed when it ended.
        # That time is unknown; now is when this run began.
        with self._lock, self._transaction() as db:
            db.execute(
                "UPDATE presence SET sockets = 0, left_at = ? WHERE sockets > 0", (_stamp(_now()),)
            )

    def _check_wal(self) -> tuple[_WalCheck, Path] | None:
        wal_path = Path(f"{self.path}-wal")
        if not wal_path.is_file():
            return None
        wal = wal_path.read_bytes()
        found = _check_wal(wal, self._page_size())
        if found is None:
            return None
        kept = wal_path.with_name(f"{wal_path.name}.damaged-{_now():%Y%m%dT%H%M%S%f}")
        kept.write_bytes(wal)
        return found, kept

    def _page_size(self) -> int:
        try:
            with self.path.open("rb") as db:
                header = db.read(18)
        except OSError:
            return 4096
        if len(header) < 18 or not header.startswith(b"SQLite format 3\0"):
            return 4096
        size = int.from_bytes(header[16:18], "big")
        return 65536 if size == 1 else size or 4096

    def _report_losses(self, found: tuple[_WalCheck, Path] | None, stored: dict[str, int]) -> None:
        assert self._journal is not None
        losses = tuple(
            (game_id, version, stored.get(game_id))
            for game_id, version in sorted(self._journal.versions.items())
            if stored.get(game_id, -1) < version
        )
        if found is None and not losses:
            return
        check, kept = found if found is not None else (_WalCheck("missing", 0, 0, 0), None)
        games = tuple(game_id for game_id, _, _ in losses)
        self.wal_damage = WalDamage(
            check.kind, check.frames, check.valid_frames, check.lost_commits, games, losses, kept
        )
        what = {
            "header": "its header is damaged, so SQLite ignores all of it",
            "frame": f"frame {check.valid_frames + 1} of {check.frames} is damaged",
            "salt": f"frame {check.valid_frames + 1} of {check.frames} is of another log",
            "truncated": f"it ends inside frame {check.frames + 1}",
            "missing": "it is gone, with saves that only it held",
        }[check.kind]
        if not losses:
            log.warning(
                "the write-ahead log of the table store %s is damaged (%s), but no saved "
                "move is lost (by the save journal); the damaged log is kept as %s",
                self.path,
                what,
                kept,
            )
            return
        detail = ", ".join(
            f"{g} (saved to version {v}, {'gone' if left is None else f'now {left}'})"
            for g, v, left in losses
        )
        log.error(
            "the write-ahead log of the table store %s is damaged (%s): %d games lost moves: "
            "%s; the damaged log is kept as %s. Restore from a backup to get them back "
            "(see docs/hosting.md)",
            self.path,
            what,
            len(losses),
            detail,
            kept or "(none)",
        )

    def _open(self) -> sqlite3.Connection:
        # isolation_level=None: this class says where each transaction begins and ends.
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {check}")
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring the file to ``SCHEMA_VERSION``, in one transaction (a new file: create it)."""
        (found,) = db.execute("PRAGMA user_version").fetchone()
        if found == SCHEMA_VERSION:
            return
        if found > SCHEMA_VERSION:
            raise tt.ConfigurationError(
                f"the table store {self.path} has schema {found}, written by a newer "
                f"tricky-treats-web (this one reads up to {SCHEMA_VERSION}): upgrade it"
            )
        db.execute("BEGIN IMMEDIATE")
        try:
            names = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
            for statement in _SCHEMA:
                db.execute(statement)
            if "tables" in names:
                moved = self._from_whole_tables(db)
            self._add_columns(db)  # schema 2 to 3
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        if "tables" in names:
            log.warning(
                "the table store %s is migrated to schema %d (a log of moves per game): %d "
                "games; the old table is kept as tables_v1 (DROP TABLE tables_v1 once the "
                "games play)",
                self.path,
                SCHEMA_VERSION,
                moved,
            )
        elif found:
            log.warning(
                "the table store %s is migrated from schema %d to %d (clocks and presence)",
                self.path,
                found,
                SCHEMA_VERSION,
            )

    @staticmethod
    def _add_columns(db: sqlite3.Connection) -> None:
        """Schema 2 to 3: a game's policy and maker, the seats that moved, a move's clock.

        And its ``played_by``; NULL before (no seat known to have moved: a game that was moved
        in counts as played, as it did).
        """
        for table, column in (
            ("games", "policy TEXT"),
            ("games", "maker TEXT"),
            ("games", "movers INTEGER NOT NULL DEFAULT 0"),
            ("moves", "clock TEXT"),
            ("moves", "played_by TEXT"),
        ):
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if column.split()[0] not in columns:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
        # Counted on every new game, per maker (games_per_client).
        db.execute(
            "CREATE INDEX IF NOT EXISTS games_maker ON games (maker) WHERE moved = 0 AND over = 0"
        )

    @staticmethod
    def _from_whole_tables(db: sqlite3.Connection) -> int:
        """Schema 1 to 2: each stored table becomes a game's snapshot, at its version."""
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        version = "version" if "version" in columns else "0"  # saved before versions were kept
        following = "next_game" if "next_game" in columns else "NULL"  # ... or "play again"
        moved = db.execute(
            "INSERT INTO games (game_id, snapshot, snapshot_version, over, moved, updated, "
            f"next_game) SELECT game_id, data, {version}, over, {version} > 0, updated, "
            f"{following} FROM tables"
        ).rowcount
        db.execute("ALTER TABLE tables RENAME TO tables_v1")
        db.execute("DROP INDEX IF EXISTS unplayed")
        kept = {row[1] for row in db.execute("PRAGMA table_info(quarantine)")}
        if "moves" not in kept:
            db.execute("ALTER TABLE quarantine ADD COLUMN moves TEXT NOT NULL DEFAULT ''")
        return int(moved)

    def _move_aside(self, error: Exception) -> Path:
        aside = self.path.with_name(f"{self.path.name}.corrupt-{_now():%Y%m%dT%H%M%S%f}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                part.rename(f"{aside}{suffix}")
        log.error(
            "the table store %s is not a readable SQLite database (%s); it is kept as %s "
            "and a new store is started",
            self.path,
            error,
            aside,
        )
        return aside

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()

    def _saved(self, game_id: str, version: int) -> None:
        # Under the lock, after the commit: the journal holds only what is acknowledged.
        if self._journal is not None:
            self._journal.saved(game_id, version)

    def _deleted(self, game_ids: Iterable[str]) -> None:
        if self._journal is not None:
            self._journal.deleted(game_ids)

    def save(
        self,
        game_id: str,
        table: Table,
        *,
        version: int = 0,
        since: int | None = None,
        policy: str | None = None,
        clock: str | None = None,
        mover: int | None = None,
    ) -> None:
        """Store a new game (version 0) or a move (see ``TableStore.save``), committed."""
        stamp = _stamp(_now())
        if version == 0:
            sql = (
                "INSERT INTO games (game_id, snapshot, snapshot_version, over, moved, updated, "
                "policy) VALUES (?, ?, 0, ?, 0, ?, ?) ON CONFLICT (game_id) DO NOTHING"
            )
            data = table.save(hash_credentials=True)
            row = (game_id, data, table.game.is_over, stamp, policy)
            with self._lock:
                with self._transaction() as db:
                    changed = db.execute(sql, row).rowcount
                if changed == 1:
                    self._saved(game_id, 0)
            if changed != 1:
                raise VersionConflictError(f"game {game_id} is stored already")
            return
        actions = new_actions(table, version, since)
        assert since is not None  # new_actions checked it
        by = played_by_text(table, since)
        over = table.game.is_over
        with self._lock:
            with self._transaction() as db:
                changed = db.execute(
                    _APPEND,
                    (version, actions, stamp, clock, by, game_id, version - 1, version - 1),
                ).rowcount
                if changed == 1:  # a move of an unplayed game, or the last: the row says so
                    bit = mover_bit(mover)
                    db.execute(_MARK, (bit, bit, bit, over, stamp, game_id, over))
            if changed == 1:
                self._saved(game_id, version)
        if changed != 1:
            raise VersionConflictError(f"game {game_id}: version {version - 1} is not the last")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction on the database (the caller holds ``_lock``)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def open_next(self, game_id: str, next_id: str, table: Table, policy: str | None = None) -> str:
        """Store ``table`` as the next game of ``game_id`` unless it has one; the next game."""
        data = table.save(hash_credentials=True)
        with self._lock:
            with self._transaction() as db:
                row = db.execute(
                    "SELECT next_game FROM games WHERE game_id = ?", (game_id,)
                ).fetchone()
                if row is None:
                    raise VersionConflictError(f"game {game_id} is not stored")
                if row[0] is not None:
                    return str(row[0])
                db.execute(
                    "INSERT INTO games (game_id, snapshot, snapshot_version, over, moved, "
                    "updated, policy) VALUES (?, ?, 0, ?, 0, ?, ?)",
                    (next_id, data, table.game.is_over, _stamp(_now()), policy),
                )
                db.execute("UPDATE games SET next_game = ? WHERE game_id = ?", (next_id, game_id))
            self._saved(next_id, 0)
        return next_id

    def create(
        self,
        game_id: str,
        table: Table,
        *,
        policy: str | None,
        maker: str,
        per_maker: int,
        most: int,
    ) -> list[str]:
        """Store a new game of ``maker`` if the caps allow it (see ``TableStore.create``)."""
        data = table.save(hash_credentials=True)
        with self._lock:
            with self._transaction() as db:  # BEGIN IMMEDIATE: one writer at a time
                (held,) = db.execute(f"{_UNPLAYED} AND maker = ?", (maker,)).fetchone()
                (total,) = db.execute(_UNPLAYED).fetchone()
                heaviest = maker_to_make_way(
                    held, total, per_maker, most, lambda: db.execute(_HEAVIEST).fetchone()
                )
                gone: list[str] = []
                if heaviest is not None:
                    gone = [db.execute(_OLDEST, (heaviest,)).fetchone()[0]]
                    self._delete(db, gone)
                db.execute(
                    "INSERT INTO games (game_id, snapshot, snapshot_version, over, moved, "
                    "updated, policy, maker) VALUES (?, ?, 0, ?, 0, ?, ?, ?)",
                    (game_id, data, table.game.is_over, _stamp(_now()), policy, maker),
                )
            self._deleted(gone)
            self._saved(game_id, 0)
        return gone

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._lock:
            row = self._db.execute(
                "SELECT snapshot, snapshot_version, next_game, policy FROM games WHERE game_id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            moves = self._db.execute(_LOG, (game_id, row[1])).fetchall()
        return resume_logged(game_id, row[0], row[1], moves, row[2], self._quarantine, row[3])

    def moves_since(self, game_id: str, version: int) -> StoredMoves | None:
        """The moves of ``game_id`` stored after ``version`` (None: it is not stored)."""
        with self._lock:
            row = self._db.execute(
                "SELECT snapshot_version, next_game FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            moves = self._db.execute(_LOG, (game_id, version)).fetchall()
        return stored_moves(row[0], row[1], moves)

    def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, or None if it is not stored."""
        with self._lock:
            row = self._db.execute(f"{_VERSIONS} WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else int(row[1])

    def load_unfinished(self) -> dict[str, StoredTable]:
        """Every game that is not over, by id; the ones that fail to load are quarantined."""
        with self._lock:
            ids = [g for (g,) in self._db.execute("SELECT game_id FROM games WHERE over = 0")]
        tables = {}
        for game_id in ids:
            stored = self.load(game_id)
            if stored is not None:
                tables[game_id] = stored
        return tables

    def count_unplayed(self) -> int:
        """How many stored games are unplayed (fewer than two seats moved, not over)."""
        with self._lock:
            (count,) = self._db.execute(_UNPLAYED).fetchone()
        return int(count)

    def expire(
        self,
        idle_before: datetime.datetime,
        finished_before: datetime.datetime | None,
        unplayed_before: datetime.datetime | None = None,
    ) -> list[str]:
        """Delete the games left idle too long (see ``TableStore.expire``); answer their ids."""
        # An unfinished game's row is written when it starts and at its first move; the time
        # of its last move is its log's.
        idle = _stamp(idle_before)
        where = (
            "(over = 0 AND updated < ? AND coalesce((SELECT at FROM moves "
            "WHERE moves.game_id = games.game_id ORDER BY version DESC LIMIT 1), '') < ?)"
        )
        args: list[object] = [idle, idle]
        if finished_before is not None:
            where += " OR (over = 1 AND updated < ?)"
            args.append(_stamp(finished_before))
        if unplayed_before is not None:
            where += " OR (over = 0 AND moved = 0 AND updated < ?)"
            args.append(_stamp(unplayed_before))
        with self._lock:
            with self._transaction() as db:
                gone = [g for (g,) in db.execute(f"SELECT game_id FROM games WHERE {where}", args)]
                self._delete(db, gone)
            self._deleted(gone)
        return sorted(gone)

    @staticmethod
    def _delete(db: sqlite3.Connection, game_ids: Sequence[str]) -> None:
        for table in ("moves", "presence", "games"):
            db.executemany(f"DELETE FROM {table} WHERE game_id = ?", ((g,) for g in game_ids))

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored games that failed to load, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, data, reason, moves FROM quarantine ORDER BY id"
            ).fetchall()
        return [QuarantinedTable(*row) for row in rows]

    def set_presence(self, game_id: str, process: str, seat: int | None, sockets: int) -> None:
        """Say how many sockets of ``seat`` (None: spectators) ``process`` holds (committed)."""
        stamp = _stamp(_now())
        with self._lock, self._transaction() as db:
            if db.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone():
                db.execute(
                    "INSERT INTO presence (game_id, process, seat, sockets, left_at, seen) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, process, seat) DO UPDATE "
                    "SET sockets = excluded.sockets, left_at = excluded.left_at, "
                    "seen = excluded.seen",
                    (game_id, process, -1 if seat is None else seat, sockets,
                     None if sockets else stamp, stamp),
                )  # fmt: skip

    def presence(self, game_id: str, process: str) -> list[PresenceRow]:
        """The presence rows of ``game_id`` of every process but ``process``.

        One process uses the file: the others' are of earlier runs, whose sockets closed.
        """
        with self._lock:
            rows = self._db.execute(
                "SELECT process, seat, sockets, left_at FROM presence "
                "WHERE game_id = ? AND process <> ?",
                (game_id, process),
            ).fetchall()
        now = _now()
        return [
            PresenceRow(
                other,
                None if seat < 0 else seat,
                sockets,
                None
                if left is None
                else max(0.0, (now - datetime.datetime.fromisoformat(left)).total_seconds()),
            )
            for other, seat, sockets, left in rows
        ]

    def heartbeat(self, process: str) -> None:
        """Nothing to say: one process uses a SQLite store."""

    async def watch(
        self,
        changed: Changed,
        resync: Resync,
        next_game: NextGame,
        presence: PresenceChanged | None = None,
    ) -> None:
        """Nothing to watch: one process owns a SQLite store."""

    def _quarantine(self, game_id: str, data: str, reason: str, moves: str) -> None:
        with self._lock:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO quarantine (game_id, data, reason, at, moves) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game_id, data, reason, _stamp(_now()), moves),
                )
                self._delete(db, [game_id])
            self._deleted([game_id])


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        game_id TEXT PRIMARY KEY,
        snapshot TEXT NOT NULL,
        snapshot_version INTEGER NOT NULL,
        over INTEGER NOT NULL,
        moved INTEGER NOT NULL,
        updated TEXT NOT NULL,
        next_game TEXT,
        policy TEXT,
        maker TEXT,
        movers INTEGER NOT NULL DEFAULT 0
    )""",
    # One row per move, clustered by game: a move writes one page of the log.
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        actions TEXT NOT NULL,
        at TEXT NOT NULL,
        clock TEXT,
        played_by TEXT,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID""",
    # A row per game, process and seat (-1: the spectators): its sockets, when they closed.
    """CREATE TABLE IF NOT EXISTS presence (
        game_id TEXT NOT NULL,
        process TEXT NOT NULL,
        seat INTEGER NOT NULL,
        sockets INTEGER NOT NULL,
        left_at TEXT,
        seen TEXT NOT NULL,
        PRIMARY KEY (game_id, process, seat)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS quarantine (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        data TEXT NOT NULL,
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        moves TEXT NOT NULL DEFAULT ''
    )""",
    # Counted on every new game (max_unplayed) and swept (unplayed_expiry).
    "CREATE INDEX IF NOT EXISTS games_unplayed ON games (updated) WHERE moved = 0 AND over = 0",
    "CREATE INDEX IF NOT EXISTS games_idle ON games (over, updated)",
)
"""Schema 3 (``SCHEMA_VERSION``): a row per game, with its snapshot and policy; a row per move,
with its clock; the presence rows."""

_APPEND = (
    "INSERT INTO moves (game_id, version, actions, at, clock, played_by) "
    "SELECT game_id, ?, ?, ?, ?, ? FROM games "
    "WHERE game_id = ? AND (snapshot_version = ? OR EXISTS (SELECT 1 FROM moves "
    "WHERE moves.game_id = games.game_id AND version = ?)) ON CONFLICT DO NOTHING"
)
"""A move as version v, stored only if v - 1 is (the key (game, version) takes each once)."""

_MARK = (
    "UPDATE games SET movers = movers | ?, moved = ((movers | ?) & ((movers | ?) - 1)) <> 0, "
    "over = ?, updated = ? WHERE game_id = ? AND (moved = 0 OR ?)"
)
"""After a move: an unplayed game's row records the seat that moved (played once two have:
``m & (m - 1)`` clears the lowest bit) and the time of its last move; a played game's row
records its last move only."""

_UNPLAYED = "SELECT count(*) FROM games WHERE moved = 0 AND over = 0"
_HEAVIEST = (
    "SELECT maker, count(*) AS held FROM games WHERE moved = 0 AND over = 0 "
    "AND maker IS NOT NULL GROUP BY maker ORDER BY held DESC, min(updated) LIMIT 1"
)
"""The maker who holds the most unplayed games (of two, the one with the oldest), and how
many."""
_OLDEST = (
    "SELECT game_id FROM games WHERE moved = 0 AND over = 0 AND maker = ? ORDER BY updated LIMIT 1"
)

_LOG = (
    "SELECT version, actions, clock, played_by FROM moves WHERE game_id = ? AND version > ? "
    "ORDER BY version"
)

_VERSIONS = (
    "SELECT game_id, max(snapshot_version, coalesce((SELECT max(version) FROM moves "
    "WHERE moves.game_id = games.game_id), 0)) FROM games"
)
"""Each game's stored version: its last move's, or its snapshot's."""
