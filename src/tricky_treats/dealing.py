"""Creating a game: resolving its variants' hooks once, then dealing from the seed."""

from __future__ import annotations

import _random
import itertools
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import attrs

from tricky_treats._json import (
    MAX_OPTIONS_BYTES,
    MAX_OPTIONS_DEPTH,
    StrictJSONError,
    check_json_value,
)
from tricky_treats.components import (
    ComponentData,
    RulesData,
    Treat,
)
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.model import (
    GameConfig,
    GameState,
    PlayerState,
    Setup,
    VariantRef,
)
from tricky_treats.plugins import Resolution, Variant, resolve, variant_registry

__all__ = [
    "Draw",
    "check_config",
    "check_variant_options",
    "deal_draws",
    "deal_from_draws",
    "new_game",
    "start_game",
]


def new_game(
    players: int | Sequence[str] = 2,
    seed: int | None = None,
    *,
    first_player: int = 0,
    any_mean_house: bool = False,
    refresh_ends_turn: bool = False,
    variants: Iterable[str | Variant] = (),
    variant_options: Mapping[str, Mapping[str, Any]] | None = None,
    components: ComponentData | None = None,
) -> GameState:
    """Deal a new game and return its first state.

    ``players`` is a player count or a sequence of player names. All randomness comes from
    ``seed``; without one a fresh seed is drawn from the operating system and recorded in
    ``game.config.seed``, so every game can be dealt again. ``first_player`` is the seat that
    starts (R20). ``any_mean_house`` and ``refresh_ends_turn`` switch on the options of R4 and
    R8. ``variants`` names variants (see ``tricky_treats.available_variants()``) to combine,
    in order; ``variant_options`` gives options per variant name. ``components`` replaces the
    component data (and skips the variants' component hooks).

    Raises ``ConfigurationError`` if the game cannot be created as asked,
    ``PluginError`` if a variant's plugin is broken.

    >>> game = new_game(players=["Ann", "Bo", "Cy"], seed=42)
    >>> game.current_player, len(game.legal_actions()) > 0
    (0, True)
    """
    if seed is None:
        seed = secrets.randbits(63)
    dealer = _Dealer(
        players,
        first_player=first_player,
        any_mean_house=any_mean_house,
        refresh_ends_turn=refresh_ends_turn,
        variants=variants,
        variant_options=variant_options,
        components=components,
    )
    return dealer.game(seed)


class _Dealer:
    """``new_game`` of one configuration for many seeds: its arguments checked once.

    ``game(seed)`` is ``new_game(players, seed=seed, ...)`` with the arguments given here
    (``new_game`` is written so); the vector env deals its games with it, skipping the
    checks of the players, variants and options that do not depend on the seed.
    """

    __slots__ = (
        "_chosen",
        "_components",
        "_first_player",
        "_names",
        "_options",
        "_players",
        "_refs",
        "_rules",
    )

    def __init__(
        self,
        players: int | Sequence[str],
        *,
        first_player: int,
        any_mean_house: bool,
        refresh_ends_turn: bool,
        variants: Iterable[str | Variant],
        variant_options: Mapping[str, Mapping[str, Any]] | None,
        components: ComponentData | None,
    ) -> None:
        chosen: list[Variant] = []
        options: dict[str, dict[str, Any]] = {}
        refs: tuple[VariantRef, ...] = ()
        if variants != () or variant_options is not None:  # else the base game: no checks
            chosen = _variants(variants)
            options = check_variant_options(variant_options, [v.name for v in chosen])
            refs = tuple([_variant_ref(v) for v in chosen])
        self._chosen, self._options, self._refs = chosen, options, refs
        self._players = players
        self._names: tuple[str, ...] | None = None  # checked after the seed, as ever
        self._first_player = first_player
        self._rules = (bool(any_mean_house), bool(refresh_ends_turn))
        self._components = _checked_components(components)

    @property
    def base_game(self) -> bool:
        """Whether its games are the base game's, from the base box: no variant, no data."""
        return not self._chosen and self._components is None

    def config(self, seed: int) -> GameConfig:
        """The configuration of ``new_game(seed=seed)``'s game: the seed checked, then the names."""
        check_seed(seed)
        names = self._names
        if names is None:
            names = self._names = _player_names(self._players)
        return GameConfig(
            names,
            seed,
            self._first_player,
            *self._rules,
            self._refs,
            self._options,
        )

    def setup(self, seed: int) -> Setup:
        """The setup ``new_game(seed=seed)`` deals (its first state: ``_first_state``)."""
        components = self._components
        return _setup(
            self.config(seed), self._chosen, components, custom_components=components is not None
        )

    def resolution(self, config: GameConfig) -> Resolution:
        """What the variants resolve to for games of ``config`` (``plugins.resolve``)."""
        return resolve(config, self._chosen, self._components)

    @property
    def variants(self) -> tuple[Variant, ...]:
        """The variants of its games, in order."""
        return tuple(self._chosen)

    def game(self, seed: int) -> GameState:
        """``new_game(seed=seed)`` with this dealer's arguments."""
        return _first_state(self.setup(seed))


