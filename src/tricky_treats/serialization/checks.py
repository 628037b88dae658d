"""What a record must agree with: the game's invariants, the installed variants, a view's sizes.

``_check_invariants`` refuses a state that no sequence of legal actions reaches (used by
``dumps`` and by ``loads(verify=False)``); ``_game_config`` refuses variants that are not
installed here in the versions a record names; ``_check_view`` refuses a player record the
engine could not have produced.
"""

from __future__ import annotations

from typing import Any

from tricky_treats.actions import Action
from tricky_treats.components import (
    ComponentData,
    CostumeType,
    RulesData,
    base_components,
    parse_components,
)
from tricky_treats.dealing import check_variant_options
from tricky_treats.errors import TrickyTreatsError, brief
from tricky_treats.model import (
    STREETS,
    GameConfig,
    GameState,
    VariantRef,
)
from tricky_treats.plugins import resolve, variant_registry
from tricky_treats.rules import build_player
from tricky_treats.serialization.shapes import RecordError, _Config, _listed, _ViewRecord
from tricky_treats.views import PlayerView

__all__: list[str] = []


# -- invariants ----------------------------------------------------------------------------------


def _check_boards(state: GameState, where: str) -> None:
    """Refuse a board the rules cannot produce, as ``loads`` refuses it (``build_player``).

    Two cards of one type on a kid, more visits than footprints, a footprint count that is
    not what the visits leave of the supply (R6), ...
    """
    for seat, board in enumerate(state.players):
        path = f"{where}: player {seat}"
        try:
            built = build_player(
                state.setup,
                name=board.name,
                secret_tile=board.secret_tile,
                kids=board.kids,
                treats=board.treats,
                pumpkins=board.pumpkins,
                visited=board.visited,
                tricked=board.tricked,
            )
        except TrickyTreatsError as exc:
            raise RecordError(f"{path}: {exc}") from None
        if built.footprints != board.footprints:
            raise RecordError(
                f"{path} has {board.footprints} footprints left, but the visits leave "
                f"{built.footprints} (R6)"
            )


def _check_invariants(state: GameState, where: str) -> None:
    """Refuse a state that no sequence of legal actions can reach, naming the broken rule.

    ``build_player`` has already checked each board on its own (two cards of a type on a
    kid, more visits than footprints); these are the checks across the whole state.
    """
    setup = state.setup
    players = state.players
    n = len(players)
    problems: list[str] = []
    revealed = [c.id for c in setup.deck[: state.deck_position]]
    held = [c.id for p in players for kid in p.kids for c in kid]
    held += [c.id for c in state.market if c is not None] + [c.id for c in state.discarded]
    if len(held) != len(revealed) or sorted(held) != sorted(revealed):
        problems.append(
            "cards are not conserved: the kids, the market and the discards must hold exactly "
            f"the {len(revealed)} cards revealed from the deck, and hold {len(held)}"
        )
    if any(c is None for c in state.market) and state.deck_position < len(setup.deck):
        problems.append("a market slot is empty while the deck still has cards (R9)")
    for seat, p in enumerate(players):
        unreached = [
            h
            for h in sorted(p.visited)
            if p.count(setup.grid[h].neighbour.wants) < setup.grid[h].neighbour.minimum
        ]
        if unreached:
            problems.append(
                f"player {seat} visited nice house {unreached[0]}, which their cards do not "
                "reach (R5)"
            )
        dealt = setup.secret_tiles[seat]
        if p.secret_tile is not dealt and p.secret_tile != dealt:
            problems.append(f"player {seat}'s secret tile is not the one dealt")
    taken = sum(p.pumpkins for p in players)
    left = state.pumpkin_on_house.count(False) + state.pumpkin_on_mean_house.count(False)
    if taken != left:
        problems.append(f"the players hold {taken} pumpkins, but {left} were taken (R6)")
    if not all(state.pumpkin_on_house):
        visited = frozenset().union(*(p.visited for p in players))
        for house, there in enumerate(state.pumpkin_on_house):
            if not there and house not in visited:
                problems.append(f"the pumpkin of nice house {house} is gone, yet nobody visited it")
    if not all(state.pumpkin_on_mean_house):
        tricked = frozenset().union(*(p.tricked for p in players))
        for house, there in enumerate(state.pumpkin_on_mean_house):
            if not there and house not in tricked:
                problems.append(f"the pumpkin of mean house {house} is gone, yet nobody tricked it")
    for street, flipped in enumerate(state.street_flipped):
        if flipped:
            houses = STREETS[street] if street < len(STREETS) else ()
            if not any(set(houses) <= p.visited for p in players):
                problems.append(f"street {street}'s token is flipped, yet nobody completed it (R7)")
    first = setup.config.first_player
    if state.turn < 0 or state.passes_in_a_row < 0:
        problems.append("turn and passes_in_a_row must not be negative")
    if state.passes_in_a_row > state.turn:
        problems.append(f"{state.passes_in_a_row} passes in a row in {state.turn} turns")
    trigger = state.end_trigger
    if state.current_player is None:
        if trigger is None:
            problems.append("the game is over, but nothing triggered its end (R10)")
        elif state.turn % n or state.turn == 0:  # every player had as many turns (R10)
            problems.append("the game is over before the round was finished (R10)")
    elif state.current_player != (first + state.turn) % n:
        problems.append(
            f"player {state.current_player} is to act in turn {state.turn}, but the seat whose "
            f"turn it is is {(first + state.turn) % n}"
        )
    if trigger is not None and not 0 <= trigger.turn <= state.turn:
        problems.append(f"the end was triggered in turn {trigger.turn}, after turn {state.turn}")
    if trigger is None and (
        state.deck_position >= len(setup.deck)
        or any(p.footprints == 0 for p in players)
        or any(all(len(kid) == len(CostumeType) for kid in p.kids) for p in players)
    ):
        problems.append("the end must have been triggered (R10), but the state records no trigger")
    if problems:
        raise RecordError(f"{where} is not one the rules can reach: {_listed(problems)}")


