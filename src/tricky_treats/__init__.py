"""tricky-treats: the reference rules engine for the board game Tricky Treats.

>>> import tricky_treats as tt
>>> game = tt.new_game(players=3, seed=42)
>>> action = game.legal_actions()[0]
>>> game = game.apply(action)
>>> tt.parse_action(str(action)) == action
True

The root holds the engine: states, actions, events, errors, records, variants, the simulator,
views and the basic agents (docs/stability.md). Each name is imported from its module on
first use (PEP 562), so ``import tricky_treats`` loads this module alone, and a program that
plays games never loads the web host, the command line, the reports or the adapters. The
rest lives in its own module: ``tricky_treats.host``, ``tricky_treats.simulation``,
``tricky_treats.drawing``, ``tricky_treats.ladder``, ``tricky_treats.protocol``, ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the type checker and readers see; __getattr__ imports the same
    from tricky_treats.actions import (
        Action,
        ActionSpace,
        Pass,
        RefreshMarket,
        TakeCard,
        TrickHouse,
        VisitHouse,
        parse_action,
    )
    from tricky_treats.agents import (
        Agent,
        GreedyAgent,
        RandomAgent,
        SearchAgent,
        determinize,
        play_game,
    )
    from tricky_treats.components import (
        FEATURES,
        Colour,
        ComponentData,
        CostumeCard,
        CostumeType,
        Feature,
        MeanNeighbour,
        NiceNeighbour,
        Provenance,
        RulesData,
        StreetBonusToken,
        Theme,
        Tier,
        Treat,
        TrickIcon,
        TrickTile,
        base_components,
        components_document,
        load_components,
    )
    from tricky_treats.dealing import Draw, deal_draws, deal_from_draws, new_game, start_game
    from tricky_treats.errors import (
        ComponentDataError,
        ConfigurationError,
        IllegalActionError,
        InvalidActionError,
        PolicyFileError,
        TrickyTreatsError,
        UnknownPlayerError,
    )
    from tricky_treats.event_records import (
        EVENT_FORMAT,
        EVENT_FORMAT_VERSION,
        event_from_json,
        event_schema,
        event_to_json,
    )
    from tricky_treats.events import (
        CardPlaced,
        CardRevealed,
        EndTriggered,
        Event,
        GameOver,
        HouseTricked,
        HouseVisited,
        MarketRefreshed,
        Passed,
        PumpkinTaken,
        StreetBonusTaken,
        describe_event,
    )
    from tricky_treats.hookspecs import hookimpl
    from tricky_treats.model import (
        STREETS,
        Board,
        EndTrigger,
        GameConfig,
        GameState,
        GridHouse,
        MeanHouse,
        PlayerState,
        PublicPlayer,
        Setup,
        Termination,
        VariantRef,
    )
    from tricky_treats.plugins import (
        PluginError,
        Variant,
        available_variants,
        get_variant,
        variant_problems,
    )
    from tricky_treats.scoring import ExtraScore, Outcome, ScoreSheet, TileScore, costume_points
    from tricky_treats.serialization import (
        MAX_ACTIONS,
        MAX_RECORD_BYTES,
        RECORD_FORMAT,
        RECORD_FORMAT_VERSION,
        VIEW_FORMAT,
        VIEW_FORMAT_VERSION,
        RecordError,
        dumps,
        loads,
        loads_view,
        record_schema,
        view_schema,
    )
    from tricky_treats.simulator import Simulator
    from tricky_treats.views import PlayerView

    __version__: str
    """The installed distribution's version."""

    __compiled__: bool
    """Whether the simulator's core runs compiled by mypyc (a platform wheel) or as plain Python.

    Both builds play the very same games; the compiled one is faster (see the performance page).
    """