def start_game(
    config: GameConfig,
    components: ComponentData | None = None,
    *,
    custom_components: bool = False,
) -> GameState:
    """The first state of the game ``config`` describes, its variants looked up by name.

    With ``components`` (a saved game's final component data) the variants' component hooks
    are not called again; ``custom_components`` says whether the game was given its own
    component data. Raises ConfigurationError for a variant that is not installed.
    """
    registry = variant_registry()
    variants = [registry.get(ref.name) for ref in config.variants]
    components = _checked_components(components)
    return _start(config, variants, components, custom_components=custom_components)


def _checked_components(components: object) -> ComponentData | None:
    """``components`` if it is None or component data; ConfigurationError naming it if not."""
    if components is None or isinstance(components, ComponentData):
        return components
    raise ConfigurationError(
        f"components must be a ComponentData (from tt.load_components() or "
        f"tt.base_components()), got {brief(components)}"
    )


def _start(
    config: GameConfig,
    variants: Sequence[Variant],
    components: ComponentData | None,
    *,
    custom_components: bool,
    rng: random.Random | None = None,
) -> GameState:
    if variants and len({v.name for v in variants}) != len(variants):
        raise ConfigurationError(f"a variant is given twice: {[v.name for v in variants]}")
    return _first_state(
        _setup(config, variants, components, custom_components=custom_components, rng=rng)
    )


def _setup(
    config: GameConfig,
    variants: Sequence[Variant],
    components: ComponentData | None,
    *,
    custom_components: bool,
    rng: random.Random | None = None,
) -> Setup:
    resolution = resolve(config, variants, components)
    check_config(config, resolution.rules)
    board = resolution.deal(config, _seeded_random(config.seed) if rng is None else rng)
    return Setup(
        config,
        resolution.components,
        resolution.rules,
        board.grid,
        board.street_tokens,
        board.mean_houses,
        board.secret_tiles,
        board.deck,
        board.secret_tiles_face_up,
        custom_components,
        resolution.scorers,
    )


