"""The shipped value policy for a batch of simulators (issue 45): features from the packed ints.

``ValuePolicyAgent`` (``adapters.policy``) values each legal action's afterstate by a linear
value of ``afterstate_features``, computed by the rules in Python. ``value_policy_codes``
chooses for a whole batch of ``Simulator``s the same way on their cores: each legal code is
played on the core and undone (as ``_core.greedy_values`` does), the 33 features read from
the packed ints with the same floating-point operations in the same order (so the numbers are
equal, not merely close), and valued by a dot product taken left to right, the sum
``ValuePolicyAgent`` takes too. Compiled by mypyc with the core (``hatch_build``), so the
compiled build chooses for the whole batch natively; the same file runs as plain Python
otherwise. Not part of the public API; see ``tricky_treats.simulator.value_policy_codes``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from tricky_treats.errors import ConfigurationError, IllegalActionError, brief
from tricky_treats.simulator._core import (
    CARD_BITS,
    CARD_MASK,
    COUNT_BITS,
    COUNT_MASK,
    TREAT_BITS,
    TREAT_MASK,
    Afterstates,
    Core,
    Scoring,
    Seat,
    costume_of,
)
from tricky_treats.simulator._simulator import Simulator

__all__ = [
    "FEATURE_COUNT",
    "TileWorth",
    "afterstate_rows",
    "value_policy_codes",
    "value_policy_features",
]

SEAT_FEATURE_COUNT: Final = 14
"""The features of one seat (``adapters.policy.SEAT_FEATURES``)."""
FEATURE_COUNT: Final = 2 * SEAT_FEATURE_COUNT + 5
"""The features of an afterstate (``adapters.policy.FEATURE_NAMES``)."""


def _bits(mask: int) -> int:
    """How many bits of ``mask`` (not negative) are set."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def _tile_points(scoring: Scoring, tile: int, packed: int) -> tuple[int, int]:
    """The complete sets of ``tile`` in the packed treats, and the points they score (R14)."""
    needs = scoring.tile_needs[tile]
    sets = -1
    for treat in range(len(needs)):
        need = needs[treat]
        if need:
            held = (packed >> TREAT_BITS * treat & TREAT_MASK) // need
            if sets < 0 or held < sets:
                sets = held
    if sets < 0:
        sets = 0
    return sets, sets * scoring.tile_points[tile]


def _visible_total(core: Core, scoring: Scoring, number: int, secret: bool) -> int:
    """Seat ``number``'s points (R24), its secret tile's only if ``secret``."""
    seat = core.seats[number]
    packed = seat.treats
    total = seat.pumpkins * scoring.pumpkin_points
    if secret:
        total += _tile_points(scoring, scoring.secret[number], packed)[1]
    tricked = seat.tricked
    house = 0
    while tricked:
        if tricked & 1:
            total += _tile_points(scoring, scoring.mean[house], packed)[1]
        tricked >>= 1
        house += 1
    looks = core.tables.card_look
    for stack in seat.stacks:
        total += costume_of(looks, stack)
    return total


class TileWorth:
    """What a seat's trick tiles make of its treats (``_seat_features``' first part).

    For the treats ``treats`` and tricked houses ``tricked`` it was worked out from (packed):
    the tiles' points, ``progress``, what one more treat of each kind is worth, the held
    treats' worth and the treats on the tracks.
    """

    def __init__(
        self,
        treats: int,
        tricked: int,
        points: int,
        progress: float,
        worth: list[float],
        held_value: float,
        on_tracks: int,
    ) -> None:
        self.treats = treats
        self.tricked = tricked
        self.points = points
        self.progress = progress
        self.worth = worth
        self.held_value = held_value
        self.on_tracks = on_tracks


def tile_worth(scoring: Scoring, number: int, seat: Seat, secret: bool) -> TileWorth:
    """Seat ``number``'s ``TileWorth``: its secret tile's only if ``secret``.

    The same operations in the same order as ``adapters.policy._seat_features``: the tiles
    the seat has access to (its secret tile if ``secret``, then the mean houses it tricked,
    by number), each tile's treats in ``Treat``'s order.
    """
    packed = seat.treats
    needs = scoring.tile_needs
    points = scoring.tile_points
    lines: list[int] = []
    if secret:
        lines.append(scoring.secret[number])
    tricked = seat.tricked
    house = 0
    while tricked:
        if tricked & 1:
            lines.append(scoring.mean[house])
        tricked >>= 1
        house += 1
    kinds = len(needs[0])  # every tile's needs list every treat
    worth = [0.0] * kinds
    progress = 0.0
    tiles = 0
    for tile in lines:
        need = needs[tile]
        sets, scored = _tile_points(scoring, tile, packed)
        tiles += scored
        size = 0
        distinct = 0
        for treat in range(kinds):
            size += need[treat]
            if need[treat]:
                distinct += 1
        tile_points = points[tile]
        held = 0.0
        for treat in range(kinds):
            count = need[treat]
            if count:
                left = (packed >> TREAT_BITS * treat & TREAT_MASK) - sets * count
                share = left / count
                held += 1.0 if share >= 1.0 else share  # min(1.0, share)
                worth[treat] += tile_points / size
        progress += tile_points * held / distinct
    held_value = 0.0
    on_tracks = 0
    for treat in range(kinds):
        count = packed >> TREAT_BITS * treat & TREAT_MASK
        held_value += worth[treat] * count
        on_tracks += count
    return TileWorth(packed, seat.tricked, tiles, progress, worth, held_value, on_tracks)


