"""A versioned encoding of a ``PlayerView`` as a flat numeric array, and the legal-action mask.

For neural networks and other numeric learners. ``ObservationEncoding(game)`` fixes the
layout for one game configuration (player count, rules, components); ``encode(view)`` writes
a view into a ``float32`` array of ``size`` numbers, and ``action_mask(view)`` marks the
viewer's legal actions in the order of ``game.action_space``. The encoding reads nothing but
the view, so it never holds what the viewer may not see: the deck order and the other
players' secret tiles do not change it (a property test checks this).

Layout, version 1 (``OBSERVATION_VERSION``). Sections follow one another in this order; each
is a C-order block whose ``shape`` and offset (``start``) ``sections`` lists. Seats are
relative: row 0 of every per-seat section is the viewer, row 1 the next seat in turn order,
and so on. ``n`` is the player count, ``K`` kids per player, ``H`` nice houses, ``S``
streets, ``M`` mean houses, ``T`` trick tiles in the box (in order of their ids), ``C`` the
most cards a player can wear (``3 K``), ``F`` the 10 features of ``FEATURES``.

| section | shape | meaning |
|---|---|---|
| ``kids`` | ``(n, K, 3, 11)`` | per seat, kid, costume type: worn, colour, theme, icon |
| ``top_type`` | ``(n, K, 3)`` | the costume type of each kid's top card (none without cards) |
| ``shown_icon`` | ``(n, K, 3)`` | the trick icon each kid shows on top (R3) |
| ``treats`` | ``(n, 3)`` | treat tracks, in the order of ``Treat`` (counts) |
| ``pumpkins`` | ``(n,)`` | pumpkins (count) |
| ``footprints`` | ``(n,)`` | footprints left (count) |
| ``visited`` | ``(n, H)`` | nice houses visited |
| ``tricked`` | ``(n, M)`` | mean houses tricked |
| ``secret_tile`` | ``(n, T)`` | secret tiles the viewer sees (own; all when over or face up) |
| ``house_wants`` | ``(H, F)`` | the feature each nice house wants |
| ``house_treats`` | ``(H, C)`` | treats for 1, 2, ..., C matching cards (0 below the lowest tier) |
| ``house_treat`` | ``(H, 3)`` | the treat token of each nice house |
| ``house_pumpkin`` | ``(H,)`` | pumpkin still on the nice house |
| ``street_treat`` | ``(S, 3)`` | the treat of each street's bonus token |
| ``street_value`` | ``(S,)`` | treats the token gives now: front, then back once flipped |
| ``street_flipped`` | ``(S,)`` | the token shows its back |
| ``mean_icon`` | ``(M, 3)`` | the trick icon of each mean house |
| ``mean_tile`` | ``(M, T)`` | the trick tile on each mean house |
| ``mean_pumpkin`` | ``(M,)`` | pumpkin still on the mean house |
| ``market`` | ``(market_size, 14)`` | per slot: present, colour, theme, type, icon |
| ``deck_size`` | ``(1,)`` | cards left in the deck (count) |
| ``deck_features`` | ``(F,)`` | cards left in the deck per feature (counts; order hidden) |
| ``deck_icons`` | ``(3,)`` | cards left in the deck per trick icon (counts) |
| ``discarded`` | ``(1,)`` | cards discarded by refreshes (count) |
| ``unseen_tiles`` | ``(T,)`` | the tiles the viewer cannot see (others' and the box's) |
| ``rule_options`` | ``(2,)`` | R4 option ``any_mean_house``, R8 option ``refresh_ends_turn`` |
| ``to_act`` | ``(n,)`` | the seat to act (none once the game is over) |
| ``game_over`` | ``(1,)`` | the game is over |
| ``turn`` | ``(1,)`` | turns finished so far (count) |
| ``passes_in_a_row`` | ``(1,)`` | consecutive passes (count, R17) |
| ``end_triggered_by`` | ``(n,)`` | the seat that triggered the end (R10) |
| ``end_reason`` | ``(4,)`` | why, in the order of ``Termination`` |
| ``first_player`` | ``(n,)`` | the seat that started (R20) |

Colour, theme, type, icon and treat are one-hot in the order of ``Colour``, ``Theme``,
``CostumeType``, ``TrickIcon`` and ``Treat`` (3, 4, 3, 3, 3 entries).

One-hot and yes/no entries are 0 or 1; counts are whole numbers from 0 to the section's
``high``, a bound worked out from the components (``ObservationEncoding.high`` has one per
entry). A new version changes ``OBSERVATION_VERSION``; the layout of a version never changes.

numpy is needed (it comes with the ``pettingzoo`` and ``openspiel`` extras); the
``tricky_treats`` package itself never imports this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import attrs
import numpy as np
import numpy.typing as npt

from tricky_treats.actions import ActionSpace
from tricky_treats.components import (
    FEATURES,
    Colour,
    CostumeCard,
    CostumeType,
    Theme,
    Treat,
    TrickIcon,
)
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import GameState, Termination
from tricky_treats.views import PlayerView

__all__ = [
    "OBSERVATION_VERSION",
    "ObservationEncoding",
    "Section",
    "max_game_length",
]

OBSERVATION_VERSION = 1
"""The version of the observation layout that ``ObservationEncoding`` writes."""

# Enum members live as long as the process, so their ids are stable keys; id lookups are
# several times faster than hashing the members themselves.
_COLOUR = {id(member): i for i, member in enumerate(Colour)}
_THEME = {id(member): i for i, member in enumerate(Theme)}
_TYPE = {id(member): i for i, member in enumerate(CostumeType)}
_ICON = {id(member): i for i, member in enumerate(TrickIcon)}
_TREAT = {id(member): i for i, member in enumerate(Treat)}
_FEATURE = {id(member): i for i, member in enumerate(FEATURES)}
_REASON = {id(member): i for i, member in enumerate(Termination)}
_TYPES = len(CostumeType)
_KID_CARD = 11  # worn, colour (3), theme (4), icon (3)
_MARKET_CARD = 14  # present, colour (3), theme (4), type (3), icon (3)

# The board's fixed entries for one deal: the objects they came from, an observation with
# only those entries set, and every card of the game per feature and icon.
_Static = tuple[object, object, object, npt.NDArray[np.float32], tuple[int, ...]]
# A player's kids, the offsets of the ones they set in one seat row, and their cards per
# feature and icon.
_Worn = tuple[object, npt.NDArray[np.intp], tuple[int, ...]]
_Card = tuple[CostumeCard, int, int, int, int]


@attrs.frozen
class Section:
    """One block of the observation: ``shape`` numbers from offset ``start``, at most ``high``."""

    name: str
    start: int
    shape: tuple[int, ...]
    high: float
    meaning: str

    @property
    def size(self) -> int:
        """How many numbers the section holds."""
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        """The offset just after the section."""
        return self.start + self.size


def max_game_length(game: GameState) -> int:
    """An upper bound on the turns of a game of ``game``'s configuration.

    Every action but a pass places a card, a footprint or draws from the deck, so there are at
    most ``A`` = players x kids x 3 + players x footprints + cards such actions. Fewer than
    ``n`` passes come between two of them (``n`` in a row trigger the end, R17), and the last
    round adds at most ``n`` turns (R10): ``A n + 2 n`` in all.
    """
    n = len(game.players)
    rules = game.setup.rules
    actions = n * rules.kids_per_player * _TYPES + n * rules.footprints_per_player
    actions += len(game.setup.deck)
    return actions * n + 2 * n


class ObservationEncoding:
    """The observation layout of one game configuration, and the encoder for its views.

    Build it from any state of the configuration (``game``); it reads the player count, the
    rules and the components, not the deal, so every game of the configuration shares it.
    """

    version = OBSERVATION_VERSION

    def __init__(self, game: GameState) -> None:
        setup = game.setup
        rules = setup.rules
        box = setup.components
        self.players = n = len(game.players)
        self.kids = kids = rules.kids_per_player
        self.action_space: ActionSpace = setup.action_space
        houses, streets, mean = len(setup.grid), len(setup.street_tokens), len(setup.mean_houses)
        self.tile_ids: tuple[str, ...] = tuple(sorted(t.id for t in box.trick_tiles))
        self._tile_index = {tile_id: i for i, tile_id in enumerate(self.tile_ids)}
        tiles = len(self.tile_ids)
        self.most_cards = most = kids * _TYPES
        cards = len(setup.deck)
        tier_treats = max(t.treats for h in box.nice_neighbours for t in h.tiers)
        token_treats = max(max(t.front, t.back) for t in box.street_bonus_tokens)
        treats = houses * tier_treats + streets * token_treats
        self.max_game_length = max_game_length(game)
        blocks: list[tuple[str, tuple[int, ...], float, str]] = [
            ("kids", (n, kids, _TYPES, _KID_CARD), 1, "cards worn: worn, colour, theme, icon"),
            ("top_type", (n, kids, _TYPES), 1, "costume type of each kid's top card"),
            ("shown_icon", (n, kids, len(TrickIcon)), 1, "trick icon each kid shows (R3)"),
            ("treats", (n, len(Treat)), treats, "treat tracks"),
            ("pumpkins", (n,), houses + mean, "pumpkins"),
            ("footprints", (n,), rules.footprints_per_player, "footprints left"),
            ("visited", (n, houses), 1, "nice houses visited"),
            ("tricked", (n, mean), 1, "mean houses tricked"),
            ("secret_tile", (n, tiles), 1, "secret tiles the viewer sees"),
            ("house_wants", (houses, len(FEATURES)), 1, "feature each nice house wants"),
            ("house_treats", (houses, most), tier_treats, "treats for 1..C matching cards"),
            ("house_treat", (houses, len(Treat)), 1, "treat token of each nice house"),
            ("house_pumpkin", (houses,), 1, "pumpkin on each nice house"),
            ("street_treat", (streets, len(Treat)), 1, "treat of each street bonus token"),
            ("street_value", (streets,), token_treats, "treats each street token gives now"),
            ("street_flipped", (streets,), 1, "street token shows its back"),
            ("mean_icon", (mean, len(TrickIcon)), 1, "trick icon of each mean house"),
            ("mean_tile", (mean, tiles), 1, "trick tile on each mean house"),
            ("mean_pumpkin", (mean,), 1, "pumpkin on each mean house"),
            ("market", (self.action_space.market_size, _MARKET_CARD), 1, "market cards"),
            ("deck_size", (1,), cards, "cards left in the deck"),
            ("deck_features", (len(FEATURES),), cards, "cards left per feature"),
            ("deck_icons", (len(TrickIcon),), cards, "cards left per trick icon"),
            ("discarded", (1,), cards, "cards discarded"),
            ("unseen_tiles", (tiles,), 1, "tiles the viewer cannot see"),
            ("rule_options", (2,), 1, "any_mean_house (R4), refresh_ends_turn (R8)"),
            ("to_act", (n,), 1, "seat to act"),
            ("game_over", (1,), 1, "the game is over"),
            ("turn", (1,), self.max_game_length, "turns finished"),
            ("passes_in_a_row", (1,), n, "consecutive passes (R17)"),
            ("end_triggered_by", (n,), 1, "seat that triggered the end (R10)"),
            ("end_reason", (len(Termination),), 1, "why the end was triggered"),
            ("first_player", (n,), 1, "seat that started (R20)"),
        ]
        sections = []
        start = 0
        for name, shape, high, meaning in blocks:
            section = Section(name, start, shape, float(high), meaning)
            sections.append(section)
            start = section.stop
        self.sections: tuple[Section, ...] = tuple(sections)
        self.size = start
        self._at = {s.name: s.start for s in sections}
        bounds = np.empty(self.size, np.float32)
        for section in sections:
            bounds[section.start : section.stop] = section.high
        self.high: npt.NDArray[np.float32] = bounds
        """The largest value of every entry (0 is the smallest)."""
        self._static: _Static | None = None
        # Per card object: the card itself (which keeps its id from being reused while it is
        # here) and its type, colour, theme and icon indices.
        self._cards: dict[int, _Card] = {}
        self._stacks: dict[tuple[int, int], _Worn] = {}

    def section(self, name: str) -> Section:
        """The section called ``name``; raises KeyError naming the sections there are."""
        for section in self.sections:
            if section.name == name:
                return section
        raise KeyError(f"no section {name!r}: {', '.join(s.name for s in self.sections)}")

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """``view`` as a new ``float32`` array of ``size`` numbers (see the module's table)."""
        n = self.players
        if len(view.players) != n or len(view.market) != self.action_space.market_size:
            raise ConfigurationError(
                f"this encoding is for {n}-player games with a market of "
                f"{self.action_space.market_size}; the view has {len(view.players)} players "
                f"and {len(view.market)} slots: build an ObservationEncoding for its game"
            )
        at = self._at
        tile_index = self._tile_index
        ones: list[int] = []
        counts: list[int] = []
        values: list[float] = []
        seats = [(view.player + i) % n for i in range(n)]
        relative = {seat: i for i, seat in enumerate(seats)}

        static = self._static
        if (
            static is None
            or static[0] is not view.grid
            or static[1] is not view.street_tokens
            or static[2] is not view.mean_houses
        ):
            static = self._static = self._board(view)
        out = static[3].copy()
        # Cards per feature and icon left in the deck: all cards less those in sight.
        out_of_deck = list(self._card_counts(view.discarded))
        cards = self._cards
        stacks = self._stacks
        for row, seat in enumerate(seats):
            player = view.players[seat]
            # A player's kids stay the same object until they take a card: look them up.
            worn = stacks.get((id(player.kids), row))
            if worn is None or worn[0] is not player.kids:
                worn = self._wear(player.kids, row)
            out[worn[1]] = 1.0
            out_of_deck = [a + b for a, b in zip(out_of_deck, worn[2], strict=True)]
            treats_at = at["treats"] + row * 3
            counts += (treats_at, treats_at + 1, treats_at + 2)
            values += player.treats
            counts += (at["pumpkins"] + row, at["footprints"] + row)
            values += (player.pumpkins, player.footprints)
            visited_at = at["visited"] + row * len(view.grid)
            ones += [visited_at + h for h in player.visited]
            tricked_at = at["tricked"] + row * len(view.mean_houses)
            ones += [tricked_at + m for m in player.tricked]
            tile = view.secret_tiles[seat]
            if tile is not None:
                ones.append(at["secret_tile"] + row * len(tile_index) + tile_index[tile.id])

        for h, pumpkin in enumerate(view.pumpkin_on_house):
            if pumpkin:
                ones.append(at["house_pumpkin"] + h)
        for s, (token, flipped) in enumerate(
            zip(view.street_tokens, view.street_flipped, strict=True)
        ):
            counts.append(at["street_value"] + s)
            values.append(token.back if flipped else token.front)
            if flipped:
                ones.append(at["street_flipped"] + s)
        for m, pumpkin in enumerate(view.pumpkin_on_mean_house):
            if pumpkin:
                ones.append(at["mean_pumpkin"] + m)
        market_at = at["market"]
        for slot, shown in enumerate(view.market):
            if shown is not None:
                entry = cards.get(id(shown))
                known = entry if entry is not None and entry[0] is shown else self._learn(shown)
                base = market_at + slot * _MARKET_CARD
                ones += (
                    base,
                    base + 1 + known[2],
                    base + 4 + known[3],
                    base + 8 + known[1],
                    base + 11 + known[4],
                )
                out_of_deck[known[2]] += 1
                out_of_deck[3 + known[3]] += 1
                out_of_deck[7 + known[1]] += 1
                out_of_deck[10 + known[4]] += 1

        deck = [a - b for a, b in zip(static[4], out_of_deck, strict=True)]
        counts.append(at["deck_size"])
        values.append(view.deck_size)
        counts += range(at["deck_features"], at["deck_features"] + len(deck))  # icons follow
        values += deck
        counts.append(at["discarded"])
        values.append(len(view.discarded))
        ones += [at["unseen_tiles"] + tile_index[t.id] for t in view.unseen_tiles]

        rules = view.rules
        if rules.any_mean_house:
            ones.append(at["rule_options"])
        if rules.refresh_ends_turn:
            ones.append(at["rule_options"] + 1)
        if view.current_player is None:
            ones.append(at["game_over"])
        else:
            ones.append(at["to_act"] + relative[view.current_player])
        counts += (at["turn"], at["passes_in_a_row"])
        values += (view.turn, view.passes_in_a_row)
        trigger = view.end_trigger
        if trigger is not None:
            ones.append(at["end_triggered_by"] + relative[trigger.player])
            ones.append(at["end_reason"] + _REASON[id(trigger.reason)])
        ones.append(at["first_player"] + relative[view.first_player])

        out[ones] = 1.0
        out[counts] = values
        return out

    def _wear(self, kids: tuple[tuple[CostumeCard, ...], ...], row: int) -> _Worn:
        """The offsets of the ones that ``kids`` set in seat row ``row`` (remembered)."""
        if len(self._stacks) > 4096:  # kids of many games: start afresh
            self._stacks.clear()
        at = self._at
        kid_at, top_at, icon_at = at["kids"], at["top_type"], at["shown_icon"]
        ones: list[int] = []
        for k, stack in enumerate(kids):
            slot = row * self.kids + k
            for card in stack:
                _, kind, colour, theme, icon = self._learn(card)
                base = kid_at + (slot * _TYPES + kind) * _KID_CARD
                ones += (base, base + 1 + colour, base + 4 + theme, base + 8 + icon)
            if stack:
                _, kind, _, _, icon = self._learn(stack[-1])
                ones += (top_at + slot * _TYPES + kind, icon_at + slot * 3 + icon)
        worn = (kids, np.array(ones, np.intp), self._card_counts(c for k in kids for c in k))
        self._stacks[(id(kids), row)] = worn
        return worn

    def _card_counts(self, cards: Iterable[CostumeCard]) -> tuple[int, ...]:
        """How many of ``cards`` have each feature (in ``FEATURES`` order), then each icon."""
        counts = [0] * (len(FEATURES) + len(TrickIcon))
        for card in cards:
            _, kind, colour, theme, icon = self._learn(card)
            counts[colour] += 1
            counts[3 + theme] += 1
            counts[7 + kind] += 1
            counts[10 + icon] += 1
        return tuple(counts)

    def _learn(self, card: CostumeCard) -> _Card:
        """The indices of ``card``'s type, colour, theme and icon (remembered)."""
        known = self._cards.get(id(card))
        if known is not None and known[0] is card:
            return known
        if len(self._cards) > 4096:  # cards of many component sets: start afresh
            self._cards.clear()
        known = (
            card,
            _TYPE[id(card.type)],
            _COLOUR[id(card.colour)],
            _THEME[id(card.theme)],
            _ICON[id(card.icon)],
        )
        self._cards[id(card)] = known
        return known

    def _board(self, view: PlayerView) -> _Static:
        """The entries of the board that never change during a game (worked out once)."""
        at = self._at
        most = self.most_cards
        tiles = len(self._tile_index)
        ones: list[int] = []
        counts: list[int] = []
        values: list[float] = []
        for h, house in enumerate(view.grid):
            neighbour = house.neighbour
            ones.append(at["house_wants"] + h * len(FEATURES) + _FEATURE[id(neighbour.wants)])
            row_at = at["house_treats"] + h * most
            tiers = neighbour.tiers
            for i, tier in enumerate(tiers):
                # The highest tier reached counts (R5); tiers need ever more cards.
                below = tiers[i + 1].cards if i + 1 < len(tiers) else most + 1
                for matching in range(tier.cards, min(below, most + 1)):
                    counts.append(row_at + matching - 1)
                    values.append(tier.treats)
            ones.append(at["house_treat"] + h * 3 + _TREAT[id(house.treat)])
        for s, token in enumerate(view.street_tokens):
            ones.append(at["street_treat"] + s * 3 + _TREAT[id(token.treat)])
        for m, mean in enumerate(view.mean_houses):
            ones.append(at["mean_icon"] + m * 3 + _ICON[id(mean.neighbour.icon)])
            ones.append(at["mean_tile"] + m * tiles + self._tile_index[mean.tile.id])
        base = np.zeros(self.size, np.float32)
        base[ones] = 1.0
        base[counts] = values
        # Every card of the game: in the deck, worn, in the market or discarded.
        in_play = [*view.deck_cards, *view.discarded]
        in_play += [card for card in view.market if card is not None]
        in_play += [card for player in view.players for kid in player.kids for card in kid]
        return (view.grid, view.street_tokens, view.mean_houses, base, self._card_counts(in_play))

    def action_mask(self, view: PlayerView) -> npt.NDArray[np.int8]:
        """1 for each of the viewer's legal actions, by ``action_space`` code; else 0.

        All zeros when it is not the viewer's turn or the game is over.
        """
        mask = np.zeros(self.action_space.size, np.int8)
        encode = self.action_space.encode
        mask[[encode(action) for action in view.legal_actions]] = 1
        return mask

    def describe(self) -> str:
        """The layout as a table: offset, shape, largest value and meaning of each section."""
        lines = [f"observation version {self.version}: {self.size} numbers"]
        for s in self.sections:
            shape = "x".join(map(str, s.shape))
            lines.append(f"{s.start:>6}  {s.name:<17} {shape:<12} <= {s.high:g}  {s.meaning}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"ObservationEncoding(players={self.players}, size={self.size})"

    def __getstate__(self) -> dict[str, object]:
        # The caches are keyed by object identity, which a pickle does not keep.
        return {**self.__dict__, "_static": None, "_cards": {}, "_stacks": {}}
