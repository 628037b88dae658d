"""Reading records: ``loads`` and ``loads_view``, by an exact-text path beside the general one.

Both exist because loading is on the hot path of hosts: the exact path deals and replays a
record exactly as ``dumps`` writes it and compares the texts, which proves every check at once;
the general path reads any other text check by check, and names the first that fails.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from tricky_treats._component_files import FILES_ALLOWED
from tricky_treats.actions import Action
from tricky_treats.components import (
    ComponentData,
    CostumeCard,
    Treat,
)
from tricky_treats.dealing import start_game
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.model import (
    ActionLog,
    GameState,
    VariantRef,
)
from tricky_treats.rules import apply as _apply
from tricky_treats.rules import build_player
from tricky_treats.serialization.checks import (
    _check_invariants,
    _check_view,
    _components,
    _game_config,
)
from tricky_treats.serialization.migration import _parse
from tricky_treats.serialization.shapes import (
    MAX_ACTIONS,
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    VIEW_FORMAT,
    RecordError,
    _Config,
    _converter,
    _Record,
    _Setup,
    _structure,
    _structure_action,
    _ViewRecord,
)
from tricky_treats.serialization.texts import _CACHE_SIZE
from tricky_treats.serialization.writing import (
    _action_text,
    _digest,
    _record_text,
    _setup_record,
)
from tricky_treats.views import PlayerView

__all__ = ["loads", "loads_view"]


def _deal(record: _Record, verify: bool) -> GameState:
    """The game's first state, dealt again from its seed, checked against the record."""
    config = _game_config(record.config, record.variants)
    components = _components(record.components)
    # Re-create the component data from the base box and the variants where the game did
    # so, and check the record's copy against it. A game given its own data, or whose
    # variants cannot re-create them here (card-data without its file), uses the copy.
    custom = bool(record.custom_components)
    dealt = None
    if verify and not custom:
        try:
            dealt = start_game(config)
        except TrickyTreatsError:
            dealt = None
        if dealt is not None and dealt.setup.components != components:
            raise RecordError(
                "$.components: the component data in the record are not what its variants make "
                "of the base game's"
            )
    if dealt is None:
        try:
            dealt = start_game(config, components, custom_components=custom)
        except TrickyTreatsError as exc:
            raise RecordError(f"$.config: cannot deal this game here: {exc}") from None
    if record.rules is not None and record.rules != dealt.setup.rules:
        raise RecordError("$.rules: the rules in the record are not those its variants give")
    expected = _setup_record(dealt)
    if record.setup.secret_tiles_face_up is None:  # version 1
        expected = attrs.evolve(expected, secret_tiles_face_up=None)
    if expected != record.setup:
        field = next(
            f.name
            for f in attrs.fields(_Setup)
            if getattr(expected, f.name) != getattr(record.setup, f.name)
        )
        raise RecordError(
            f"$.setup.{field}: the setup in the record is not the one its seed deals with these "
            "components and variants"
        )
    return dealt


def _card(components: ComponentData, card_id: int, path: str) -> CostumeCard:
    if not 0 <= card_id < len(components.cards):
        raise RecordError(f"{path}: no card {card_id} (ids are 0 to {len(components.cards) - 1})")
    return components.cards[card_id]