def _seat_features(
    core: Core,
    scoring: Scoring,
    number: int,
    secret: bool,
    row: list[float],
    known: TileWorth | None,
) -> None:
    """Append ``adapters.policy._seat_features(state, number, secret)`` to ``row``.

    The same operations in the same order (see ``tile_worth``), the houses by number.
    ``known``: the seat's ``TileWorth`` before a move, used if the treats and the tricked
    houses are still the same (a take, a refresh or a pass changes neither).
    """
    t = core.tables
    seat = core.seats[number]
    part = known
    if part is None or part.treats != seat.treats or part.tricked != seat.tricked:
        part = tile_worth(scoring, number, seat, secret)
    worth = part.worth
    features = t.card_features
    looks = t.card_look
    costumes = 0
    potential = 0.0
    complete = 0
    for stack in seat.stacks:
        costumes += costume_of(looks, stack)
        if stack >> 2 * CARD_BITS:
            complete += 1
        elif stack:
            top = features[(stack & CARD_MASK) - 1]
            below = stack >> CARD_BITS
            if below:
                other = features[(below & CARD_MASK) - 1]
                theme = 1.0 if top[1] == other[1] else 0.0
                colour = 0.6 if top[0] == other[0] else 0.0
                potential += 2 * (theme + colour + 0.3)
            else:
                potential += 1 * (1.0 + 0.6 + 0.3)
    total = seat.pumpkins * scoring.pumpkin_points + costumes + part.points
    # The nice houses the seat reaches and has not visited (R5, R6).
    visitable = seat.qualified & ~seat.visited
    houses = 0
    pumpkins = 0
    treats = 0
    value = 0.0
    counts = seat.counts
    house = 0
    while visitable >> house:
        if visitable >> house & 1:
            houses += 1
            pumpkins += core.house_pumpkins >> house & 1
            given = t.house_gain[house][counts >> COUNT_BITS * t.house_feature[house] & COUNT_MASK]
            treats += given
            value += given * worth[t.house_treat[house]]
        house += 1
    icons = seat.icons
    top_icons = max(
        icons & COUNT_MASK, icons >> COUNT_BITS & COUNT_MASK, icons >> 2 * COUNT_BITS & COUNT_MASK
    )
    trickable = 0
    mean_icon = t.mean_icon
    for mean in range(len(mean_icon)):
        if not seat.tricked >> mean & 1:
            if t.any_mean_house:
                if top_icons >= 3:
                    trickable += 1
            else:
                trickable += seat.ready >> mean_icon[mean] & 1
    row.append(total / 10)
    row.append(potential / 10)
    row.append(houses / 10)
    row.append(pumpkins / 10)
    row.append(treats / 10)
    row.append(value / 10)
    row.append(part.progress / 10)
    row.append(part.held_value / 10)
    row.append(part.on_tracks / 10)
    row.append(seat.footprints / 10)
    row.append(top_icons / 10)
    row.append(trickable / 10)
    row.append(_bits(seat.tricked) / 10)
    row.append(complete / 10)


def _leader(core: Core, scoring: Scoring, number: int) -> int:
    """The other seat with the most visible points, the next in turn order on a tie."""
    players = core.tables.players
    leader = (number + 1) % players
    if players > 2:
        best = _visible_total(core, scoring, leader, False)
        for k in range(2, players):
            other = (number + k) % players
            total = _visible_total(core, scoring, other, False)
            if total > best:
                best = total
                leader = other
    return leader


def _features(
    core: Core,
    scoring: Scoring,
    number: int,
    own: TileWorth,
    leader: int,
    leaders: list[float],
    pumpkins: int,
) -> list[float]:
    """``adapters.policy.afterstate_features`` of the state ``core`` plays, for seat ``number``.

    ``own``: the mover's ``TileWorth`` before the move; ``leader`` is the leading other
    seat, ``leaders`` its features when the nice houses'
    pumpkins were ``pumpkins`` (the only thing of theirs a move of ``number`` may change).
    """
    row: list[float] = []
    _seat_features(core, scoring, number, True, row, own)
    if core.house_pumpkins == pumpkins:
        row.extend(leaders)
    else:
        _seat_features(core, scoring, leader, False, row, None)
    row.append(row[0] - row[SEAT_FEATURE_COUNT])
    row.append((core.tables.deck_size - core.position) / 10)
    row.append((_bits(core.house_pumpkins) + _bits(core.mean_pumpkins)) / 10)
    row.append(1.0 if core.trigger is not None else 0.0)
    row.append(1.0 if core.current == number else 0.0)
    return row


