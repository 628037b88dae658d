"""JSON records of matches: the settings and the actions, replayed on load.

A record is ``{"format": "hack-trick", "version": 2, "config": {...}, "actions": [...]}`` with
each action tagged by ``"type"``. Reading is strict: unknown keys, wrong types, another format
or version, and actions the rules refuse are all ``RecordError``. The codec is the game
protocol's ``ActionLogRecords``, shared by every game built on ``tricky_treats.protocol``.
"""

from __future__ import annotations

from typing import Any, Final

from hack_trick.errors import HackTrickError, RecordError
from hack_trick.game import Action, Config, HackTrickState, new_match
from tricky_treats.protocol import ActionLogRecords

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "OLD_VERSIONS", "VERSION", "dumps", "loads"]

FORMAT: Final = "hack-trick"
VERSION: Final = 2
OLD_VERSIONS: Final = (1,)
"""Version 2 added ``config.asking`` (HT-3); a version 1 record reads as ``"turn"``, the only
reading there was, though ``"hand"`` is the default now."""
MAX_RECORD_BYTES: Final = 1_000_000
"""Longer text is refused unread: no legal match comes near it."""


def _old_config(version: int, config: dict[str, Any]) -> dict[str, Any]:
    """A version 1 record was played asking by turn (HT-3's reading then): it replays so."""
    return {"asking": "turn", **config}


_RECORDS: ActionLogRecords[HackTrickState, Config] = ActionLogRecords(
    format=FORMAT,
    title="Hack Trick",
    config_type=Config,
    action_type=Action,
    start=lambda config: new_match(config.target, config.seed, config.asking),
    record_error=RecordError,
    game_error=HackTrickError,
    version=VERSION,
    max_bytes=MAX_RECORD_BYTES,
    old_versions=OLD_VERSIONS,
    old_config=_old_config,
)

dumps = _RECORDS.dumps
"""The game so far as a JSON record (it holds the seed: keep it from the players)."""
loads = _RECORDS.loads
"""The game a record describes, rebuilt by replaying its actions from the start."""