if TYPE_CHECKING:  # moved to their modules: here with a DeprecationWarning until 0.3
    from tricky_treats.drawing import BOARD_PARTS as BOARD_PARTS
    from tricky_treats.drawing import BoardSvg as BoardSvg
    from tricky_treats.drawing import board_svg as board_svg
    from tricky_treats.host import SENDER as SENDER
    from tricky_treats.host import SPECTATORS as SPECTATORS
    from tricky_treats.host import Outgoing as Outgoing
    from tricky_treats.host import Table as Table
    from tricky_treats.simulation import GameResult as GameResult
    from tricky_treats.simulation import SeatResult as SeatResult
    from tricky_treats.simulation import simulate as simulate

_HOMES: dict[str, tuple[str, ...]] = {
    "tricky_treats.actions": (
        "Action",
        "ActionSpace",
        "Pass",
        "RefreshMarket",
        "TakeCard",
        "TrickHouse",
        "VisitHouse",
        "parse_action",
    ),
    "tricky_treats.agents": (
        "Agent",
        "GreedyAgent",
        "RandomAgent",
        "SearchAgent",
        "determinize",
        "play_game",
    ),
    "tricky_treats.components": (
        "FEATURES",
        "Colour",
        "ComponentData",
        "CostumeCard",
        "CostumeType",
        "Feature",
        "MeanNeighbour",
        "NiceNeighbour",
        "Provenance",
        "RulesData",
        "StreetBonusToken",
        "Theme",
        "Tier",
        "Treat",
        "TrickIcon",
        "TrickTile",
        "base_components",
        "components_document",
        "load_components",
    ),
    "tricky_treats.dealing": (
        "Draw",
        "deal_draws",
        "deal_from_draws",
        "new_game",
        "start_game",
    ),
    "tricky_treats.errors": (
        "ComponentDataError",
        "ConfigurationError",
        "IllegalActionError",
        "InvalidActionError",
        "PolicyFileError",
        "TrickyTreatsError",
        "UnknownPlayerError",
    ),
    "tricky_treats.event_records": (
        "EVENT_FORMAT",
        "EVENT_FORMAT_VERSION",
        "event_from_json",
        "event_schema",
        "event_to_json",
    ),
    "tricky_treats.events": (
        "CardPlaced",
        "CardRevealed",
        "EndTriggered",
        "Event",
        "GameOver",
        "HouseTricked",
        "HouseVisited",
        "MarketRefreshed",
        "Passed",
        "PumpkinTaken",
        "StreetBonusTaken",
        "describe_event",
    ),
    "tricky_treats.hookspecs": ("hookimpl",),
    "tricky_treats.model": (
        "STREETS",
        "Board",
        "EndTrigger",
        "GameConfig",
        "GameState",
        "GridHouse",
        "MeanHouse",
        "PlayerState",
        "PublicPlayer",
        "Setup",
        "Termination",
        "VariantRef",
    ),
    "tricky_treats.plugins": (
        "PluginError",
        "Variant",
        "available_variants",
        "get_variant",
        "variant_problems",
    ),
    "tricky_treats.scoring": (
        "ExtraScore",
        "Outcome",
        "ScoreSheet",
        "TileScore",
        "costume_points",
    ),
    "tricky_treats.serialization": (
        "MAX_ACTIONS",
        "MAX_RECORD_BYTES",
        "RECORD_FORMAT",
        "RECORD_FORMAT_VERSION",
        "VIEW_FORMAT",
        "VIEW_FORMAT_VERSION",
        "RecordError",
        "dumps",
        "loads",
        "loads_view",
        "record_schema",
        "view_schema",
    ),
    "tricky_treats.simulator": ("Simulator",),
    "tricky_treats.views": ("PlayerView",),
}
"""The root's names by the module they live in, each imported when first asked for."""

_MOVED: dict[str, tuple[str, ...]] = {
    "tricky_treats.drawing": (
        "BOARD_PARTS",
        "BoardSvg",
        "board_svg",
    ),
    "tricky_treats.host": (
        "SENDER",
        "SPECTATORS",
        "Outgoing",
        "Table",
    ),
    "tricky_treats.simulation": (
        "GameResult",
        "SeatResult",
        "simulate",
    ),
}
"""Names that left the root for their module in 0.2: they warn, then go in 0.3."""

