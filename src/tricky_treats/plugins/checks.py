"""What hooks must return: the checks of rules, component data, boards and declarations."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from tricky_treats.components import (
    ComponentData,
    CostumeCard,
    MeanNeighbour,
    NiceNeighbour,
    RulesData,
    StreetBonusToken,
    Treat,
    TrickTile,
)
from tricky_treats.declaration import PluginError, Variant
from tricky_treats.errors import ComponentDataError, ConfigurationError
from tricky_treats.plugins.messages import _short

__all__: list[str] = []


# -- what hooks must return ----------------------------------------------------------------------


def _tuple_of(kind: type, what: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not isinstance(value, tuple | list):
            return f"not a tuple of {what}"
        for i, item in enumerate(value):
            if not isinstance(item, kind):
                return f"whose item {i} is {_short(item)}, not a {what[:-1]}"
        return None

    return check


def _check_rules(value: Any) -> str | None:
    if not isinstance(value, RulesData):
        return "not a RulesData (return attrs.evolve(rules, ...))"
    for field in attrs.fields(RulesData):
        item = getattr(value, field.name)
        if field.type in (bool, "bool"):
            if not isinstance(item, bool):
                return f"whose {field.name} is {item!r}, not True or False"
        elif not isinstance(item, int) or isinstance(item, bool):
            return f"whose {field.name} is {_short(item)}, not an integer"
    # The same bounds as a component data file's (COMPONENT_LIMITS), checked by building the
    # rules again: a hook may have made its value past the validators (object.__setattr__).
    try:
        RulesData(**{field.name: getattr(value, field.name) for field in attrs.fields(RulesData)})
    except ComponentDataError as exc:
        return f"out of range: {exc}"
    return None


def _check_components(value: Any) -> str | None:
    if not isinstance(value, ComponentData):
        return "not a ComponentData"
    checks: tuple[tuple[str, type, str], ...] = (
        ("cards", CostumeCard, "costume cards"),
        ("nice_neighbours", NiceNeighbour, "nice neighbours"),
        ("mean_neighbours", MeanNeighbour, "mean neighbours"),
        ("house_treat_tokens", Treat, "treats"),
        ("street_bonus_tokens", StreetBonusToken, "street bonus tokens"),
        ("trick_tiles", TrickTile, "trick tiles"),
    )
    for name, kind, what in checks:
        problem = _tuple_of(kind, what)(getattr(value, name))
        if problem is not None:
            return f"whose {name} is {problem}"
    return _check_rules(value.rules)


def _board_problem(board: Any, components: ComponentData, players: int) -> str | None:
    """What is wrong with a dealt board, or None: the types, the counts, the components."""
    from tricky_treats.model import Board, GridHouse, MeanHouse

    if not isinstance(board, Board):
        return "not a Board"
    checks: tuple[tuple[str, type, str], ...] = (
        ("grid", GridHouse, "grid houses"),
        ("street_tokens", StreetBonusToken, "street bonus tokens"),
        ("mean_houses", MeanHouse, "mean houses"),
        ("secret_tiles", TrickTile, "trick tiles"),
        ("deck", CostumeCard, "costume cards"),
    )
    for name, kind, what in checks:
        value: Any = getattr(board, name)
        if not isinstance(value, tuple):
            return f"whose {name} is {_short(value)}, not a tuple of {what}"
        problem = _tuple_of(kind, what)(value)
        if problem is not None:
            return f"whose {name} is {problem}"
    grid: tuple[Any, ...] = board.grid  # checked above: the parts may still be anything
    for i, house in enumerate(grid):
        if not isinstance(house.neighbour, NiceNeighbour) or not isinstance(house.treat, Treat):
            return f"whose grid house {i} is {_short(house)}"
    mean_houses: tuple[Any, ...] = board.mean_houses
    for i, mean in enumerate(mean_houses):
        if not isinstance(mean.neighbour, MeanNeighbour) or not isinstance(mean.tile, TrickTile):
            return f"whose mean house {i} is {_short(mean)}"
    if len(board.grid) != ComponentData.GRID_HOUSES:
        return f"with {len(board.grid)} houses in the grid, not {ComponentData.GRID_HOUSES}"
    if len(board.street_tokens) != ComponentData.STREETS:
        return f"with {len(board.street_tokens)} street bonus tokens, not {ComponentData.STREETS}"
    if len(board.mean_houses) != len(components.mean_neighbours):
        return (
            f"with {len(board.mean_houses)} mean houses, not "
            f"{len(components.mean_neighbours)} (one per mean neighbour of the box)"
        )
    if len(board.secret_tiles) != players:
        return f"with {len(board.secret_tiles)} secret tiles for {players} players"
    if sorted(card.id for card in board.deck) != list(range(len(components.cards))):
        return "whose deck does not hold every costume card of the box exactly once"
    face_up: Any = board.secret_tiles_face_up
    if not isinstance(face_up, bool):
        return f"whose secret_tiles_face_up is {face_up!r}, not a bool"
    return _components_problem(board, components)


class _Box:
    """The identities of a box's components, to check a board dealt from it quickly.

    A board dealt by the base game (or a hook that keeps the box's objects) holds the very
    objects of the box: comparing identities is then enough, and much faster than hashing
    and comparing the values.
    """

    __slots__ = ("cards", "neighbours", "tiles", "tokens")

    def __init__(self, components: ComponentData) -> None:
        # Every card, treat token, street token and mean neighbour is on every board; the
        # cards are distinct objects, the tokens not (a treat is an enum member).
        self.cards = frozenset(map(id, components.cards))
        self.tokens = sorted(
            map(
                id,
                (
                    *components.house_treat_tokens,
                    *components.street_bonus_tokens,
                    *components.mean_neighbours,
                ),
            )
        )
        self.neighbours = frozenset(map(id, components.nice_neighbours))
        self.tiles = frozenset(map(id, components.trick_tiles))

    def sound(self, board: Any, players: int) -> bool:
        """Whether ``board`` is right, found quickly: it holds the box's very objects.

        Each where it may be, in the right numbers. False may still be a right board (of
        equal copies): ``_board_problem`` then says what, if anything, is wrong.
        """
        board_type: Any
        board_type, grid_house, mean_house = _model_types()
        if type(board) is not board_type:
            return False
        grid, mean, secret = board.grid, board.mean_houses, board.secret_tiles
        deck, streets = board.deck, board.street_tokens
        if (
            not type(grid) is type(mean) is type(secret) is type(deck) is type(streets) is tuple
            or len(grid) != ComponentData.GRID_HOUSES
            or len(secret) != players
            or type(board.secret_tiles_face_up) is not bool
            or not all(type(house) is grid_house for house in grid)
            or not all(type(house) is mean_house for house in mean)
        ):
            return False
        neighbours = [house.neighbour for house in grid]
        tiles = [*secret, *(house.tile for house in mean)]
        tokens = [*(house.treat for house in grid), *streets, *(m.neighbour for m in mean)]
        return (
            len(deck) == len(self.cards)
            and self.cards == set(map(id, deck))
            and sorted(map(id, tokens)) == self.tokens
            and self.neighbours.issuperset(map(id, neighbours))
            and self.tiles.issuperset(map(id, tiles))
            and len(set(map(id, neighbours))) == len(neighbours)
            and len(set(map(id, tiles))) == len(tiles)
        )


def _components_problem(board: Any, components: ComponentData) -> str | None:
    """Which component of a (well-typed) board is not the box's, or in two places.

    By value: a hook may build equal copies of the box's components.
    """
    box_cards = components.cards
    if any(card is not box_cards[card.id] and card != box_cards[card.id] for card in board.deck):
        return "whose deck holds a card that differs from the box's card of that id"
    nice = {n.id: n for n in components.nice_neighbours}
    grid = [house.neighbour for house in board.grid]
    if len({n.id for n in grid}) != len(grid):
        return "with a nice neighbour in two houses"
    if any(nice.get(n.id) != n for n in grid):
        return "with a nice neighbour that is not the box's"
    if Counter(house.treat for house in board.grid) != Counter(components.house_treat_tokens):
        return "whose grid's treat tokens are not the box's"
    if Counter(board.street_tokens) != Counter(components.street_bonus_tokens):
        return "whose street bonus tokens are not the box's"
    if Counter(m.neighbour for m in board.mean_houses) != Counter(components.mean_neighbours):
        return "whose mean houses are not the box's mean neighbours"
    tiles = {t.id: t for t in components.trick_tiles}
    in_play = [*board.secret_tiles, *(m.tile for m in board.mean_houses)]
    if len({t.id for t in in_play}) != len(in_play):
        return "with a trick tile in two places (a secret tile must lie nowhere else)"
    if any(tiles.get(t.id) != t for t in in_play):
        return "with a trick tile that is not the box's"
    return None


def _check_declaration(variant: Any) -> None:
    """Raise PluginError if ``variant``'s declared attributes have the wrong types.

    ``Variant`` has no validators (a plugin may build one any way it likes), so the types
    are checked here, once per game, cheaply.
    """
    problem = None
    if not isinstance(variant, Variant):
        raise ConfigurationError(
            f"variants must be variant names or tricky_treats.Variant objects, got {variant!r}"
        )
    declared: Any = variant  # the attributes may hold anything, whatever their annotations
    if not isinstance(declared.players, tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in declared.players
    ):
        problem = f"players={declared.players!r}, not a tuple of player counts such as (2, 3, 4)"
    elif not isinstance(declared.incompatible_with, tuple) or not all(
        isinstance(n, str) for n in declared.incompatible_with
    ):
        problem = f"incompatible_with={declared.incompatible_with!r}, not a tuple of variant names"
    elif not isinstance(declared.version, str):
        problem = f"version={declared.version!r}, not a string"
    elif not isinstance(declared.public_scoring, bool):
        problem = f"public_scoring={declared.public_scoring!r}, not True or False"
    if problem is not None:
        raise PluginError(
            f"variant {variant.name!r} from {variant.distribution!r} declares {problem}"
        )


def _same_parts(before: Any, after: Any) -> bool:
    """Whether a board hook's ``after`` holds ``before``'s very parts, and a bool flag.

    That is ``attrs.evolve`` of the flag, as ``open-objectives`` does: nothing else needs
    checking again.
    """
    board_type: Any = _model_types()[0]
    return (
        type(after) is board_type
        and after.grid is before.grid
        and after.street_tokens is before.street_tokens
        and after.mean_houses is before.mean_houses
        and after.secret_tiles is before.secret_tiles
        and after.deck is before.deck
        and type(after.secret_tiles_face_up) is bool
    )


def _moved_problem(before: Any, after: Any) -> str | None:
    """How ``after`` (a checked board) holds other components than ``before``, or None.

    Both boards hold every card, treat token, street token and mean neighbour of the box
    (``_board_problem``); only which trick tiles and nice neighbours are on the board can
    differ.
    """
    tiles = {t.id for t in before.secret_tiles} | {m.tile.id for m in before.mean_houses}
    if tiles != {t.id for t in after.secret_tiles} | {m.tile.id for m in after.mean_houses}:
        return "with other trick tiles than the deal's"
    if {h.neighbour.id for h in before.grid} != {h.neighbour.id for h in after.grid}:
        return "with other nice neighbours than the deal's"
    return None


@functools.cache
def _model_types() -> tuple[type, type, type]:
    from tricky_treats.model import Board, GridHouse, MeanHouse  # model imports plugins

    return Board, GridHouse, MeanHouse