def afterstate_rows(core: Core, scoring: Scoring, codes: list[int]) -> list[list[float]]:
    """Per code of ``codes`` (each legal here), the features of its afterstate for the mover.

    Each code is played on the core and undone: the mover's board is played on a copy, the
    market on a copy, and the rest put back, so the core is left as it was.
    """
    current = core.current
    seat = core.seats[current]
    house_pumpkins = core.house_pumpkins
    afterstates = Afterstates(core)
    # A move changes the mover's board alone (and the market, the deck and the pumpkins):
    # the leader, and their features but for the pumpkins on the houses they reach, stay.
    leader = _leader(core, scoring, current)
    leaders: list[float] = []
    _seat_features(core, scoring, leader, False, leaders, None)
    own = tile_worth(scoring, current, seat, True)
    rows: list[list[float]] = []
    for code in codes:
        afterstates.play(code)
        rows.append(_features(core, scoring, current, own, leader, leaders, house_pumpkins))
        afterstates.undo()
    return rows


def best_code(core: Core, scoring: Scoring, weights: list[float]) -> int:
    """The legal code whose afterstate ``weights`` value highest, the first on a tie.

    The value of a row is ``0.0 + w[0] * f[0] + w[1] * f[1] + ...``, summed left to right.
    """
    codes = core.legal_codes()
    if len(codes) == 1:
        return codes[0]
    rows = afterstate_rows(core, scoring, codes)
    best = 0
    best_value = 0.0
    for i in range(len(rows)):
        row = rows[i]
        value = 0.0
        for k in range(FEATURE_COUNT):
            value += weights[k] * row[k]
        if i == 0 or value > best_value:
            best = i
            best_value = value
    return codes[best]


def value_policy_features(sim: Simulator, codes: Sequence[int]) -> list[list[float]] | None:
    """Per code of ``codes``, the features of its afterstate for the player to move in ``sim``.

    The rows ``adapters.policy.afterstate_features`` gives by the rules (``FEATURE_NAMES``,
    the same floats), computed by the compact core, which ``value_policy_codes`` values; the
    simulator is left as it was. None where the core does not compute them: a game it does
    not play, one with a variant's scoring lines, a game that is over, a code not legal here.
    """
    core = sim._core
    if core is None or sim._sheets or core.current < 0:
        return None
    legal = set(core.legal_codes())
    wanted: list[int] = []
    for code in codes:
        if code not in legal:
            return None
        wanted.append(code)
    return afterstate_rows(core, sim._scored(), wanted)


def value_policy_codes(
    simulators: Sequence[Simulator],
    weights: Sequence[float],
    by_state: Callable[[Simulator], int],
) -> list[int]:
    """Per simulator, the code ``ValuePolicyAgent(weights)`` chooses for the player to move.

    Where the compact core plays the game and no variant adds scoring lines, the core computes
    the features (``best_code``); any other game is given to ``by_state`` (the agent on the
    state), after the others. Draws nothing; each simulator is left as it was. Raises
    ``ConfigurationError`` for an empty sequence, anything but a ``Simulator`` or weights
    that are not ``FEATURE_COUNT`` floats, and ``IllegalActionError`` for a game that is over.
    """
    count = len(simulators)
    if not count:
        raise ConfigurationError(
            "the value policy chooses for one simulator or more, got none: pass the games to play"
        )
    if len(weights) != FEATURE_COUNT:
        raise ConfigurationError(
            f"a value policy has {FEATURE_COUNT} weights, got {len(weights)}: pass "
            "ValuePolicyAgent.weights"
        )
    given: Sequence[object] = simulators  # each checked here (compiled, indexing would check)
    for i in range(count):
        sim = given[i]
        if not isinstance(sim, Simulator):
            raise ConfigurationError(
                f"the value policy chooses for Simulator objects, got {brief(sim)} at {i}"
            )
        if sim.is_over:
            raise IllegalActionError(
                f"the game of simulator {i} is over (R10): nobody is to move; "
                f"leave it out or deal a new game"
            )
    floats = [float(w) for w in weights]
    chosen = [0] * count
    by_rules: list[int] = []
    for i in range(count):
        sim = simulators[i]
        core = sim._core
        if core is not None and not sim._sheets:
            chosen[i] = best_code(core, sim._scored(), floats)
        else:
            by_rules.append(i)
    for i in by_rules:
        chosen[i] = by_state(simulators[i])
    return chosen