def _components(value: str | dict[str, Any]) -> ComponentData:
    base = base_components()
    if isinstance(value, dict):
        try:
            return parse_components(value, "$.components")
        except TrickyTreatsError as exc:
            raise RecordError(str(exc)) from None
    if value != base.name:
        raise RecordError(
            f"$.components: the record was played with component data {brief(value)}, which is "
            "not available here"
        )
    return base


def _game_config(config: _Config, variants: list[VariantRef]) -> GameConfig:
    registry = variant_registry()
    for index, ref in enumerate(variants):
        where = f"$.variants[{index}]"
        if ref.name not in registry.names:
            raise RecordError(
                f"{where}: the game was played with variant {brief(ref.name)} "
                f"(version {brief(ref.version)}), which is not installed here"
            )
        try:
            installed = registry.get(ref.name).version
        except TrickyTreatsError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if installed != ref.version:
            raise RecordError(
                f"{where}: the game was played with version {brief(ref.version)} of variant "
                f"{ref.name!r}, but version {installed!r} is installed here; install that "
                "version to load it"
            )
    return GameConfig(
        players=tuple(config.players),
        seed=config.seed,
        first_player=config.first_player,
        any_mean_house=config.any_mean_house,
        refresh_ends_turn=config.refresh_ends_turn,
        variants=tuple(variants),
        variant_options=_options(config.variant_options, variants, "$.config.variant_options"),
    )


def _options(
    options: dict[str, dict[str, Any]], variants: list[VariantRef], path: str
) -> dict[str, dict[str, Any]]:
    """The record's variant options, checked as ``new_game`` checks them."""
    try:
        return check_variant_options(options, [ref.name for ref in variants])
    except TrickyTreatsError as exc:
        raise RecordError(f"{path}: {exc}") from None


def _box_of(record: _ViewRecord) -> ComponentData | None:
    """The component data of the view's game where they can be made here, else None.

    The base game's, or what the record's variants make of them; None for a game given its
    own data, or whose variants make them from a file.
    """
    base = base_components()
    if record.components != base.name:
        return None
    if not record.variants:
        return base
    config = _game_config(
        _Config(
            players=record.players,
            seed=0,
            first_player=0,
            any_mean_house=record.any_mean_house,
            refresh_ends_turn=record.refresh_ends_turn,
            variant_options=record.view.variant_options,
        ),
        record.variants,
    )
    registry = variant_registry()
    try:
        data = resolve(config, [registry.get(ref.name) for ref in record.variants]).components
    except TrickyTreatsError:
        return None
    return data if data.name == record.components else None


