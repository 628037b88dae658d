"""JSON records of games: the settings and the actions, replayed on load.

A record is ``{"format": "candy-chaser", "version": 1, "config": {...}, "actions": [...]}`` with
each action tagged by ``"type"``. Reading is strict: unknown keys, wrong types, another format
or version, and actions the rules refuse are all ``RecordError``. The codec is the game
protocol's ``ActionLogRecords``, shared by every game built on ``tricky_treats.protocol``.
"""

from __future__ import annotations

from typing import Final

from candy_chaser.errors import CandyChaserError, RecordError
from candy_chaser.game import Action, CandyChaserState, Config, new_game
from tricky_treats.protocol import ActionLogRecords

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "VERSION", "dumps", "loads"]

FORMAT: Final = "candy-chaser"
VERSION: Final = 1
MAX_RECORD_BYTES: Final = 1_000_000
"""Longer text is refused unread: no legal game comes near it."""

_RECORDS: ActionLogRecords[CandyChaserState, Config] = ActionLogRecords(
    format=FORMAT,
    title="Candy Chaser",
    config_type=Config,
    action_type=Action,
    start=lambda config: new_game(config.players, config.seed),
    record_error=RecordError,
    game_error=CandyChaserError,
    version=VERSION,
    max_bytes=MAX_RECORD_BYTES,
)

dumps = _RECORDS.dumps
"""The game so far as a JSON record (it holds the seed: keep it from the players)."""
loads = _RECORDS.loads
"""The game a record describes, rebuilt by replaying its actions from the start."""