def _from_snapshot(dealt: GameState, record: _Record) -> GameState:
    snapshot = record.snapshot
    setup = dealt.setup
    components = setup.components
    path = "$.snapshot"
    if len(snapshot.players) != len(dealt.players):
        raise RecordError(f"{path}.players: expected {len(dealt.players)} players")
    players = []
    for seat, (p, old) in enumerate(zip(snapshot.players, dealt.players, strict=True)):
        where = f"{path}.players[{seat}]"
        if set(p.treats) != set(Treat):
            raise RecordError(f"{where}.treats: expected one count per treat")
        try:
            player = build_player(
                setup,
                name=p.name,
                secret_tile=old.secret_tile,
                kids=[
                    [_card(components, c, f"{where}.kids[{k}]") for c in kid]
                    for k, kid in enumerate(p.kids)
                ],
                treats=[p.treats[t] for t in Treat],
                pumpkins=p.pumpkins,
                visited=p.visited,
                tricked=p.tricked,
            )
        except TrickyTreatsError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if player.footprints != p.footprints:
            raise RecordError(
                f"{where}.footprints: {p.footprints}, but the visits leave {player.footprints}"
            )
        players.append(player)
    sizes: dict[str, tuple[list[Any], int]] = {
        "market": (snapshot.market, len(dealt.market)),
        "pumpkin_on_house": (snapshot.pumpkin_on_house, len(dealt.pumpkin_on_house)),
        "pumpkin_on_mean_house": (snapshot.pumpkin_on_mean_house, len(dealt.pumpkin_on_mean_house)),
        "street_flipped": (snapshot.street_flipped, len(dealt.street_flipped)),
    }
    for name, (values, size) in sizes.items():
        if len(values) != size:
            raise RecordError(f"{path}.{name}: expected {size} entries, got {len(values)}")
    if not 0 <= snapshot.deck_position <= len(setup.deck):
        raise RecordError(f"{path}.deck_position: must be from 0 to {len(setup.deck)}")
    seats = range(len(players))
    if snapshot.current_player is not None and snapshot.current_player not in seats:
        raise RecordError(f"{path}.current_player: no seat {snapshot.current_player}")
    trigger = snapshot.end_trigger
    if trigger is not None and trigger.player not in seats:
        raise RecordError(f"{path}.end_trigger.player: no seat {trigger.player}")
    log: ActionLog = None
    for action in record.actions:
        log = (action, log)
    return GameState(
        setup=setup,
        players=tuple(players),
        market=tuple(
            None if c is None else _card(components, c, f"{path}.market[{i}]")
            for i, c in enumerate(snapshot.market)
        ),
        deck_position=snapshot.deck_position,
        discarded=tuple(
            _card(components, c, f"{path}.discarded[{i}]") for i, c in enumerate(snapshot.discarded)
        ),
        pumpkin_on_house=tuple(snapshot.pumpkin_on_house),
        pumpkin_on_mean_house=tuple(snapshot.pumpkin_on_mean_house),
        street_flipped=tuple(snapshot.street_flipped),
        current_player=snapshot.current_player,
        turn=snapshot.turn,
        passes_in_a_row=snapshot.passes_in_a_row,
        end_trigger=trigger,
        log=log,
    )


def _replay(record: _Record, start: GameState) -> GameState:
    """Replay the record's log from the dealt game."""
    state = start
    for index, action in enumerate(record.actions):
        try:
            state = state.apply(action)
        except TrickyTreatsError as exc:
            raise RecordError(f"$.actions[{index}] ({action}): {exc}") from None
    return state


def _check_digest(document: dict[str, Any], written: int) -> None:
    stated = document.get("digest")
    if stated is None and written == 1:
        return  # version 1 had no record digest
    if stated != _digest(document):
        raise RecordError(
            "$.digest: the record was changed after it was written (its digest does not match "
            "its content); it may be truncated, corrupted or edited by hand"
        )


def _check_complete(record: _Record, written: int) -> None:
    if written >= 2:  # the fields version 1 lacked are required from version 2 on
        for path, value in (
            ("$.custom_components", record.custom_components),
            ("$.rules", record.rules),
            ("$.setup.secret_tiles_face_up", record.setup.secret_tiles_face_up),
        ):
            if value is None:
                raise RecordError(f"{path}: required field missing")


def loads(text: str | bytes, *, verify: bool = True, read_files: bool = False) -> GameState:
    """Load a game saved by ``dumps()``; the game plays on exactly like the original.

    With ``verify`` (the default) the game is dealt again from its seed with the installed
    variants (which must have the versions the record names), the component data, rules and
    setup are checked against the record, the log is replayed, and the result is compared
    with the snapshot. With ``verify=False`` the state is built from the snapshot and the
    record's component data alone, and checked only for the game's invariants. Either way
    the record's digest is checked first. Raises ``RecordError`` for anything malformed or
    inconsistent, naming the JSON path or the action at fault.

    A record never makes ``loads`` open or look at a file: a variant that reads a file
    named in its options (``card-data``) is dealt from the record's copy of the component
    data. With ``read_files=True`` (for records you trust) such files are read, and the
    record's copy is checked against them.
    """
    allowed = FILES_ALLOWED.set(bool(read_files))
    try:
        if verify:
            game = _load_exact(text)
            if game is not None:
                return game
        return _load_checked(text, verify=verify)
    finally:
        FILES_ALLOWED.reset(allowed)


def _load_checked(text: str | bytes, *, verify: bool) -> GameState:
    """``loads`` of any record: each check in turn, the first failing one named."""
    document, written = _parse(text, RECORD_FORMAT)
    _check_digest(document, written)
    actions = document.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise RecordError(
            f"$.actions: {len(actions):,} actions, more than the {MAX_ACTIONS:,} a record may hold"
        )
    record = _structure(document, _Record, "$")
    _check_complete(record, written)
    dealt = _deal(record, verify)
    snapshot_state = _from_snapshot(dealt, record)
    _check_invariants(snapshot_state, "$.snapshot")
    if not verify:
        return snapshot_state
    replayed = _replay(record, dealt)
    if replayed != snapshot_state:
        field = next(
            f.name
            for f in attrs.fields(GameState)
            if f.eq and getattr(replayed, f.name) != getattr(snapshot_state, f.name)
        )
        last = len(record.actions) - 1
        raise RecordError(
            f"$.snapshot.{field}: the snapshot disagrees with the state the log gives after "
            f"its last action ($.actions[{last}])"
        )
    return replayed


