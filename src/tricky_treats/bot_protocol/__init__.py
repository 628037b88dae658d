"""Bots in any language: the host's side of the bot protocol (``docs/bot-protocol.md``).

A bot is a program that reads the host's lines on its standard input and answers on its
standard output: a handshake (``hello 1`` / ``ready 1``), then for each of its moves the
player record of its seat, its legal actions and its time (``move {...}``), answered with an
action in the notation (``action t2k4``), and at the end ``end {...}`` and ``quit``.

- ``BotProcess`` runs one such program for one seat of one game, within ``BotLimits`` (time
  per move and per game, memory, CPU, file size, processes, line length) and in a session of
  its own that is killed as a whole when it ends. Thread-safe; what a web host seats.
- ``ExecAgent`` plays such a program as an ``Agent``, with a fallback agent for the moves it
  fails: ``tricky-treats ladder`` and ``simulate`` make one from ``exec:COMMAND``.

The modules: ``limits`` (``BotLimits``), ``process`` (``BotProcess`` and the protocol's
lines), ``agent`` (``ExecAgent``), and ``_sandbox``, the script that sets a bot's limits and
then runs its program.
"""

from tricky_treats.bot_protocol.agent import (
    EXEC_PREFIX,
    ExecAgent,
    Fallback,
    check_fallback,
    exec_agent,
    exec_command,
    fallbacks_of,
    is_exec_spec,
)
from tricky_treats.bot_protocol.limits import MOVES_PER_GAME, BotLimits
from tricky_treats.bot_protocol.process import (
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    BotAnswer,
    BotFailure,
    BotProcess,
    FailureKind,
)

__all__ = [
    "EXEC_PREFIX",
    "MOVES_PER_GAME",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "BotAnswer",
    "BotFailure",
    "BotLimits",
    "BotProcess",
    "ExecAgent",
    "FailureKind",
    "Fallback",
    "check_fallback",
    "exec_agent",
    "exec_command",
    "fallbacks_of",
    "is_exec_spec",
]
