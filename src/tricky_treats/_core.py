"""The compact core: a game's moving part as plain ints, with legal actions and apply on it.

Private. ``GameState.legal_actions()`` and ``GameState.apply()`` run here when the game's
configuration is one the core covers (see ``_core_tables.covers()``); everything else
(events, refusals with their messages, other configurations) runs in ``rules``, the
reference implementation, which this module must agree with move for move (the equivalence
digest of ``tests/core_equivalence.py`` checks it).

The module imports the standard library only and is fully typed, so that mypyc can compile
it (``mypyc src/tricky_treats/_core.py``); without the compiled extension the same file
runs as plain Python. Everything a move touches is an int, a tuple of ints or an instance
of one of the plain classes below, which mypyc compiles to native classes:

- ``Tables``: per game, built once from ``setup.lookup`` by ``_core_tables`` (ints and tuples
  in, plus the canonical action objects with their codes by ``id()``, the cards by id and
  the ``EndTrigger`` factory, held as ``object``).
- ``Costume``: one player's kids, changed by taking a card: feature counts packed 4 bits
  per feature, visible icons 4 bits per icon, the icons shown by 3 kids or more as a bit
  mask, free kids 8 bits per costume type, the qualified houses as a bit mask, each kid's
  top card (id + 1, 10 bits per kid) and the chain of cards taken (``Taken``), newest
  first, to rebuild the kids' stacks.
- ``Track``: one player's treats (16 bits per treat), pumpkins, visited and tricked houses
  as bit masks, and footprints left; changed by visits.
- ``Core``: the whole moving part of one state.

Which games the core covers (``_core_tables.covers()`` checks; the others play by ``rules``):
every built-in variant and rule option, any number of players, with at most 5 kids per
player (so a feature count fits 4 bits), a grid of 9 nice houses with 6 street tokens, at
most 8 mean houses, and card ids below 1,000. A state made by hand whose boards play could
not reach (a house visitable that is not reached, a card of another box, a treat track of
65,536 or more) also plays by ``rules``. Everything here fits a 63-bit int, which mypyc
keeps unboxed.

Instances are never changed after construction: a move builds new ones and shares the rest
(``_boards`` fills in the log and end trigger of a core it has just made, before anyone
else sees it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

MAX_KIDS: Final = 5
"""The most kids per player the core covers: 3 types of 5 kids fit a 4-bit count."""
MAX_MEAN_HOUSES: Final = 8
MAX_CARD_ID: Final = 999

COUNT_BITS: Final = 4
COUNT_MASK: Final = 15
FREE_BITS: Final = 8
FREE_MASK: Final = 255
TOP_BITS: Final = 10
TOP_MASK: Final = 1023
TREAT_BITS: Final = 16

NO_REASON: Final = 0
LAST_FOOTPRINT: Final = 1
COMPLETE_COSTUMES: Final = 2
DECK_EMPTY: Final = 3
DEADLOCK: Final = 4


class Tables:
    """What the core needs of one game's setup, as ints and tuples (built once per setup)."""

    def __init__(
        self,
        players: int,
        kids: int,
        market_size: int,
        last_player: int,
        any_mean_house: bool,
        refresh_ends_turn: bool,
        deck: tuple[int, ...],
        card_type: tuple[int, ...],
        card_free_shift: tuple[int, ...],
        card_icon: tuple[int, ...],
        card_features: tuple[tuple[int, ...], ...],
        card_mask: tuple[int, ...],
        card_counts: tuple[int, ...],
        qualify: tuple[tuple[int, ...], ...],
        house_feature: tuple[int, ...],
        house_treat: tuple[int, ...],
        house_gain: tuple[tuple[int, ...], ...],
        street_houses: tuple[int, ...],
        streets_of_house: tuple[tuple[int, ...], ...],
        street_treat: tuple[int, ...],
        street_front: tuple[int, ...],
        street_back: tuple[int, ...],
        mean_icon: tuple[int, ...],
        mean_ready: tuple[int, ...],
        takes: tuple[tuple[tuple[object, ...], ...], ...],
        visits: tuple[tuple[object, ...], ...],
        tricks: tuple[object, ...],
        trick_lists: tuple[tuple[object, ...], ...],
        refresh: object,
        pass_: object,
        codes: dict[int, int],
        cards: tuple[object, ...],
        make_trigger: Callable[[int, int, int], object],
    ) -> None:
        self.players = players
        self.kids = kids
        self.market_size = market_size
        self.last_player = last_player
        self.any_mean_house = any_mean_house
        self.refresh_ends_turn = refresh_ends_turn
        self.deck = deck
        self.deck_size = len(deck)
        self.card_type = card_type
        self.card_free_shift = card_free_shift
        self.card_icon = card_icon
        self.card_features = card_features
        self.card_mask = card_mask
        self.card_counts = card_counts
        self.qualify = qualify
        self.house_feature = house_feature
        self.house_treat = house_treat
        self.house_gain = house_gain
        self.street_houses = street_houses
        self.streets_of_house = streets_of_house
        self.street_treat = street_treat
        self.street_front = street_front
        self.street_back = street_back
        self.mean_icon = mean_icon
        self.mean_ready = mean_ready
        self.mean_houses = len(mean_icon)
        self.takes = takes
        self.visits = visits
        self.tricks = tricks
        self.trick_lists = trick_lists
        self.refresh = refresh
        self.pass_ = pass_
        self.codes = codes
        self.cards = cards
        self.make_trigger = make_trigger
        self.take_count = market_size * kids
        self.visit_end = self.take_count + len(house_feature)
        self.trick_end = self.visit_end + len(mean_icon)