def _load_exact(text: str | bytes) -> GameState | None:
    """The game of a record exactly as this version's ``dumps`` writes it, or None.

    Deals the game from the record's config and variants, replays its actions and writes the
    record of the result: if that is the text itself (``written_by`` aside), every check of
    the general path holds (strict JSON, digest, variants, component data, rules, setup,
    snapshot; the game's invariants hold in every state the rules reach). Any other text,
    including every one that would be refused, gives None: the general path then reads it
    and names what is wrong. Only the parts needed to deal and replay are parsed; the text
    comparison covers the rest.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_RECORD_BYTES:
            return None
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    elif not isinstance(text, str) or len(text) > MAX_RECORD_BYTES:
        return None
    if not text.startswith(_ACTIONS_KEY) or not text.endswith("}") or not _digest_holds(text):
        return None
    try:
        end = text.index("]", len(_ACTIONS_KEY)) + 1
        log = text[len(_ACTIONS_KEY) - 1 : end]
        actions = _actions_of(log)
        config_at = text.index(',"config":', end) + len(',"config":')
        config_value = _DECODER.raw_decode(text, config_at)[0]
        variants_at = text.rindex(',"variants":') + len(',"variants":')
        variants_value, written_at = _DECODER.raw_decode(text, variants_at)
        if not text.startswith(',"written_by":', written_at):
            return None
        written_by = _DECODER.raw_decode(text, written_at + len(',"written_by":'))[0]
        if type(written_by) is not str:
            return None
        config = _converter.structure(config_value, _Config)
        variants = _converter.structure(variants_value, list[VariantRef])
        state = start_game(_game_config(config, variants))
        apply = _apply
        for action in actions:
            state = apply(state, action, None)
        expected = _record_text(state, written_by, log)
    except Exception:  # the general path reports whatever is wrong
        return None
    return state if expected == text else None


def _digest_holds(text: str) -> bool:
    """Whether ``text``, laid out as ``dumps`` writes it, has the digest of its content.

    Checked before anything is dealt, so that no variant's hook runs for a changed record.
    Also refuses text of more than ``MAX_RECORD_BYTES`` as UTF-8, or not Unicode text.
    """
    at = text.rfind(_DIGEST_KEY)
    start = at + len(_DIGEST_KEY)
    end = start + 64
    if at < 0 or text[end : end + 1] != '"':
        return False
    try:
        content = f"{text[:at]}{text[end + 1 :]}".encode()
    except UnicodeEncodeError:
        return False
    if len(content) + (end + 1 - at) > MAX_RECORD_BYTES:  # the digest's part is ASCII
        return False
    return hashlib.sha256(content).hexdigest() == text[start:end]


_DIGEST_KEY = ',"digest":"sha256:'
_ACTIONS_KEY = '{"actions":['
_DECODER = json.JSONDecoder()
_ACTIONS_BY_TEXT: dict[str, Action] = {}
"""Actions by their canonical JSON, braces left out, as ``_actions_text`` writes them."""


def _actions_of(log: str) -> list[Action]:
    """The actions of a log written by ``_actions_text``; raises ValueError for any other."""
    if log == "[]":
        return []
    if not log.startswith("[{") or not log.endswith("}]"):
        raise ValueError("not a log as records write it")
    pieces = log[2:-2].split("},{")
    if len(pieces) > MAX_ACTIONS:
        raise ValueError("too many actions")
    table = _ACTIONS_BY_TEXT
    try:
        return list(map(table.__getitem__, pieces))
    except KeyError:
        pass
    actions = []
    for piece in pieces:
        action = table.get(piece)
        if action is None:
            action = _structure_action(json.loads(f"{{{piece}}}"), object)
            if _action_text(action) != f"{{{piece}}}":
                raise ValueError("not an action as records write it")
            if len(table) >= _CACHE_SIZE:
                table.clear()
            table[piece] = action
        actions.append(action)
    return actions


def loads_view(text: str | bytes) -> PlayerView:
    """Load a player record written by ``dumps(game, player=i)``; returns that player's view.

    Raises ``RecordError`` for a malformed record, and for one that describes no view the
    engine could produce (a viewer who is not a seat, parts of the wrong size, cards that are
    not those of the box, another player's secret tile shown during the game, variants not
    installed here, ...). Like ``loads``, it never opens a file that the record names.
    """
    allowed = FILES_ALLOWED.set(False)
    try:
        document, _ = _parse(text, VIEW_FORMAT)
        record = _structure(document, _ViewRecord, "$")
        _check_view(record)
    finally:
        FILES_ALLOWED.reset(allowed)
    return record.view