def _seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)``, seeded once: its ``__init__`` seeds twice, in Python."""
    if not _SEEDING_AGREES:  # pragma: no cover - another Python's Random
        return random.Random(seed)
    return _seeded_once(seed)


def _seeded_once(seed: int) -> random.Random:
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.seed() also sets
    return rng


def _seeding_agrees() -> bool:
    """Whether ``_seeded_once`` gives what ``random.Random`` gives on this Python."""
    seeds = (0, 1, 2**32, 2**63 - 1, 2**128 - 1)
    return all(_seeded_once(s).getstate() == random.Random(s).getstate() for s in seeds)


_SEEDING_AGREES = _seeding_agrees()


MAX_SEED = 2**128
"""Seeds are whole numbers below this (``new_game`` draws 63 bits when given none)."""
MAX_NAME_LENGTH = 64
"""The longest player name, in characters."""
MAX_VARIANTS = 16
"""The most variants one game combines."""


def _not_players(players: object) -> str:
    return f"players must be a count or a list of names, got {brief(players)}"


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """The players' names, checked before anything grows with their number."""
    if isinstance(players, bool):
        raise ConfigurationError(_not_players(players))
    if isinstance(players, int):
        if not 0 <= players <= _MAX_PLAYERS:
            raise ConfigurationError(
                f"a game has at most {_MAX_PLAYERS} players (the base game 2 to 4), "
                f"got {brief(players)}"
            )
        return _NUMBERED[players]
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigurationError(_not_players(players))
    if len(players) > _MAX_PLAYERS:
        raise ConfigurationError(
            f"a game has at most {_MAX_PLAYERS} players (the base game 2 to 4), got {len(players)}"
        )
    return tuple(players)


_MAX_PLAYERS = 8  # the most any component data allows (components' limits)


# The names of players given by number, one shared tuple per count: check_config knows them.
_NUMBERED = {
    count: tuple(f"Player {i + 1}" for i in range(count)) for count in range(_MAX_PLAYERS + 1)
}


def _variants(variants: Iterable[str | Variant]) -> list[Variant]:
    """The variants asked for, looked up by name where given by name."""
    if isinstance(variants, str | Variant):
        variants = [variants]  # one variant given on its own
    try:
        asked = list(itertools.islice(variants, MAX_VARIANTS + 1))
    except TypeError:
        raise ConfigurationError(
            f"variants must be a list of variant names, got {brief(variants)}"
        ) from None
    if len(asked) > MAX_VARIANTS:
        raise ConfigurationError(f"a game combines at most {MAX_VARIANTS} variants")
    registry = variant_registry()
    chosen = []
    for variant in asked:
        if isinstance(variant, str):
            chosen.append(registry.get(variant))
        elif isinstance(variant, Variant):
            chosen.append(variant)
        else:
            raise ConfigurationError(
                f"variants are given by name (see tricky_treats.available_variants()) or as "
                f"Variant objects, got {brief(variant)}"
            )
    return chosen


def _variant_ref(variant: Variant) -> VariantRef:
    """How a game names ``variant``; one shared, immutable reference per variant object."""
    entry = _REFS.get(id(variant))
    if entry is None or entry[0] is not variant:
        if len(_REFS) >= 64:
            _REFS.clear()
        entry = _REFS[id(variant)] = (variant, VariantRef(variant.name, variant.version))
    return entry[1]


# By the variant's id; the entry holds the variant, so that no other object has its id.
_REFS: dict[int, tuple[Variant, VariantRef]] = {}


def check_variant_options(
    variant_options: Mapping[str, Mapping[str, Any]] | None, variants: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``variant_options`` as plain dicts, checked to name only ``variants``.

    The options must be small, strict JSON: Unicode text, at most ``MAX_OPTIONS_DEPTH``
    levels and ``MAX_OPTIONS_BYTES``.

    ``new_game`` and the readers of records check options with this one function, so that a
    record holds only options that ``new_game`` takes. Raises ``ConfigurationError``.
    """
    if variant_options is None:
        return {}
    shape = (
        "variant_options must map variant names to option mappings, as "
        "{'card-data': {'path': 'my.toml'}}"
    )
    if not isinstance(variant_options, Mapping):
        raise ConfigurationError(f"{shape}, got {brief(variant_options)}")
    unknown = [name for name in variant_options if name not in variants]
    if unknown:
        shown = brief(sorted(unknown, key=str)[:3], 200)
        raise ConfigurationError(f"variant_options names variants not in the game: {shown}")
    options: dict[str, dict[str, Any]] = {}
    for name, value in variant_options.items():
        if not isinstance(name, str) or not isinstance(value, Mapping):
            raise ConfigurationError(f"{shape}, got {brief(name)}: {brief(value)}")
        options[name] = dict(value)
    try:
        check_json_value(options, max_depth=MAX_OPTIONS_DEPTH + 2, max_bytes=MAX_OPTIONS_BYTES)
    except StrictJSONError as exc:
        raise ConfigurationError(
            f"variant_options must be small, strict JSON values: {exc}"
        ) from None
    return options


def check_seed(seed: int) -> None:
    """Raise ``new_game``'s ConfigurationError for a seed it does not take."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise ConfigurationError(
            f"seed must be a whole number from 0 to 2**128 - 1, got {brief(seed)}"
        )


