"""The hooks a variant plugin can implement (pluggy project name ``tricky_treats``).

Hooks are called when a game is created, never while it is played: listing legal actions
and applying actions never call pluggy. The base game implements every hook itself
(``tricky_treats.variants.base``), registered as the lowest-priority implementation, so a
variant only implements what it changes.

The component, card, neighbour, tile, rules and scoring hooks are **resolved once per
combination**: the variants (the very ``Variant`` objects), their options, the player count
and the rule options of ``config``. What they return is kept (for the most recently used
combinations) and reused by every game of that combination. They receive a ``config``
whose player names, seed and first player are placeholders: what they return must depend
only on what makes the combination, never on a particular game. ``tricky_treats_deal`` and
``tricky_treats_board`` are called for **every game**, with that game's ``config`` and
``rng``, directly (without pluggy). What each hook returns is checked; a wrong kind of value
raises ``PluginError`` naming the variant.

Three kinds of hook:

- **Edit hooks** receive the current value and return a changed value, or None to leave it
  as it is. They are applied in order: the base game first, then the variants in the order
  they were given to ``new_game``; each receives what the ones before returned.
- **Replace hooks** (``firstresult``) return a value or None; the first variant that returns
  a value wins and the base game's is used when none does. Two variants of one game that both
  implement the same replace hook cannot be combined.
- **Collect hooks** return a value or None; every value returned is kept.

Every hook receives ``config``, the ``GameConfig`` of the game being
created; ``config.variant_options[name]`` holds the options given for variant ``name``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from tricky_treats.components import (
        ComponentData,
        CostumeCard,
        NiceNeighbour,
        RulesData,
        TrickTile,
    )
    from tricky_treats.model import Board, GameConfig, GameState
    from tricky_treats.scoring import ExtraScore

__all__ = ["PROJECT", "hookimpl", "hookspec"]

PROJECT = "tricky_treats"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)
"""Mark a function or method as the implementation of one of the hooks below."""


@hookspec(firstresult=True)
def tricky_treats_components(config: GameConfig) -> ComponentData | None:
    """Replace the whole box: cards, houses, tokens, tiles and the numbers in ``rules``.

    Replace hook. Called first. The base game returns the package's component data. The
    ``card-data`` variant returns data read from a file.
    """


@hookspec
def tricky_treats_costume_cards(
    cards: tuple[CostumeCard, ...], config: GameConfig
) -> tuple[CostumeCard, ...] | None:
    """Edit the costume deck (before it is shuffled). Card ids must stay 0 to n - 1.

    Edit hook. Return the new cards, or None to keep ``cards``.
    """


@hookspec
def tricky_treats_nice_neighbours(
    neighbours: tuple[NiceNeighbour, ...], config: GameConfig
) -> tuple[NiceNeighbour, ...] | None:
    """Edit the nice neighbours: what each wants to see and its tiers. At least 9 must remain.

    Edit hook. Return the new neighbours, or None to keep ``neighbours``.
    """


@hookspec
def tricky_treats_trick_tiles(
    tiles: tuple[TrickTile, ...], config: GameConfig
) -> tuple[TrickTile, ...] | None:
    """Edit the trick tiles. There must remain one per mean house and one per player.

    Edit hook. Return the new tiles, or None to keep ``tiles``.
    """


@hookspec
def tricky_treats_rules(rules: RulesData, config: GameConfig) -> RulesData | None:
    """Edit the game's numbers and switches.

    They are the player-count limits, kids, footprints, market size, pumpkin points, and the
    options ``any_mean_house`` and ``refresh_ends_turn``. Edit hook. The
    base game applies the options named in ``config``. Return the new
    ``RulesData`` (``attrs.evolve(rules, ...)``), or None.
    """


@hookspec(firstresult=True)
def tricky_treats_deal(
    config: GameConfig, components: ComponentData, rules: RulesData, rng: random.Random
) -> Board | None:
    """Deal the board: the grid, street tokens, mean houses with tiles, secret tiles, deck.

    Replace hook. ``rng`` is the game's own ``random.Random(config.seed)``: draw from it and
    from nothing else, so that the seed deals the same board every time. The base game
    follows the rulebook's setup.
    """


@hookspec
def tricky_treats_board(board: Board, config: GameConfig) -> Board | None:
    """Edit the dealt board, for example to deal the secret tiles face up.

    Edit hook, called once after ``tricky_treats_deal``. Return a changed
    ``Board`` (``attrs.evolve(board, ...)``), or None. Keep every
    component where the deal put it or somewhere else on the board: cards and tiles must
    not appear or vanish.
    """


@hookspec
def tricky_treats_scoring(
    config: GameConfig, rules: RulesData
) -> Callable[[GameState, int], Sequence[ExtraScore]] | None:
    """Add to the scoring: return a function that gives a player's extra score lines.

    Collect hook, called once per combination; every returned function is kept and called,
    without pluggy, each time a score sheet is made (at any time, R24), with the state and
    the player's seat. It must return a list or tuple of ``ExtraScore``; its lines add to
    the player's total. If it raises or returns anything else, ``scores()`` and ``view()``
    raise ``PluginError`` naming the variant. It sees the whole state, hidden information
    included: a player's view shows other players' lines only once the game is over, unless
    the variant sets ``Variant.public_scoring`` to say its lines read public information
    only. Return None to add nothing. The base game adds nothing.
    """
