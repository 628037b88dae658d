"""Writing records: ``dumps``, by a reference writer and a fast writer side by side.

Both exist because saving is on the hot path of hosts and simulations: the fast writer joins
the JSON of immutable parts worked out once per object, and the reference writer builds the
record through the converter, simply enough to be read as the definition of the format; the
tests compare the two.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from tricky_treats._json import StrictJSONError, strict_dumps
from tricky_treats.actions import Action
from tricky_treats.components import (
    ComponentData,
    RulesData,
    Treat,
    TrickIcon,
    base_components,
    components_document,
)
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.model import (
    ActionLog,
    GameState,
    Setup,
    VariantRef,
)
from tricky_treats.serialization.checks import _check_boards, _check_invariants
from tricky_treats.serialization.player_records import _view_record, _view_text
from tricky_treats.serialization.shapes import (
    RECORD_FORMAT,
    RECORD_FORMAT_VERSION,
    _Config,
    _converter,
    _GridHouse,
    _MeanHouse,
    _Player,
    _Record,
    _Setup,
    _Snapshot,
    _unstructure_action,
)
from tricky_treats.serialization.texts import (
    _GAMES_KEPT,
    _by_identity,
    _package_version,
)
from tricky_treats.views import PlayerView

__all__ = ["dumps"]


# -- writing -----------------------------------------------------------------------------------


def _snapshot(state: GameState) -> _Snapshot:
    return _Snapshot(
        players=[
            _Player(
                name=p.name,
                kids=[[c.id for c in kid] for kid in p.kids],
                treats=dict(zip(Treat, p.treats, strict=True)),
                pumpkins=p.pumpkins,
                visited=sorted(p.visited),
                tricked=sorted(p.tricked),
                footprints=p.footprints,
            )
            for p in state.players
        ],
        market=[c.id if c is not None else None for c in state.market],
        deck_position=state.deck_position,
        discarded=[c.id for c in state.discarded],
        pumpkin_on_house=list(state.pumpkin_on_house),
        pumpkin_on_mean_house=list(state.pumpkin_on_mean_house),
        street_flipped=list(state.street_flipped),
        current_player=state.current_player,
        turn=state.turn,
        passes_in_a_row=state.passes_in_a_row,
        end_trigger=state.end_trigger,
    )


def _setup_record(state: GameState) -> _Setup:
    return _setup_of(state.setup)


def _setup_of(setup: Setup) -> _Setup:
    return _Setup(
        grid=[_GridHouse(h.neighbour.id, h.treat) for h in setup.grid],
        street_tokens=[t.treat for t in setup.street_tokens],
        mean_houses=[_MeanHouse(m.icon, m.tile.id) for m in setup.mean_houses],
        secret_tiles=[t.id for t in setup.secret_tiles],
        deck=[c.id for c in setup.deck],
        secret_tiles_face_up=setup.secret_tiles_face_up,
    )


def _digest(document: Mapping[str, Any]) -> str:
    """SHA-256 of the record's canonical JSON, its ``digest`` field left out."""
    content = {k: v for k, v in document.items() if k != "digest"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


_MAX_INDENT = 8  # a record nests a few levels: more spaces only make it larger


def dumps(game: GameState, player: int | None = None, *, indent: int | None = None) -> str:
    """Save ``game`` as JSON text: a game record, or with ``player`` that player's record.

    The game may be new, in progress or over. A player record holds only what ``player`` may
    see (R16) and is what a server sends to that player's client. A state built by hand is
    saved as it is: ``loads(text, verify=False)`` reads it back, while the verified
    ``loads(text)`` refuses it unless its history leads from its deal to it. Raises
    ``RecordError`` for a state that breaks an invariant of the game, as ``loads`` would.
    ``indent`` (0 to 8 spaces) pretty-prints the JSON; None writes it compactly.
    ``ConfigurationError`` if ``game`` is not a ``GameState``: a ``PlayerView`` is saved as
    its player record from its game, ``dumps(game, player=view.player)``.
    """
    if not isinstance(game, GameState):
        raise ConfigurationError(_not_a_game(game))
    if indent is not None and (type(indent) is not int or not 0 <= indent <= _MAX_INDENT):
        raise ConfigurationError(
            f"indent must be None or 0 to {_MAX_INDENT} spaces, got {brief(indent)}"
        )
    if player is not None:
        view = game.view(player)
        if indent is None:
            return _view_text(game, view)
        return strict_dumps(_converter.unstructure(_view_record(game, view)), indent=indent)
    _check_boards(game, "the state")
    _check_invariants(game, "the state")
    if indent is None:
        return _record_text(game, _package_version())
    return strict_dumps(_record_document(game), indent=indent)


def _not_a_game(value: object) -> str:
    if isinstance(value, PlayerView):
        # A view lacks what its record names (the component data's name): the game has it.
        return (
            "dumps saves a game (a GameState), not a PlayerView: save a player's view as "
            "its player record from the game, tt.dumps(game, player=view.player)"
        )
    return f"dumps saves a game (a GameState), got {brief(value)}"


def _record_document(game: GameState) -> dict[str, Any]:
    """The game record of ``game`` as a JSON value, by the converter (the reference writer)."""
    config = game.config
    record = _Record(
        format=RECORD_FORMAT,
        format_version=RECORD_FORMAT_VERSION,
        written_by=_package_version(),
        components=_components_value(game.setup.components),
        custom_components=game.setup.custom_components,
        variants=list(config.variants),
        config=_Config(
            players=list(config.players),
            seed=config.seed,
            first_player=config.first_player,
            any_mean_house=config.any_mean_house,
            refresh_ends_turn=config.refresh_ends_turn,
            variant_options={k: dict(v) for k, v in config.variant_options.items()},
        ),
        rules=game.setup.rules,
        setup=_setup_record(game),
        actions=list(game.history),
        snapshot=_snapshot(game),
        digest=None,
    )
    document: dict[str, Any] = _converter.unstructure(record)
    document["digest"] = _digest(document)
    return document


# -- writing fast ------------------------------------------------------------------------------
# A game record is written in its canonical form (keys sorted, no spaces), the digest put in
# its place among the sorted keys: the text is the JSON the digest is taken over, but for the
# digest itself, so one encoding serves both. The JSON of each immutable part (an action, the
# rules, a box's component data, a game's setup) is worked out once per object and joined.
# Tests compare the result with the reference writer's, _record_document().

_CANONICAL = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, check_circular=False, sort_keys=True, separators=(",", ":")
).encode