def check_config(config: GameConfig, rules: RulesData) -> None:
    """Raise ConfigurationError if a game of ``config`` cannot be played under ``rules``."""
    low, high = rules.min_players, rules.max_players
    names = config.players
    if not low <= len(names) <= high:
        raise ConfigurationError(f"Tricky Treats is for {low} to {high} players, got {len(names)}")
    for name in () if names is _NUMBERED.get(len(names)) else names:
        if not isinstance(name, str) or not name.strip():
            raise ConfigurationError(f"player names must be non-empty strings, got {brief(name)}")
        if len(name) > MAX_NAME_LENGTH or not name.isprintable():
            raise ConfigurationError(
                f"player names are at most {MAX_NAME_LENGTH} printable characters, "
                f"got {brief(name)}"
            )
    if len(set(names)) != len(names):
        raise ConfigurationError(f"player names must differ, got {list(names)}")
    check_seed(config.seed)
    first = config.first_player
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise ConfigurationError(
            f"first_player must be a seat from 0 to {len(names) - 1}, got {brief(first)}"
        )


def _first_state(setup: Setup) -> GameState:
    """The state a game starts from: empty boards, the market dealt, the first player to act."""
    rules = setup.rules
    if len(setup.secret_tiles) != len(setup.config.players):
        raise ConfigurationError(
            f"the board was dealt {len(setup.secret_tiles)} secret tiles for "
            f"{len(setup.config.players)} players"
        )
    players = tuple(
        PlayerState(
            name=name,
            kids=((),) * rules.kids_per_player,
            treats=(0,) * len(Treat),
            pumpkins=0,
            visited=frozenset(),
            tricked=frozenset(),
            footprints=rules.footprints_per_player,
            secret_tile=tile,
        )
        for name, tile in zip(setup.config.players, setup.secret_tiles, strict=True)
    )
    market_size = rules.market_size
    return GameState(
        setup=setup,
        players=players,
        market=setup.deck[:market_size],
        deck_position=market_size,
        discarded=(),
        pumpkin_on_house=(True,) * len(setup.grid),
        pumpkin_on_mean_house=(True,) * len(setup.mean_houses),
        street_flipped=(False,) * len(setup.street_tokens),
        current_player=setup.config.first_player,
        turn=0,
        passes_in_a_row=0,
        end_trigger=None,
        log=None,
    )


@attrs.frozen
class Draw:
    """One random choice of a deal: ``choice``, one of ``among`` equally likely whole numbers.

    A shuffle of ``n`` items makes ``n - 1`` draws, the first among ``n`` (which item goes
    last), the next among ``n - 1``, and so on, as ``random.shuffle`` does.
    """

    choice: int
    """The outcome drawn, from 0 to ``among - 1``."""
    among: int
    """How many equally likely outcomes the draw had."""


def deal_draws(game: GameState) -> tuple[Draw, ...]:
    """The draws the seeded deal of ``game``'s configuration makes, in order.

    Every draw of a deal chooses among equally likely whole numbers (a shuffle, a choice, a
    ``randrange``), so a deal is a sequence of such choices, which ``deal_from_draws`` deals
    again: ``deal_from_draws(game, [d.choice for d in deal_draws(game)])`` is the first
    state of ``game``. Raises ``ConfigurationError`` if a variant's deal draws otherwise
    (``random.random()``, ``getrandbits``, ...).

    >>> game = new_game(2, seed=5)
    >>> draws = deal_draws(game)
    >>> draws[0], len(draws)
    (Draw(choice=9, among=10), 101)
    >>> deal_from_draws(game, [d.choice for d in draws]) == game
    True
    """
    recorder = _DrawRecorder(game.config.seed)
    _redeal(game, recorder)
    return tuple(recorder.draws)


