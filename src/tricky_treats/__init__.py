"""tricky-treats: the reference rules engine for the board game Tricky Treats.

>>> import tricky_treats as tt
>>> game = tt.new_game(players=3, seed=42)
>>> action = game.legal_actions()[0]
>>> game = game.apply(action)
>>> tt.parse_action(str(action)) == action
True
"""

from __future__ import annotations

from tricky_treats._version import VERSION as _VERSION
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
from tricky_treats.drawing import BOARD_PARTS, BoardSvg, board_svg
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
from tricky_treats.host import SENDER, SPECTATORS, Outgoing, PlayedBy, Table
from tricky_treats.model import (
    STREETS,
    Board,
    EndTrigger,
    GameConfig,
    GameState,
    GridHouse,
    MeanHouse,
    PlayerState,
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
from tricky_treats.simulation import GameResult, SeatResult, simulate
from tricky_treats.simulator import COMPILED as _COMPILED
from tricky_treats.simulator import Simulator
from tricky_treats.views import PlayerView, PublicPlayer

__version__: str = _VERSION
"""The installed distribution's version."""

__compiled__: bool = _COMPILED
"""Whether the simulator's core runs compiled by mypyc (a platform wheel) or as plain Python.

Both builds play the very same games; the compiled one is faster (see the performance page).
"""

__all__ = [
    "BOARD_PARTS",
    "EVENT_FORMAT",
    "EVENT_FORMAT_VERSION",
    "FEATURES",
    "MAX_ACTIONS",
    "MAX_RECORD_BYTES",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "SENDER",
    "SPECTATORS",
    "STREETS",
    "VIEW_FORMAT",
    "VIEW_FORMAT_VERSION",
    "Action",
    "ActionSpace",
    "Agent",
    "Board",
    "BoardSvg",
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
    "GameResult",
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
    "Outgoing",
    "Pass",
    "Passed",
    "PlayedBy",
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
    "SeatResult",
    "Setup",
    "Simulator",
    "StreetBonusTaken",
    "StreetBonusToken",
    "Table",
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
    "board_svg",
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
    "simulate",
    "start_game",
    "variant_problems",
    "view_schema",
]