def ready_icons(icons: int) -> int:
    """A bit mask of the trick icons that ``icons`` (packed counts) shows on 3 kids or more.

    ``TrickIcon`` has 3 members.
    """
    return (
        (icons & COUNT_MASK >= 3)
        | (icons >> COUNT_BITS & COUNT_MASK >= 3) << 1
        | (icons >> 2 * COUNT_BITS & COUNT_MASK >= 3) << 2
    )


class Taken:
    """A card put on a kid, and the cards the player took before it (a chain, newest first)."""

    __slots__ = ("before", "card", "kid")

    def __init__(self, kid: int, card: int, before: Taken | None) -> None:
        self.kid = kid
        self.card = card
        self.before = before


class Costume:
    """One player's kids, packed (see the module's docstring)."""

    __slots__ = ("counts", "free", "icons", "qualified", "ready", "taken", "tops")

    def __init__(
        self,
        counts: int,
        icons: int,
        ready: int,
        free: int,
        qualified: int,
        tops: int,
        taken: Taken | None,
    ) -> None:
        self.counts = counts
        self.icons = icons
        self.ready = ready
        self.free = free
        self.qualified = qualified
        self.tops = tops
        self.taken = taken


class Track:
    """One player's treats (packed), pumpkins, visited and tricked houses, footprints."""

    __slots__ = ("footprints", "pumpkins", "treats", "tricked", "visited")

    def __init__(
        self, treats: int, pumpkins: int, visited: int, tricked: int, footprints: int
    ) -> None:
        self.treats = treats
        self.pumpkins = pumpkins
        self.visited = visited
        self.tricked = tricked
        self.footprints = footprints