def deal_from_draws(game: GameState, choices: Sequence[int]) -> GameState:
    """The first state of ``game``'s configuration, dealt from ``choices`` instead of its seed.

    The players, options, variants and component data are ``game``'s; each of the deal's
    draws takes the next of ``choices`` (a whole number from 0 below the draw's ``among``,
    as ``deal_draws`` lists them). The game keeps ``game.config`` as it is: its seed does
    not deal this board, so its record loads only with ``verify=False``. For game-AI
    frameworks that model the deal as explicit chance outcomes (the OpenSpiel adapter).

    Raises ``ConfigurationError`` for a choice out of its range, too few or too many
    choices, or a built-in variant's deal that draws otherwise than among equally likely
    numbers. An installed plugin's deal that does so raises ``PluginError`` naming the hook
    and the plugin, with the ``ConfigurationError`` in its ``detail``, as every failing
    plugin hook does.
    """
    script = _ScriptedDraws(choices)
    state = _redeal(game, script)
    script.check_used_up()
    return state


def _redeal(game: GameState, rng: random.Random) -> GameState:
    """The first state of ``game``'s configuration, its deal drawing from ``rng``."""
    setup = game.setup
    registry = variant_registry()
    variants = [registry.get(ref.name) for ref in setup.config.variants]
    return _start(
        setup.config,
        variants,
        setup.components,
        custom_components=setup.custom_components,
        rng=rng,
    )


def _not_a_draw(method: str) -> NoReturn:
    raise ConfigurationError(
        f"the deal draws with Random.{method}(), which is no choice among equally likely "
        f"whole numbers: deal with shuffle, choice, sample or randrange to be dealt from draws"
    )


class _Draws(random.Random):
    """A ``random.Random`` whose every draw goes through ``_randbelow``.

    The base deal's fast shuffles are for ``random.Random`` itself only; other draws than
    ``_randbelow``'s are refused.
    """

    def random(self) -> float:
        _not_a_draw("random")

    def getrandbits(self, k: int) -> int:
        _not_a_draw("getrandbits")

    def randbytes(self, n: int) -> bytes:
        _not_a_draw("randbytes")


class _DrawRecorder(_Draws):
    """Draws what ``random.Random(seed)`` draws, and writes each draw down."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)  # never drawn from: every draw is _randbelow's
        self._seeded = _seeded_random(seed)
        self.draws: list[Draw] = []

    def _randbelow(self, n: int) -> int:
        choice: int = self._seeded._randbelow(n)  # type: ignore[attr-defined]
        self.draws.append(Draw(choice, n))
        return choice


class _ScriptedDraws(_Draws):
    """Draws the given choices, in order."""

    def __init__(self, choices: Sequence[int]) -> None:
        super().__init__(0)  # never drawn from: every draw is _randbelow's
        self._choices = list(choices)
        self._next = 0

    def _randbelow(self, n: int) -> int:
        index = self._next
        if index >= len(self._choices):
            raise ConfigurationError(
                f"the deal makes more draws than the {len(self._choices)} choices given: "
                f"give one per draw, as deal_draws() lists them"
            )
        choice = self._choices[index]
        if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < n:
            raise ConfigurationError(
                f"draw {index} of the deal chooses among {n}: its choice must be a whole "
                f"number from 0 to {n - 1}, got {brief(choice)}"
            )
        self._next = index + 1
        return choice

    def check_used_up(self) -> None:
        if self._next != len(self._choices):
            raise ConfigurationError(
                f"the deal makes {self._next} draws, but {len(self._choices)} choices were "
                f"given: give one per draw, as deal_draws() lists them"
            )