def _canonical(value: object) -> str:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8 (not escaped)."""
    try:
        return _CANONICAL(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StrictJSONError(f"cannot be written as JSON: {exc}") from None


def _canonical_record(document: Mapping[str, Any]) -> str:
    """The text ``dumps`` writes for a record ``document`` (the reference, for tests)."""
    return _canonical(document)


_ACTION_TEXTS: dict[int, tuple[Action, str]] = {}


def _actions_text(actions: tuple[Action, ...]) -> str:
    """The log as canonical JSON."""
    cache = _ACTION_TEXTS
    texts = []
    for action in actions:
        entry = cache.get(id(action))
        if entry is None or entry[0] is not action:
            texts.append(_by_identity(cache, action, _action_text))
        else:
            texts.append(entry[1])
    return f"[{','.join(texts)}]"


def _action_text(action: Action) -> str:
    return _canonical(_unstructure_action(action))


_LOG_TEXTS: dict[int, tuple[ActionLog, str]] = {}


def _log_text(log: ActionLog) -> str:
    """``_actions_text`` of the log's actions, extending the text of a recent earlier log.

    A server that saves a game after every move writes the new actions only.
    """
    cache = _LOG_TEXTS
    newest: list[Action] = []
    node = log
    earlier = "[]"
    while node is not None:
        entry = cache.get(id(node))
        if entry is not None and entry[0] is node:  # the entry keeps its node alive
            earlier = entry[1]
            break
        newest.append(node[0])
        node = node[1]
    if not newest:
        return earlier
    newest.reverse()
    added = _actions_text(tuple(newest))
    text = added if earlier == "[]" else f"{earlier[:-1]},{added[1:]}"
    if len(cache) >= 4 * _GAMES_KEPT:
        cache.clear()
    cache[id(log)] = (log, text)
    return text


_SETUP_TEXTS: dict[int, tuple[Setup, tuple[str, str, str, str]]] = {}


def _setup_texts(setup: Setup) -> tuple[str, str, str, str]:
    """The parts of a record that the game's setup decides (immutable, as the setup is).

    The component data; what follows the config (up to the digest); what follows the digest
    (up to the snapshot); the variants, which follow the snapshot.
    """
    components = _by_identity(_PART_TEXTS, setup.components, _components_text)
    rules = _by_identity(_PART_TEXTS, setup.rules, _canonical_of(RulesData))
    variants = _by_identity(_PART_TEXTS, setup.config.variants, _canonical_of(list[VariantRef]))
    return (
        components,
        f',"custom_components":{_canonical(setup.custom_components)}',
        f',"format":{_canonical(RECORD_FORMAT)},"format_version":{RECORD_FORMAT_VERSION}'
        f',"rules":{rules},"setup":{_setup_text(setup)}',
        f',"variants":{variants}',
    )


_PART_TEXTS: dict[int, tuple[Any, str]] = {}


def _canonical_of(kind: Any) -> Callable[[Any], str]:
    return lambda value: _canonical(_converter.unstructure(value, kind))


def _components_text(data: ComponentData) -> str:
    return _canonical(_converter.unstructure(_components_value(data), str | dict[str, Any]))


def _setup_text(setup: Setup) -> str:
    """``_canonical(_converter.unstructure(_setup_of(setup)))``, from the texts of its parts."""
    texts = _by_identity(_BOX_TEXTS, setup.components, _box_texts, _GAMES_KEPT)
    try:
        grid = ",".join(
            [
                f'{{"neighbour":{texts[id(h.neighbour)]},"treat":{texts[id(h.treat)]}}}'
                for h in setup.grid
            ]
        )
        means = ",".join(
            [
                f'{{"icon":{texts[id(m.icon)]},"tile":{texts[id(m.tile)]}}}'
                for m in setup.mean_houses
            ]
        )
        tokens = ",".join([texts[id(t.treat)] for t in setup.street_tokens])
        tiles = ",".join([texts[id(t)] for t in setup.secret_tiles])
        deck = ",".join([texts[id(c)] for c in setup.deck])
    except KeyError:  # parts that are not the box's: write them the general way
        return _canonical(_converter.unstructure(_setup_of(setup)))
    face_up = _canonical(setup.secret_tiles_face_up)
    return (
        f'{{"deck":[{deck}],"grid":[{grid}],"mean_houses":[{means}],"secret_tiles":[{tiles}]'
        f',"secret_tiles_face_up":{face_up},"street_tokens":[{tokens}]}}'
    )


_BOX_TEXTS: dict[int, tuple[ComponentData, dict[int, str]]] = {}


def _box_texts(data: ComponentData) -> dict[int, str]:
    """By identity, how a setup record names each part of ``data`` and each treat and icon.

    Cards by their id, neighbours and tiles by their name. The table is kept with ``data``,
    which keeps the parts alive, so that an identity found in it is that part's.
    """
    texts = {id(member): _canonical(member.value) for member in (*Treat, *TrickIcon)}
    texts.update((id(card), _canonical(card.id)) for card in data.cards)
    texts.update((id(n), _canonical(n.id)) for n in data.nice_neighbours)
    texts.update((id(t), _canonical(t.id)) for t in data.trick_tiles)
    return texts


def _record_text(game: GameState, written_by: str, actions: str | None = None) -> str:
    """The record ``dumps`` writes of ``game`` (without its invariant checks), by pieces.

    ``actions`` is the log's text where the caller has it already.
    """
    setup = game.setup
    config = setup.config
    components, custom, middle, variants = _by_identity(
        _SETUP_TEXTS, setup, _setup_texts, _GAMES_KEPT
    )
    options = config.variant_options
    config_text = _canonical(
        {
            "players": list(config.players),
            "seed": config.seed,
            "first_player": config.first_player,
            "any_mean_house": config.any_mean_house,
            "refresh_ends_turn": config.refresh_ends_turn,
            "variant_options": {k: dict(v) for k, v in options.items()} if options else {},
        }
    )
    if actions is None:
        actions = _log_text(game.log)
    head = f'{{"actions":{actions},"components":{components},"config":{config_text}{custom}'
    tail = (
        f'{middle},"snapshot":{_canonical(_snapshot_value(game))}'
        f'{variants},"written_by":{_canonical(written_by)}}}'
    )
    digest = hashlib.sha256(f"{head}{tail}".encode()).hexdigest()
    return f'{head},"digest":"sha256:{digest}"{tail}'


_TREAT_NAMES = tuple(t.value for t in Treat)


def _snapshot_value(state: GameState) -> dict[str, Any]:
    """``_converter.unstructure(_snapshot(state))``, built directly."""
    trigger = state.end_trigger
    return {
        "players": [
            {
                "name": p.name,
                "kids": [[c.id for c in kid] for kid in p.kids],
                "treats": dict(zip(_TREAT_NAMES, p.treats, strict=True)),
                "pumpkins": p.pumpkins,
                "visited": sorted(p.visited),
                "tricked": sorted(p.tricked),
                "footprints": p.footprints,
            }
            for p in state.players
        ],
        "market": [c.id if c is not None else None for c in state.market],
        "deck_position": state.deck_position,
        "discarded": [c.id for c in state.discarded],
        "pumpkin_on_house": list(state.pumpkin_on_house),
        "pumpkin_on_mean_house": list(state.pumpkin_on_mean_house),
        "street_flipped": list(state.street_flipped),
        "current_player": state.current_player,
        "turn": state.turn,
        "passes_in_a_row": state.passes_in_a_row,
        "end_trigger": None
        if trigger is None
        else {"player": trigger.player, "reason": trigger.reason.value, "turn": trigger.turn},
    }


def _components_value(data: ComponentData) -> str | dict[str, Any]:
    """The base game's data by name; any other data whole, so the record loads anywhere."""
    return data.name if data == base_components() else components_document(data)