class Core:
    """The moving part of one game state.

    ``market`` holds card ids, -1 for an empty slot; ``pumpkins`` and ``mean_pumpkins`` are
    bit masks of the houses whose pumpkin is still there; ``flipped`` a bit mask of the
    street tokens showing their back; ``current`` is -1 once the game is over; ``trigger``
    is None or the ``EndTrigger`` that ``tables.make_trigger`` built; ``log`` is the
    state's action log (nested pairs, newest first).
    """

    __slots__ = (
        "costumes",
        "current",
        "discarded",
        "flipped",
        "log",
        "market",
        "mean_pumpkins",
        "passes",
        "position",
        "pumpkins",
        "tables",
        "tracks",
        "trigger",
        "turn",
    )

    def __init__(
        self,
        tables: Tables,
        costumes: tuple[Costume, ...],
        tracks: tuple[Track, ...],
        market: tuple[int, ...],
        position: int,
        pumpkins: int,
        mean_pumpkins: int,
        flipped: int,
        discarded: tuple[int, ...],
        current: int,
        turn: int,
        passes: int,
        trigger: object,
        log: object,
    ) -> None:
        self.tables = tables
        self.costumes = costumes
        self.tracks = tracks
        self.market = market
        self.position = position
        self.pumpkins = pumpkins
        self.mean_pumpkins = mean_pumpkins
        self.flipped = flipped
        self.discarded = discarded
        self.current = current
        self.turn = turn
        self.passes = passes
        self.trigger = trigger
        self.log = log

    def legal(self) -> tuple[object, ...]:
        """The current player's legal actions, the canonical objects in canonical order."""
        seat = self.current
        if seat < 0:
            return ()
        t = self.tables
        costume = self.costumes[seat]
        track = self.tracks[seat]
        actions: list[object] = []
        takes = t.takes
        free_shift = t.card_free_shift
        card_mask = t.card_mask
        free = costume.free
        free_mask = FREE_MASK
        shared = -1
        for slot, card in enumerate(self.market):
            if card < 0:
                shared = 0
            else:
                actions += takes[slot][free >> free_shift[card] & free_mask]
                shared &= card_mask[card]
        if track.footprints:
            actions += t.visits[costume.qualified & ~track.visited]
            ready = costume.ready
            if ready:
                trickable = t.mean_ready[ready] & ~track.tricked
                if trickable:
                    actions += t.trick_lists[trickable]
        if shared and self.position < t.deck_size:
            actions.append(t.refresh)
            if len(actions) == 1:
                actions.append(t.pass_)
        elif not actions:
            actions.append(t.pass_)
        return tuple(actions)

    def apply(self, code: int, action: object) -> Core | None:
        """The state after the current player plays the action numbered ``code``.

        ``action`` is the action object, for the log. None if the action is not legal here:
        the caller asks the reference rules, which say why.
        """
        seat = self.current
        if seat < 0:
            return None
        t = self.tables
        if code < t.take_count:
            return self._take(t, seat, code // t.kids, code % t.kids, action)
        if code < t.visit_end:
            return self._visit(t, seat, code - t.take_count, action)
        if code < t.trick_end:
            return self._trick(t, seat, code - t.visit_end, action)
        if code == t.trick_end:
            return self._refresh(t, seat, action)
        if code == t.trick_end + 1:
            return self._pass(t, seat, action)
        return None

    def _take(self, t: Tables, seat: int, slot: int, kid: int, action: object) -> Core | None:
        card = self.market[slot]
        if card < 0:
            return None
        costume = self.costumes[seat]
        free_bit = 1 << t.card_free_shift[card] + kid
        if not costume.free & free_bit:
            return None
        counts = costume.counts + t.card_counts[card]
        qualified = costume.qualified
        qualify = t.qualify
        for feature in t.card_features[card]:
            qualified |= qualify[feature][counts >> COUNT_BITS * feature & COUNT_MASK]
        card_icon = t.card_icon
        shift = TOP_BITS * kid
        top = costume.tops >> shift & TOP_MASK
        icons = costume.icons + (1 << COUNT_BITS * card_icon[card])
        if top:
            icons -= 1 << COUNT_BITS * card_icon[top - 1]  # now covered (R3)
        free = costume.free & ~free_bit
        costumes = list(self.costumes)
        costumes[seat] = Costume(
            counts,
            icons,
            (icons & COUNT_MASK >= 3)  # ready_icons(icons), without a call
            | (icons >> COUNT_BITS & COUNT_MASK >= 3) << 1
            | (icons >> 2 * COUNT_BITS & COUNT_MASK >= 3) << 2,
            free,
            qualified,
            costume.tops + ((card + 1 - top) << shift),
            Taken(kid, card, costume.taken),
        )
        reason = NO_REASON if free else COMPLETE_COSTUMES
        market = list(self.market)
        position = self.position
        if position < t.deck_size:
            market[slot] = t.deck[position]
            position += 1
            if position == t.deck_size and reason == NO_REASON:
                reason = DECK_EMPTY
        else:
            market[slot] = -1
        return self._end_turn(
            t,
            seat,
            action,
            tuple(costumes),
            self.tracks,
            tuple(market),
            position,
            self.pumpkins,
            self.mean_pumpkins,
            self.flipped,
            self.discarded,
            0,
            reason,
        )

    def _visit(self, t: Tables, seat: int, house: int, action: object) -> Core | None:
        track = self.tracks[seat]
        bit = 1 << house
        if not track.footprints or not self.costumes[seat].qualified & ~track.visited & bit:
            return None
        matching = self.costumes[seat].counts >> COUNT_BITS * t.house_feature[house] & COUNT_MASK
        gained = t.house_gain[house][matching]
        if not gained:
            return None
        treats = track.treats + (gained << TREAT_BITS * t.house_treat[house])
        visited = track.visited | bit
        pumpkins = track.pumpkins
        on_house = self.pumpkins
        if on_house & bit:
            pumpkins += 1
            on_house &= ~bit
        flipped = self.flipped
        for street in t.streets_of_house[house]:
            houses = t.street_houses[street]
            if visited & houses == houses:
                if flipped >> street & 1:
                    amount = t.street_back[street]
                else:
                    amount = t.street_front[street]
                    flipped |= 1 << street
                treats += amount << TREAT_BITS * t.street_treat[street]
        footprints = track.footprints - 1
        tracks = list(self.tracks)
        tracks[seat] = Track(treats, pumpkins, visited, track.tricked, footprints)
        return self._end_turn(
            t,
            seat,
            action,
            self.costumes,
            tuple(tracks),
            self.market,
            self.position,
            on_house,
            self.mean_pumpkins,
            flipped,
            self.discarded,
            0,
            NO_REASON if footprints else LAST_FOOTPRINT,
        )

    def _trick(self, t: Tables, seat: int, house: int, action: object) -> Core | None:
        track = self.tracks[seat]
        bit = 1 << house
        if not track.footprints or track.tricked & bit:
            return None
        if not t.mean_ready[self.costumes[seat].ready] & bit:
            return None
        pumpkins = track.pumpkins
        on_house = self.mean_pumpkins
        if on_house & bit:
            pumpkins += 1
            on_house &= ~bit
        footprints = track.footprints - 1
        tracks = list(self.tracks)
        tracks[seat] = Track(track.treats, pumpkins, track.visited, track.tricked | bit, footprints)
        return self._end_turn(
            t,
            seat,
            action,
            self.costumes,
            tuple(tracks),
            self.market,
            self.position,
            self.pumpkins,
            on_house,
            self.flipped,
            self.discarded,
            0,
            NO_REASON if footprints else LAST_FOOTPRINT,
        )

    def _refresh(self, t: Tables, seat: int, action: object) -> Core | None:
        if t.refresh not in self.legal():
            return None
        position = self.position
        end = min(position + t.market_size, t.deck_size)
        drawn = t.deck[position:end]
        market = drawn + (-1,) * (t.market_size - len(drawn))  # R19: the market may shrink
        discarded = self.discarded + tuple([card for card in self.market if card >= 0])
        reason = DECK_EMPTY if end == t.deck_size else NO_REASON
        if t.refresh_ends_turn:
            return self._end_turn(
                t,
                seat,
                action,
                self.costumes,
                self.tracks,
                market,
                end,
                self.pumpkins,
                self.mean_pumpkins,
                self.flipped,
                discarded,
                0,
                reason,
            )
        # R8: the refresh is not the turn's action; the same player acts again.
        trigger = self.trigger
        if reason != NO_REASON and trigger is None:
            trigger = t.make_trigger(seat, reason, self.turn)
        return Core(
            t,
            self.costumes,
            self.tracks,
            market,
            end,
            self.pumpkins,
            self.mean_pumpkins,
            self.flipped,
            discarded,
            seat,
            self.turn,
            0,  # R17: a refresh changed the market, so it breaks a run of passes
            trigger,
            (action, self.log),
        )

    def _pass(self, t: Tables, seat: int, action: object) -> Core | None:
        legal = self.legal()
        if legal[-1] is not t.pass_:
            return None
        passes = self.passes + 1
        return self._end_turn(
            t,
            seat,
            action,
            self.costumes,
            self.tracks,
            self.market,
            self.position,
            self.pumpkins,
            self.mean_pumpkins,
            self.flipped,
            self.discarded,
            passes,
            DEADLOCK if passes >= t.players else NO_REASON,  # R17
        )

    def _end_turn(
        self,
        t: Tables,
        seat: int,
        action: object,
        costumes: tuple[Costume, ...],
        tracks: tuple[Track, ...],
        market: tuple[int, ...],
        position: int,
        pumpkins: int,
        mean_pumpkins: int,
        flipped: int,
        discarded: tuple[int, ...],
        passes: int,
        reason: int,
    ) -> Core:
        trigger = self.trigger
        if reason != NO_REASON and trigger is None:
            trigger = t.make_trigger(seat, reason, self.turn)
        # R10: once triggered, the round ends with the seat to the right of the first player.
        current = -1 if trigger is not None and seat == t.last_player else (seat + 1) % t.players
        return Core(
            t,
            costumes,
            tracks,
            market,
            position,
            pumpkins,
            mean_pumpkins,
            flipped,
            discarded,
            current,
            self.turn + 1,
            passes,
            trigger,
            (action, self.log),
        )
