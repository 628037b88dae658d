"""JSON records of games: the settings and the actions, replayed on load.

A record is ``{"format": "tricks-and-treats", "version": 2, "config": {...}, "actions": [...]}``,
with each action tagged by ``"type"``. Version 2 added the special baskets (``config.specials``
and the actions ``swap``, ``pull``, ``skip``); version 1 records (the basic game) still load.
Reading is strict: unknown keys, wrong types, another format or version, and actions the rules
refuse are all ``RecordError``. The codec is the game protocol's ``ActionLogRecords``, shared
by every game built on ``tricky_treats.protocol``.
"""

from __future__ import annotations

from typing import Final

from tricks_and_treats.errors import RecordError, TricksAndTreatsError
from tricks_and_treats.game import Action, Config, TricksAndTreatsState, new_game
from tricky_treats.protocol import ActionLogRecords

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "OLD_VERSIONS", "VERSION", "dumps", "loads"]

FORMAT: Final = "tricks-and-treats"
VERSION: Final = 2
OLD_VERSIONS: Final = (1,)
"""Versions still read: a version 1 record is a basic game, read as version 2."""
MAX_RECORD_BYTES: Final = 1_000_000
"""Longer text is refused unread: no legal game comes near it."""

_RECORDS: ActionLogRecords[TricksAndTreatsState, Config] = ActionLogRecords(
    format=FORMAT,
    title="Tricks & Treats",
    config_type=Config,
    action_type=Action,
    start=lambda config: new_game(config.players, config.seed, config.specials),
    record_error=RecordError,
    game_error=TricksAndTreatsError,
    version=VERSION,
    max_bytes=MAX_RECORD_BYTES,
    old_versions=OLD_VERSIONS,
)

dumps = _RECORDS.dumps
"""The game so far as a JSON record (it holds the seed: keep it from the players)."""
loads = _RECORDS.loads
"""The game a record describes, rebuilt by replaying its actions from the start."""