def _check_view(record: _ViewRecord) -> None:
    """Refuse a view the engine could not have produced, naming the first problems."""
    view = record.view
    rules = view.rules
    n = len(view.players)
    problems: list[str] = []

    def seat(value: int | None, name: str) -> None:
        if value is not None and not 0 <= value < n:
            problems.append(f"{name}: no seat {value} among {n} players")

    if not rules.min_players <= n <= rules.max_players:
        problems.append(
            f"players: {n} players, the rules allow {rules.min_players} to {rules.max_players}"
        )
    if [p.name for p in view.players] != record.players:
        problems.append("players: the view's players are not the record's")
    if record.variants != list(view.variants):
        problems.append("variants: the view's variants are not the record's")
    _options(view.variant_options, record.variants, "$.view.variant_options")
    seat(view.player, "view.player")
    seat(view.first_player, "view.first_player")
    seat(view.current_player, "view.current_player")
    if view.end_trigger is not None:
        seat(view.end_trigger.player, "view.end_trigger.player")
    sizes = {
        "secret_tiles": (len(view.secret_tiles), n),
        "scores": (len(view.scores), n),
        "grid": (len(view.grid), 9),
        "pumpkin_on_house": (len(view.pumpkin_on_house), len(view.grid)),
        "street_tokens": (len(view.street_tokens), 6),
        "street_flipped": (len(view.street_flipped), len(view.street_tokens)),
        "pumpkin_on_mean_house": (len(view.pumpkin_on_mean_house), len(view.mean_houses)),
        "mean_houses": (len(view.mean_houses), 3),
        "market": (len(view.market), rules.market_size),
        "deck_cards": (len(view.deck_cards), view.deck_size),
    }
    problems += [
        f"view.{name}: {got} entries, expected {want}"
        for name, (got, want) in sizes.items()
        if got != want
    ]
    if problems:  # the checks below index by these sizes
        raise RecordError(f"$.view describes no game: {_listed(problems)}")
    if view.secret_tiles[view.player] is None:
        problems.append("view.secret_tiles: the viewer's own secret tile is missing")
    shown = [p for p, t in enumerate(view.secret_tiles) if t is not None and p != view.player]
    # Only a variant deals the secret tiles face up, and then all of them.
    if shown and not view.is_over and (not record.variants or len(shown) != n - 1):
        problems.append(
            "view.secret_tiles: another player's secret tile is shown while the game goes on"
        )
    if [s.player for s in view.scores] != list(range(n)):
        problems.append("view.scores: expected one score sheet per seat, in seat order")
    if view.legal_actions and view.current_player != view.player:
        problems.append("view.legal_actions: the viewer may act only in their turn")
    space = set(_action_space_of(rules, view))
    if any(action not in space for action in view.legal_actions):
        problems.append("view.legal_actions: an action that is not of this game")
    footprints = rules.footprints_per_player
    for i, p in enumerate(view.players):
        if len(p.kids) != rules.kids_per_player:
            problems.append(f"view.players[{i}].kids: expected {rules.kids_per_player} kids")
        for k, kid in enumerate(p.kids):
            if len({c.type for c in kid}) != len(kid):
                problems.append(f"view.players[{i}].kids[{k}]: two cards of one type (R2)")
        if not p.visited <= set(range(len(view.grid))) or not p.tricked <= set(range(3)):
            problems.append(f"view.players[{i}]: a visit to a house that does not exist")
        if p.footprints != footprints - len(p.visited) - len(p.tricked) or p.footprints < 0:
            problems.append(f"view.players[{i}].footprints: not what the visits leave (R6)")
        if any(t < 0 for t in p.treats) or p.pumpkins < 0:
            problems.append(f"view.players[{i}]: negative treats or pumpkins")
    cards = [c for p in view.players for kid in p.kids for c in kid]
    cards += [c for c in view.market if c is not None] + [*view.discarded, *view.deck_cards]
    if len({c.id for c in cards}) != len(cards):
        problems.append("cards: a card is in two places at once")
    data = _box_of(record)
    if data is not None:  # variants may edit the box (family plays 36 cards), keeping its name
        box = data.cards
        if any(not 0 <= c.id < len(box) or box[c.id] != c for c in cards):
            box_name = "the box its variants make" if record.variants else "the base game's box"
            problems.append(f"cards: a card that is not the card of that id in {box_name}")
        elif len(cards) != len(box):
            problems.append(f"cards: {len(cards)} cards in the view, the box has {len(box)}")
    if problems:
        raise RecordError(f"$.view describes no game the engine could produce: {_listed(problems)}")


def _action_space_of(rules: RulesData, view: PlayerView) -> tuple[Action, ...]:
    from tricky_treats.actions import ActionSpace

    space = ActionSpace(
        rules.market_size, rules.kids_per_player, len(view.grid), len(view.mean_houses)
    )
    return space.actions