_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
_MOVED_TO = {name: module for module, names in _MOVED.items() for name in names}

__all__ = [
    "EVENT_FORMAT",
    "EVENT_FORMAT_VERSION",
    "FEATURES",
    "MAX_ACTIONS",
    "MAX_RECORD_BYTES",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "STREETS",
    "VIEW_FORMAT",
    "VIEW_FORMAT_VERSION",
    "Action",
    "ActionSpace",
    "Agent",
    "Board",
    "CardPlaced",
    "CardRevealed",
    "Colour",
    "ComponentData",
    "ComponentDataError",
    "ConfigurationError",
    "CostumeCard",
    "CostumeType",
    "Draw",
    "EndTrigger",
    "EndTriggered",
    "Event",
    "ExtraScore",
    "Feature",
    "GameConfig",
    "GameOver",
    "GameState",
    "GreedyAgent",
    "GridHouse",
    "HouseTricked",
    "HouseVisited",
    "IllegalActionError",
    "InvalidActionError",
    "MarketRefreshed",
    "MeanHouse",
    "MeanNeighbour",
    "NiceNeighbour",
    "Outcome",
    "Pass",
    "Passed",
    "PlayerState",
    "PlayerView",
    "PluginError",
    "PolicyFileError",
    "Provenance",
    "PublicPlayer",
    "PumpkinTaken",
    "RandomAgent",
    "RecordError",
    "RefreshMarket",
    "RulesData",
    "ScoreSheet",
    "SearchAgent",
    "Setup",
    "Simulator",
    "StreetBonusTaken",
    "StreetBonusToken",
    "TakeCard",
    "Termination",
    "Theme",
    "Tier",
    "TileScore",
    "Treat",
    "TrickHouse",
    "TrickIcon",
    "TrickTile",
    "TrickyTreatsError",
    "UnknownPlayerError",
    "Variant",
    "VariantRef",
    "VisitHouse",
    "__compiled__",
    "__version__",
    "available_variants",
    "base_components",
    "components_document",
    "costume_points",
    "deal_draws",
    "deal_from_draws",
    "describe_event",
    "determinize",
    "dumps",
    "event_from_json",
    "event_schema",
    "event_to_json",
    "get_variant",
    "hookimpl",
    "load_components",
    "loads",
    "loads_view",
    "new_game",
    "parse_action",
    "play_game",
    "record_schema",
    "start_game",
    "variant_problems",
    "view_schema",
]


if not TYPE_CHECKING:  # hidden from type checkers, which must not take every name as valid

    def __getattr__(name: str) -> object:
        """Import a root name from its module on first use (PEP 562), and keep it."""
        import importlib

        module = _HOME_OF.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        elif name == "__version__":
            value = importlib.import_module("tricky_treats._version").VERSION
        elif name == "__compiled__":
            value = importlib.import_module("tricky_treats.simulator").COMPILED
        elif name in _MOVED_TO:
            import warnings

            home = _MOVED_TO[name]
            warnings.warn(
                f"tricky_treats.{name} moved to {home}.{name} and leaves the root in 0.3: "
                f"import it as 'from {home} import {name}'",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(importlib.import_module(home), name)  # not kept: every use warns
        elif not name.startswith("_") and _is_submodule(name):
            # tt.host, tt.agents, ...: a module is imported when first reached, as before
            # when the root imported them all.
            return importlib.import_module(f"{__name__}.{name}")
        else:
            raise AttributeError(f"module 'tricky_treats' has no attribute {name!r}")
        globals()[name] = value  # later lookups find it without this call
        return value

    def _is_submodule(name: str) -> bool:
        import importlib.util

        return name.isidentifier() and importlib.util.find_spec(f"{__name__}.{name}") is not None

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
