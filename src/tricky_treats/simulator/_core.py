"""The compact core: one game's moving part as plain ints, changed in place by each move.

Private; ``tricky_treats.Simulator`` (``simulator._simulator``) is its public face. It must
agree with ``rules``, the reference implementation, move for move: the equivalence digest of
``tests/core_equivalence.py`` checks it, in both builds. The module imports the standard
library only and is fully typed: in the compiled build mypyc compiles it, with the simulator
and the deal (the group ``hatch_build.COMPILED_GROUP``), so that they call each other natively;
without the compiled extension the same file runs as plain Python.

Actions are the ints of the game's ``ActionSpace`` (takes, then visits, then tricks, then
refresh and pass). Per player a ``Seat`` holds, packed into ints that mypyc keeps unboxed:

- ``counts``: cards worn per feature, 4 bits per feature; ``icons``: kids showing each trick
  icon, 4 bits per icon; ``ready``: the icons shown by 3 kids or more, a bit mask;
- ``free``: per costume type, 8 bits of the kids that do not wear it yet;
- ``qualified``: the nice houses whose lowest tier the player reaches, a bit mask;
- ``stacks``: per kid the cards it wears (id + 1, 10 bits per card, the top card lowest);
- ``treats`` (16 bits per treat), ``pumpkins``, ``visited`` and ``tricked`` (bit masks of
  houses) and ``footprints`` left.

The ``Core`` holds the seats, the market as card ids, the pumpkins and street tokens as bit
masks, whose turn it is, and the log: that of the state it was made from, and the codes played
since (``played``), which ``Simulator.state()`` turns into the state's log. A move allocates
nothing but a kid's new stack: no tuple, no object for the garbage collector to follow.

``deal`` deals a game straight into a core: the base game's shuffles drawn from the game's
``random.Random`` (the numbers ``new_game`` draws), on indices into tables per box worked out
once (``Box``); ``variants._base_deals`` builds those tables and checks them against
``new_game``. ``totals``, ``scores`` and ``winners`` score a game (R12 to R15) from the packed
ints and a ``Scoring``.

For the vector env (``adapters.vector``) it also encodes observations: ``encode`` lists a
view's entries of the observation encoding (``adapters.observation``, version 1) from the
packed ints, ``play_all`` and ``encode_all`` play and encode a batch of games in one call,
``new_deal`` and ``deal_entries`` give what a deal fixes in the encoding.

Which games it covers (``simulator._tables.covers()`` checks; the simulator plays the others
by the rules): every built-in variant and rule option, any number of players, at most 5 kids
per player (so a feature count fits 4 bits), a grid of 9 nice houses with 6 street tokens, at
most 8 mean houses and card ids below 1,000. Everything fits a 63-bit int.
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
CARD_BITS: Final = 10
CARD_MASK: Final = 1023
CARD_SPAN: Final = 1024
"""``1 << CARD_BITS``: a stack times it leaves room for one more card."""
TREAT_BITS: Final = 16
TREAT_MASK: Final = 65535
TYPES: Final = 3
"""Costume types: a kid wears at most one card of each, so a stack holds 3 cards at most."""

NO_REASON: Final = 0
LAST_FOOTPRINT: Final = 1
COMPLETE_COSTUMES: Final = 2
DECK_EMPTY: Final = 3
DEADLOCK: Final = 4


class Tables:
    """What the core needs of one game's setup, as ints and tuples (built once per game).

    ``take_codes[slot][kids]``, ``visit_codes[houses]`` and ``trick_codes[houses]`` are the
    codes of the takes, visits and tricks of each bit mask; ``actions`` the action objects by
    code (for the log); ``cards`` the cards by id; ``make_trigger`` builds the
    ``EndTrigger`` of a seat, reason and turn. Per card (by id) its costume type, the shift
    of that type's kids in ``Seat.free``, its trick icon, its features (indices into
    ``FEATURES``: colour, theme, type), their bit mask and their counts packed as
    ``Seat.counts`` packs them; per nice house the feature it wants, its treat, and
    ``house_gain[house][n]``, the treats it gives for n cards; ``qualifying[f << 4 | n]``,
    the nice houses wanting feature f whose lowest tier wants exactly n cards.
    """

    # Slots, here and in the classes below: in the pure build an instance of more than 30
    # attributes keeps them in a dict of its own, which makes every read a lookup.
    __slots__ = (
        "actions",
        "any_mean_house",
        "card_counts",
        "card_features",
        "card_free_shift",
        "card_icon",
        "card_icon_unit",
        "card_kid_bit",
        "card_look",
        "card_mask",
        "card_tiers",
        "card_type",
        "cards",
        "deck",
        "deck_size",
        "house_feature",
        "house_gain",
        "house_treat",
        "kids",
        "last_player",
        "make_trigger",
        "market_size",
        "mean_icon",
        "mean_ready",
        "next_seat",
        "pass_code",
        "players",
        "qualifying",
        "refresh_code",
        "refresh_ends_turn",
        "street_back",
        "street_front",
        "street_houses",
        "street_treat",
        "streets_of_house",
        "take_codes",
        "take_count",
        "take_mask",
        "take_place",
        "take_shift",
        "trick_codes",
        "trick_end",
        "visit_codes",
        "visit_end",
    )
    # Derived in __init__, or passed on from another deal's tables (``shape``): declared here,
    # where mypy (and mypyc) finds their types before that second assignment reads them.
    next_seat: tuple[int, ...]
    card_look: tuple[int, ...]
    card_icon_unit: tuple[int, ...]
    card_kid_bit: tuple[tuple[int, ...], ...]
    card_tiers: tuple[tuple[int, int, int, int, int, int], ...]
    take_shift: tuple[int, ...]
    take_mask: tuple[int, ...]
    take_place: tuple[tuple[int, int], ...]

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
        qualifying: tuple[int, ...],
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
        take_codes: tuple[tuple[tuple[int, ...], ...], ...],
        visit_codes: tuple[tuple[int, ...], ...],
        trick_codes: tuple[tuple[int, ...], ...],
        actions: tuple[object, ...],
        cards: tuple[object, ...],
        make_trigger: Callable[[int, int, int], object],
        shape: Tables | None = None,
    ) -> None:
        """``shape``: tables of the same box and players, whose derived tables are reused."""
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
        self.qualifying = qualifying
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
        self.take_codes = take_codes
        self.visit_codes = visit_codes
        self.trick_codes = trick_codes
        self.actions = actions
        self.cards = cards
        self.make_trigger = make_trigger
        self.take_count = market_size * kids
        self.visit_end = self.take_count + len(house_feature)
        self.trick_end = self.visit_end + len(mean_icon)
        self.refresh_code = self.trick_end
        self.pass_code = self.trick_end + 1
        if shape is None:
            next_seat = (*range(1, players), 0)  # the seat after each seat
            # card_free_shift and card_mask with one more entry, read for an empty slot
            # (card -1): a shift past every type's kids and no feature, so that
            # ``legal_codes`` needs no test for it.
            take_shift = (*card_free_shift, TYPES * FREE_BITS)
            take_mask = (*card_mask, 0)
            # Per take code, its market slot and kid: one lookup in ``play``.
            take_place = tuple([(code // kids, code % kids) for code in range(self.take_count)])
            # Per card its colour and theme in one int, 4 bits each (indices into FEATURES,
            # below 16: a 63-bit ``Seat.counts`` packs 4 bits for each feature): what a
            # costume's points compare.
            card_look = tuple([colour | theme << 4 for colour, theme, _ in card_features])
            # What a take reads per card, looked up rather than shifted (in the pure build a
            # shift costs more than a lookup): its icon's unit in ``Seat.icons``, its bit in
            # ``Seat.free`` per kid, and per feature where its entries start in
            # ``qualifying`` and where its count sits in ``Seat.counts``.
            card_icon_unit = tuple([1 << COUNT_BITS * icon for icon in card_icon])
            card_kid_bit = tuple(
                [tuple([1 << shift + kid for kid in range(kids)]) for shift in card_free_shift]
            )
            card_tiers = tuple(
                [
                    (
                        c << COUNT_BITS,
                        COUNT_BITS * c,
                        h << COUNT_BITS,
                        COUNT_BITS * h,
                        k << COUNT_BITS,
                        COUNT_BITS * k,
                    )
                    for c, h, k in card_features
                ]
            )
        else:  # another deal of the same box (a deal a game): its derived tables
            next_seat = shape.next_seat
            take_mask = shape.take_mask
            take_shift = shape.take_shift
            take_place = shape.take_place
            card_look = shape.card_look
            card_icon_unit = shape.card_icon_unit
            card_kid_bit = shape.card_kid_bit
            card_tiers = shape.card_tiers
        self.next_seat = next_seat
        self.card_look = card_look
        self.card_icon_unit = card_icon_unit
        self.card_kid_bit = card_kid_bit
        self.card_tiers = card_tiers
        self.take_mask = take_mask
        self.take_shift = take_shift
        self.take_place = take_place

    def with_deck(self, deck: tuple[int, ...]) -> Tables:
        """The same tables for a deck in another order (a determinized game's)."""
        return self.with_deal(
            deck,
            self.qualifying,
            self.house_feature,
            self.house_treat,
            self.house_gain,
            self.street_treat,
            self.street_front,
            self.street_back,
            self.mean_icon,
            self.mean_ready,
            self.cards,
        )

    def with_deal(
        self,
        deck: tuple[int, ...],
        qualifying: tuple[int, ...],
        house_feature: tuple[int, ...],
        house_treat: tuple[int, ...],
        house_gain: tuple[tuple[int, ...], ...],
        street_treat: tuple[int, ...],
        street_front: tuple[int, ...],
        street_back: tuple[int, ...],
        mean_icon: tuple[int, ...],
        mean_ready: tuple[int, ...],
        cards: tuple[object, ...],
    ) -> Tables:
        """The same tables for another deal of the same box.

        Its deck, grid, street tokens, mean houses' icons and cards by id (a loaded game's,
        or a plugin's deal's, may differ from the template's).
        """
        return Tables(
            self.players,
            self.kids,
            self.market_size,
            self.last_player,
            self.any_mean_house,
            self.refresh_ends_turn,
            deck,
            self.card_type,
            self.card_free_shift,
            self.card_icon,
            self.card_features,
            self.card_mask,
            self.card_counts,
            qualifying,
            house_feature,
            house_treat,
            house_gain,
            self.street_houses,
            self.streets_of_house,
            street_treat,
            street_front,
            street_back,
            mean_icon,
            mean_ready,
            self.take_codes,
            self.visit_codes,
            self.trick_codes,
            self.actions,
            cards,
            self.make_trigger,
            self,
        )


def ready_icons(icons: int) -> int:
    """A bit mask of the trick icons that ``icons`` (packed counts) shows on 3 kids or more.

    ``TrickIcon`` has 3 members.
    """
    return (
        (icons & COUNT_MASK >= 3)
        | (icons >> COUNT_BITS & COUNT_MASK >= 3) << 1
        | (icons >> 2 * COUNT_BITS & COUNT_MASK >= 3) << 2
    )


READY: Final = tuple([ready_icons(icons) for icons in range(1 << 3 * COUNT_BITS)])
"""``ready_icons`` of every packed count of the 3 trick icons: a take looks it up."""


class Seat:
    """One player's board, packed (see the module); ``copy()`` copies it."""

    __slots__ = (
        "counts",
        "footprints",
        "free",
        "icons",
        "pumpkins",
        "qualified",
        "ready",
        "stacks",
        "treats",
        "tricked",
        "visited",
    )

    def __init__(
        self,
        counts: int,
        icons: int,
        free: int,
        qualified: int,
        stacks: list[int],
        treats: int,
        pumpkins: int,
        visited: int,
        tricked: int,
        footprints: int,
    ) -> None:
        self.counts = counts
        self.icons = icons
        self.ready = READY[icons]
        self.free = free
        self.qualified = qualified
        self.stacks = stacks
        self.treats = treats
        self.pumpkins = pumpkins
        self.visited = visited
        self.tricked = tricked
        self.footprints = footprints

    def copy(self) -> Seat:
        """An independent copy."""
        return Seat(
            self.counts,
            self.icons,
            self.free,
            self.qualified,
            self.stacks[:],
            self.treats,
            self.pumpkins,
            self.visited,
            self.tricked,
            self.footprints,
        )


def empty_seat(kids: int, footprints: int, qualified: int) -> Seat:
    """A seat at the start of a game: no kid wears a card, every footprint is left.

    ``qualified``: the houses whose lowest tier wants no card (``qualified_by(..., 0)``).
    """
    free = ((1 << kids) - 1) * EVERY_TYPE  # the kids, in each type's 8 bits
    return Seat(0, 0, free, qualified, [0] * kids, 0, 0, 0, 0, footprints)


EVERY_TYPE: Final = sum([1 << FREE_BITS * kind for kind in range(TYPES)])


def qualified_by(qualifying: tuple[int, ...], counts: int) -> int:
    """The nice houses whose lowest tier cards counted as ``counts`` (packed) reach."""
    qualified = 0
    if not counts:  # a first state's: the houses whose lowest tier wants no card
        for houses in qualifying[:: 1 << COUNT_BITS]:
            qualified |= houses
        return qualified
    for feature in range(len(qualifying) >> COUNT_BITS):
        count = counts >> COUNT_BITS * feature & COUNT_MASK
        for n in range(count + 1):
            qualified |= qualifying[feature << COUNT_BITS | n]
    return qualified


class Core:
    """The moving part of one game, changed in place by ``play()``; ``clone()`` copies it.

    ``seats`` are the players' boards; ``market`` holds card ids, -1 for an empty slot;
    ``house_pumpkins`` and ``mean_pumpkins`` are bit masks of the houses whose pumpkin is
    still there; ``flipped`` a bit mask of the street tokens showing their back; ``current``
    is -1 once the game is over; ``trigger`` is None or the ``EndTrigger`` that
    ``tables.make_trigger`` built; ``log`` is the action log of the state the core was made
    from (nested pairs of action objects, newest first, as ``GameState.log``), and ``played``
    the codes played since, oldest first.
    """

    __slots__ = (
        "current",
        "discarded",
        "flipped",
        "house_pumpkins",
        "log",
        "market",
        "mean_pumpkins",
        "passes",
        "played",
        "position",
        "seats",
        "tables",
        "trigger",
        "turn",
    )

    def __init__(
        self,
        tables: Tables,
        seats: list[Seat],
        market: list[int],
        position: int,
        house_pumpkins: int,
        mean_pumpkins: int,
        flipped: int,
        discarded: tuple[int, ...],
        current: int,
        turn: int,
        passes: int,
        trigger: object,
        log: object,
        played: list[int],
    ) -> None:
        self.tables = tables
        self.seats = seats
        self.market = market
        self.position = position
        self.house_pumpkins = house_pumpkins
        self.mean_pumpkins = mean_pumpkins
        self.flipped = flipped
        self.discarded = discarded
        self.current = current
        self.turn = turn
        self.passes = passes
        self.trigger = trigger
        self.log = log
        self.played = played

    def clone(self) -> Core:
        """An independent copy (the tables and the log it was made from are shared)."""
        return self.clone_with(self.tables)

    def clone_with(self, tables: Tables) -> Core:
        """An independent copy playing with ``tables`` (the same game, another deck order)."""
        return Core(
            tables,
            [seat.copy() for seat in self.seats],
            self.market[:],
            self.position,
            self.house_pumpkins,
            self.mean_pumpkins,
            self.flipped,
            self.discarded,
            self.current,
            self.turn,
            self.passes,
            self.trigger,
            self.log,
            self.played[:],
        )

    def legal_codes(self) -> list[int]:
        """The current player's legal actions as codes, in canonical order."""
        current = self.current
        if current < 0:
            return []
        t = self.tables
        seat = self.seats[current]
        codes: list[int] = []
        free_shift = t.take_shift
        card_mask = t.take_mask
        free = seat.free
        shared = -1
        # An empty slot (-1) reads the tables' last entries: no kid, no shared feature. zip
        # without strict=: mypyc compiles positional zip to a plain loop.
        for card, slot_codes in zip(self.market, t.take_codes):  # noqa: B905
            kids = free >> free_shift[card] & FREE_MASK
            if kids:
                codes.extend(slot_codes[kids])
            shared &= card_mask[card]
        if seat.footprints:
            visitable = seat.qualified & ~seat.visited
            if visitable:
                codes.extend(t.visit_codes[visitable])
            ready = seat.ready
            if ready:
                trickable = t.mean_ready[ready] & ~seat.tricked
                if trickable:
                    codes.extend(t.trick_codes[trickable])
        if shared and self.position < t.deck_size:
            codes.append(t.refresh_code)
            if len(codes) == 1:
                codes.append(t.pass_code)  # R18, under either form of R8
        elif not codes:
            codes.append(t.pass_code)  # R11
        return codes

    def visit_codes(self) -> list[int]:
        """The legal visits and tricks alone, as ``legal_codes()`` lists them.

        For rollouts that prefer visits: the same codes without listing the takes.
        """
        current = self.current
        if current < 0:
            return []
        seat = self.seats[current]
        if not seat.footprints:
            return []
        t = self.tables
        codes = list(t.visit_codes[seat.qualified & ~seat.visited])
        ready = seat.ready
        if ready:
            trickable = t.mean_ready[ready] & ~seat.tricked
            if trickable:
                codes.extend(t.trick_codes[trickable])
        return codes

    def play(self, code: int) -> bool:
        """Play the action numbered ``code`` for the current player.

        False, and nothing changed, if it is not legal here (the caller asks the reference
        rules why).
        """
        current = self.current
        if current < 0 or code < 0:
            return False
        t = self.tables
        if code >= t.take_count:
            if code < t.visit_end:
                return self._visit(t, current, code - t.take_count, code)
            if code < t.trick_end:
                return self._trick(t, current, code - t.visit_end, code)
            if code == t.refresh_code:
                return self._refresh(t, current, code)
            if code == t.pass_code:
                return self._pass(t, current, code)
            return False
        # A take (R2, R3), most moves: played here, without a call (a call a move is much
        # of a move's time in the pure build).
        slot, kid = t.take_place[code]
        market = self.market
        card = market[slot]
        if card < 0:
            return False
        seat = self.seats[current]
        free = seat.free
        free_bit = t.card_kid_bit[card][kid]
        if not free & free_bit:
            return False
        counts = seat.counts + t.card_counts[card]
        qualifying = t.qualifying
        # Each of its three features (colour, theme, type) counts one card more. The houses
        # whose lowest tier that count reaches just now were not qualified, and each wants
        # one feature: the masks share no bit, so adding them is or-ing them (and in the
        # pure build an addition costs fewer steps than an or, a subtraction than an xor, a
        # multiplication than a shift).
        colour, colour_at, theme, theme_at, kind, kind_at = t.card_tiers[card]
        qualified = (
            seat.qualified
            + qualifying[colour + (counts >> colour_at & COUNT_MASK)]
            + qualifying[theme + (counts >> theme_at & COUNT_MASK)]
            + qualifying[kind + (counts >> kind_at & COUNT_MASK)]
        )
        icon_unit = t.card_icon_unit
        stacks = seat.stacks
        stack = stacks[kid]
        icons = seat.icons + icon_unit[card]
        if stack:
            icons -= icon_unit[(stack & CARD_MASK) - 1]  # now covered (R3)
        stacks[kid] = stack * CARD_SPAN + card + 1  # stack << CARD_BITS | card + 1
        free -= free_bit  # set, as checked above: now clear
        seat.counts = counts
        seat.icons = icons
        seat.ready = READY[icons]
        seat.free = free
        seat.qualified = qualified
        reason = NO_REASON if free else COMPLETE_COSTUMES
        position = self.position
        if position < t.deck_size:
            market[slot] = t.deck[position]
            position += 1
            self.position = position
            if position == t.deck_size and reason == NO_REASON:
                reason = DECK_EMPTY
        else:
            market[slot] = -1
        self.passes = 0
        # _end_turn(), without a call.
        trigger = self.trigger
        if reason != NO_REASON and trigger is None:
            trigger = self.trigger = t.make_trigger(current, reason, self.turn)
        self.current = (
            -1 if trigger is not None and current == t.last_player else t.next_seat[current]
        )
        self.turn += 1
        self.played.append(code)
        return True

    def _visit(self, t: Tables, current: int, house: int, code: int) -> bool:
        seat = self.seats[current]
        footprints = seat.footprints
        visited = seat.visited
        bit = 1 << house
        if not footprints or not seat.qualified & ~visited & bit:
            return False
        matching = seat.counts >> COUNT_BITS * t.house_feature[house] & COUNT_MASK
        gained = t.house_gain[house][matching]
        if not gained:
            return False
        treats = seat.treats + (gained << TREAT_BITS * t.house_treat[house])
        visited |= bit
        if self.house_pumpkins & bit:
            seat.pumpkins += 1
            self.house_pumpkins &= ~bit
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
        self.flipped = flipped
        seat.treats = treats
        seat.visited = visited
        footprints -= 1
        seat.footprints = footprints
        self.passes = 0
        trigger = self.trigger  # _end_turn(), without a call
        if not footprints and trigger is None:
            trigger = self.trigger = t.make_trigger(current, LAST_FOOTPRINT, self.turn)
        self.current = (
            -1 if trigger is not None and current == t.last_player else t.next_seat[current]
        )
        self.turn += 1
        self.played.append(code)
        return True

    def _trick(self, t: Tables, current: int, house: int, code: int) -> bool:
        seat = self.seats[current]
        footprints = seat.footprints
        bit = 1 << house
        if not footprints or seat.tricked & bit:
            return False
        if not t.mean_ready[seat.ready] & bit:
            return False
        if self.mean_pumpkins & bit:
            seat.pumpkins += 1
            self.mean_pumpkins &= ~bit
        seat.tricked |= bit
        footprints -= 1
        seat.footprints = footprints
        self.passes = 0
        self._end_turn(t, current, code, NO_REASON if footprints else LAST_FOOTPRINT)
        return True

    def _refresh(self, t: Tables, current: int, code: int) -> bool:
        if t.refresh_code not in self.legal_codes():
            return False
        position = self.position
        end = min(position + t.market_size, t.deck_size)
        discarded = list(self.discarded)
        market = self.market
        for slot in range(len(market)):
            card = market[slot]
            if card >= 0:
                discarded.append(card)
            # R19: the market may shrink
            market[slot] = t.deck[position + slot] if position + slot < end else -1
        self.discarded = tuple(discarded)
        self.position = end
        self.passes = 0  # R17: a refresh changed the market, so it breaks a run of passes
        reason = DECK_EMPTY if end == t.deck_size else NO_REASON
        if t.refresh_ends_turn:
            self._end_turn(t, current, code, reason)
            return True
        # R8: the refresh is not the turn's action; the same player acts again.
        if reason != NO_REASON and self.trigger is None:
            self.trigger = t.make_trigger(current, reason, self.turn)
        self.played.append(code)
        return True

    def _pass(self, t: Tables, current: int, code: int) -> bool:
        legal = self.legal_codes()
        if legal[-1] != t.pass_code:
            return False
        self.passes += 1
        self._end_turn(t, current, code, DEADLOCK if self.passes >= t.players else NO_REASON)
        return True

    def _end_turn(self, t: Tables, current: int, code: int, reason: int) -> None:
        trigger = self.trigger
        if reason != NO_REASON and trigger is None:
            trigger = self.trigger = t.make_trigger(current, reason, self.turn)
        # R10: once triggered, the round ends with the seat to the right of the first player.
        self.current = (
            -1 if trigger is not None and current == t.last_player else t.next_seat[current]
        )
        self.turn += 1
        self.played.append(code)


def new_core(
    tables: Tables, footprints: int, market: list[int], position: int, first_player: int
) -> Core:
    """The core of a game's first state: nobody wears a card, every pumpkin is out.

    ``market`` holds the ids of the top cards of the deck, which the market shows, and
    ``position`` is where the deck goes on (the market's size).
    """
    kids = tables.kids
    qualified = qualified_by(tables.qualifying, 0)
    return Core(
        tables,
        [empty_seat(kids, footprints, qualified) for _ in range(tables.players)],
        market,
        position,
        (1 << len(tables.house_feature)) - 1,
        (1 << len(tables.mean_icon)) - 1,
        0,
        (),
        first_player,
        0,
        0,
        None,
        None,
        [],
    )


# -- scoring ------------------------------------------------------------------------------------


class Scoring:
    """What scoring reads of a game beside its core: the trick tiles, and a pumpkin's worth.

    ``tile_needs[t][k]`` is how many of treat k one set of tile t holds (0: none),
    ``tile_points[t]`` its points; ``secret[seat]`` and ``mean[house]`` are such numbers t:
    the seats' secret tiles and the mean houses' tiles.
    """

    __slots__ = (
        "mean",
        "pumpkin_points",
        "secret",
        "tile_needs",
        "tile_points",
    )

    def __init__(
        self,
        tile_needs: tuple[tuple[int, ...], ...],
        tile_points: tuple[int, ...],
        secret: tuple[int, ...],
        mean: tuple[int, ...],
        pumpkin_points: int,
    ) -> None:
        self.tile_needs = tile_needs
        self.tile_points = tile_points
        self.secret = secret
        self.mean = mean
        self.pumpkin_points = pumpkin_points


def totals(core: Core, scoring: Scoring) -> list[int]:
    """Per seat four ints, flat: its total, trick-tile, pumpkin and costume points (R12 to R15).

    ``scoring.score_sheet``'s sums without a variant's lines, from the packed ints: the
    pumpkins, each complete costume (R12: 8 same colour and theme, 6 same theme, 4 same
    colour, else 2) and each trick tile the seat has access to (R14: its secret tile, and the
    tile of each mean house it tricked), which scores its points per complete set.
    """
    looks = core.tables.card_look
    found: list[int] = []
    for number, seat in enumerate(core.seats):
        total, tiles, pumpkins, costumes = seat_points(looks, scoring, number, seat)
        found.append(total)
        found.append(tiles)
        found.append(pumpkins)
        found.append(costumes)
    return found


def seat_points(
    looks: tuple[int, ...], scoring: Scoring, number: int, seat: Seat
) -> tuple[int, int, int, int]:
    """Seat ``number``'s total, trick-tile, pumpkin and costume points (see ``totals``).

    They read its own board alone: its cards, treats, pumpkins, tricked houses and secret tile.
    ``looks`` is ``Tables.card_look``.
    """
    needs = scoring.tile_needs
    points = scoring.tile_points
    mean = scoring.mean
    packed = seat.treats
    secret = scoring.secret[number]
    tiles = _complete_sets(needs[secret], packed) * points[secret]
    tricked = seat.tricked
    house = 0
    while tricked:
        if tricked & 1:
            tile = mean[house]
            tiles += _complete_sets(needs[tile], packed) * points[tile]
        tricked >>= 1
        house += 1
    costumes = 0
    for stack in seat.stacks:
        if stack >> 2 * CARD_BITS:  # complete (else no points): costume_of, without a call
            top = looks[(stack & CARD_MASK) - 1]
            middle = looks[(stack >> CARD_BITS & CARD_MASK) - 1]
            costumes += _COSTUME_BY_DIFFERENCE[
                (top ^ middle) | (top ^ looks[(stack >> 2 * CARD_BITS) - 1])
            ]
    pumpkins = seat.pumpkins * scoring.pumpkin_points
    return pumpkins + costumes + tiles, tiles, pumpkins, costumes


def scores(core: Core, scoring: Scoring) -> tuple[int, ...]:
    """Each seat's total (``ScoreSheet.total``)."""
    return tuple(totals(core, scoring)[::4])


def winners(core: Core, scoring: Scoring) -> tuple[int, ...]:
    """The seats that share the win (R15): the best total, then the most trick-tile points."""
    return winners_of(totals(core, scoring))


def winners_of(flat: list[int]) -> tuple[int, ...]:
    """``winners`` of the seats' points as ``totals`` gives them."""
    best_total = -1
    best_tiles = -1
    won: list[int] = []
    for seat in range(len(flat) // 4):
        total = flat[4 * seat]
        tiles = flat[4 * seat + 1]
        if total > best_total or (total == best_total and tiles > best_tiles):
            best_total = total
            best_tiles = tiles
            won = [seat]
        elif total == best_total and tiles == best_tiles:
            won.append(seat)
    return tuple(won)


_COSTUME_POINTS: Final = (2, 4, 6, 8)
"""A complete costume's points (R12) by its sameness: bit 0 one colour, bit 1 one theme."""

_COSTUME_BY_DIFFERENCE: Final = tuple(
    [_COSTUME_POINTS[(bits & 15 == 0) | (bits >> 4 == 0) << 1] for bits in range(256)]
)
"""A complete costume's points by the bits where its cards' looks (``Tables.card_look``)
differ from the top card's: none in the low 4, one colour; none in the high 4, one theme."""


def _complete_sets(needs: tuple[int, ...], packed: int) -> int:
    """How many complete sets of a tile's treats ``needs`` the packed treat tracks hold."""
    sets = -1
    for treat in range(len(needs)):
        need = needs[treat]
        if need:
            held = (packed >> TREAT_BITS * treat & TREAT_MASK) // need
            if sets < 0 or held < sets:
                sets = held
    return 0 if sets < 0 else sets


# -- the greedy bot's valuation ----------------------------------------------------------------


def costume_of(looks: tuple[int, ...], stack: int) -> int:
    """The points of the costume of a kid wearing ``stack`` (R12; 0 until it is complete).

    ``looks`` is ``Tables.card_look``. ``seat_points`` writes the same lookup out.
    """
    if not stack >> 2 * CARD_BITS:
        return 0
    # Three cards, one of each type: complete.
    top = looks[(stack & CARD_MASK) - 1]
    middle = looks[(stack >> CARD_BITS & CARD_MASK) - 1]
    return _COSTUME_BY_DIFFERENCE[(top ^ middle) | (top ^ looks[(stack >> 2 * CARD_BITS) - 1])]


def greedy_value(
    features: tuple[tuple[int, ...], ...],
    looks: tuple[int, ...],
    scoring: Scoring,
    number: int,
    seat: Seat,
    kid: int,
    worn: int,
) -> float:
    """What ``agents.evaluate`` gives seat ``number`` on its board ``seat``.

    With kid ``kid`` wearing the stack ``worn`` instead of its own (-1: none): the board a
    take leaves, whose other parts it does not change. Its points (``seat_points``) plus half
    the promise of its unfinished costumes: each kid wearing 1 or 2 cards adds its number of
    cards times 1.0 if they share a theme, plus 0.6 if they share a colour, plus 0.3. The same
    floating-point operations in the same order as ``evaluate``, so the values are equal, not
    merely close.
    """
    total = seat_points(looks, scoring, number, seat)[0]
    potential = 0.0
    stacks = seat.stacks
    for at in range(len(stacks)):
        stack = stacks[at]
        if at == kid:
            total += costume_of(looks, worn) - costume_of(looks, stack)
            stack = worn
        if stack and not stack >> 2 * CARD_BITS:
            top = features[(stack & CARD_MASK) - 1]
            below = stack >> CARD_BITS
            if below:
                other = features[(below & CARD_MASK) - 1]
                theme = 1.0 if top[1] == other[1] else 0.0
                colour = 0.6 if top[0] == other[0] else 0.0
                potential += 2 * (theme + colour + 0.3)
            else:
                potential += 1 * (1.0 + 0.6 + 0.3)
    return total + 0.5 * potential


class Afterstates:
    """Plays codes one at a time on ``core`` for the player to move, each undone by ``undo()``.

    ``play(code)`` plays a legal code on a copy of the mover's board and of the market and
    returns that board; ``undo()`` puts back the board, the market and every other field a
    move changes, so that the core is left as it was.
    """

    __slots__ = (
        "core",
        "current",
        "discarded",
        "flipped",
        "house_pumpkins",
        "length",
        "market",
        "mean_pumpkins",
        "passes",
        "position",
        "seat",
        "trigger",
        "turn",
    )

    def __init__(self, core: Core) -> None:
        self.core = core
        self.current = core.current
        self.seat = core.seats[self.current]
        self.market = core.market
        self.position = core.position
        self.house_pumpkins = core.house_pumpkins
        self.mean_pumpkins = core.mean_pumpkins
        self.flipped = core.flipped
        self.discarded = core.discarded
        self.turn = core.turn
        self.passes = core.passes
        self.trigger = core.trigger
        self.length = len(core.played)

    def play(self, code: int) -> Seat:
        """Play ``code`` (legal here) on copies; the mover's board afterwards."""
        core = self.core
        board = self.seat.copy()
        core.seats[self.current] = board
        core.market = self.market[:]
        played_it = core.play(code)
        assert played_it, "Afterstates plays legal codes only"
        return board

    def undo(self) -> None:
        """Put the core back as it was before ``play``."""
        core = self.core
        current = self.current
        core.seats[current] = self.seat
        core.market = self.market
        core.position = self.position
        core.house_pumpkins = self.house_pumpkins
        core.mean_pumpkins = self.mean_pumpkins
        core.flipped = self.flipped
        core.discarded = self.discarded
        core.current = current
        core.turn = self.turn
        core.passes = self.passes
        core.trigger = self.trigger
        del core.played[self.length :]


def greedy_values(core: Core, scoring: Scoring, codes: list[int]) -> list[float]:
    """Per code of ``codes`` (each legal here), what ``GreedyAgent`` values it at.

    The value for the player to move of the board the action leaves them (``greedy_value``),
    less 0.01 for a take after which they act again. A take's value is that of the mover's
    board with the card on the kid's stack (with two players or more, a take ends the turn);
    any other action is played on the core and undone: the mover's board is played on a copy,
    the market on a copy, and the rest put back. Only the mover's own board and whether they
    act next are read: neither depends on the hidden information (the deck's order, the other
    secret tiles), which a take or a refresh brings into the market but no value reads. A
    refresh or a pass leaves the mover's board as it is.
    """
    t = core.tables
    features = t.card_features
    current = core.current
    seats = core.seats
    seat = seats[current]
    looks = t.card_look
    unchanged = greedy_value(features, looks, scoring, current, seat, -1, 0)
    kids = t.kids
    stacks = seat.stacks
    # A take changes one kid's stack, and ends the turn unless the mover plays alone.
    alone = t.players == 1
    market = core.market
    afterstates = Afterstates(core)
    take_count = t.take_count
    trick_end = t.trick_end
    values: list[float] = []
    for code in codes:
        if code >= trick_end:  # a refresh or a pass
            values.append(unchanged)
            continue
        if code < take_count and not alone:
            kid = code % kids
            worn = stacks[kid] << CARD_BITS | market[code // kids] + 1
            values.append(greedy_value(features, looks, scoring, current, seat, kid, worn))
            continue
        board = afterstates.play(code)
        value = greedy_value(features, looks, scoring, current, board, -1, 0)
        if code < take_count and core.current == current:
            value -= 0.01  # same value: prefer ending the turn
        values.append(value)
        afterstates.undo()
    return values


def greedy_best(codes: list[int], values: list[float]) -> list[int]:
    """The codes of the best value, as ``GreedyAgent`` finds them: equal within 1e-9."""
    best: list[int] = []
    best_value = -1e300
    for i in range(len(codes)):
        value = values[i]
        if value > best_value + 1e-9:
            best = [codes[i]]
            best_value = value
        elif abs(value - best_value) <= 1e-9:
            best.append(codes[i])
    return best


def random_below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number below ``n`` (at least 1) drawn as ``random.Random.randrange(n)`` draws it."""
    bits = n.bit_length()
    r: int = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def greedy_choices(
    cores: list[Core], scorings: list[Scoring], getrandbits: Callable[[int], int]
) -> list[int]:
    """Per core (each of a game that goes on), the code ``GreedyAgent`` would choose.

    One of the best codes (``greedy_best``), the tie broken by ``getrandbits`` (a
    ``random.Random``'s); with a single legal code, that one, drawing nothing. The codes are
    valued by ``greedy_take_values`` (``greedy_values``' floats, its takes valued quicker).
    Each core is left as it was.
    """
    chosen: list[int] = []
    for i in range(len(cores)):
        core = cores[i]
        codes = core.legal_codes()
        if len(codes) == 1:
            chosen.append(codes[0])
            continue
        best = greedy_best(codes, greedy_take_values(core, scorings[i], codes))
        chosen.append(best[random_below(getrandbits, len(best))])
    return chosen


# -- the vector env's encoding ------------------------------------------------------------------


class Layout:
    """Where the observation encoding (``adapters.observation``, version 1) puts each entry.

    Built once per configuration by ``adapters.vector`` from the sections' offsets (``at``).
    ``card_kid[card]`` are the offsets of a worn card's ones within its kid's block of
    ``3 x 11``, ``card_market[card]`` those of a market card within its slot's 14,
    ``card_top[card]`` its costume type and trick icon. ``trigger_of`` gives an end trigger's
    seat and the index of its reason. ``count_at`` lists the offsets of the counts in the
    order ``encode`` gives their values: turn, passes. The game's
    market block (``market_row`` entries) is the sections ``market``, ``deck_size``,
    ``deck_features``, ``deck_icons`` and ``discarded``, one after the other (``deck_row``
    gives the last four). ``worn_size`` is a seat's entries of ``kids``, ``top_type`` and
    ``shown_icon``. ``features`` is how many features a house may want, ``most_cards`` the
    width of a row of ``house_treats``.
    """

    def __init__(
        self,
        size: int,
        at: dict[str, int],
        players: int,
        kids: int,
        market_size: int,
        houses: int,
        streets: int,
        mean_houses: int,
        tiles: int,
        card_kid: tuple[tuple[int, ...], ...],
        card_market: tuple[tuple[int, ...], ...],
        card_top: tuple[tuple[int, int], ...],
        trigger_of: Callable[[object], tuple[int, int]],
        features: int,
        most_cards: int,
    ) -> None:
        self.size = size
        self.features = features
        self.most_cards = most_cards
        self.wants_at = at["house_wants"]
        self.house_treat_at = at["house_treat"]
        self.street_treat_at = at["street_treat"]
        self.mean_icon_at = at["mean_icon"]
        self.mean_tile_at = at["mean_tile"]
        self.rules_at = at["rule_options"]
        self.worn_size = kids * 39  # per kid 3 x 11 entries in kids, 3 in each of the others
        # The market's slots, then the deck's size and 13 counts, and the cards discarded.
        self.market_row = market_size * 14 + 15
        self.kids_at = at["kids"]
        self.top_at = at["top_type"]
        self.icon_at = at["shown_icon"]
        self.secret_at = at["secret_tile"]
        self.unseen_at = at["unseen_tiles"]
        self.to_act_at = at["to_act"]
        self.game_over_at = at["game_over"]
        self.trigger_at = at["end_triggered_by"]
        self.reason_at = at["end_reason"]
        self.first_at = at["first_player"]
        self.tiles = tiles
        self.card_top = card_top
        self.trigger_of = trigger_of
        self.card_kid = card_kid
        self.streets = streets
        self.card_market = card_market
        self.market_size = market_size
        self.count_at = (at["turn"], at["passes_in_a_row"])
        # What ``observation`` reads besides: the sizes and the offsets of the other sections.
        self.kids = kids
        self.houses = houses
        self.mean_houses = mean_houses
        self.treats_at = at["treats"]
        self.pumpkins_at = at["pumpkins"]
        self.footprints_at = at["footprints"]
        self.visited_at = at["visited"]
        self.tricked_at = at["tricked"]
        self.house_treats_at = at["house_treats"]
        self.house_pumpkin_at = at["house_pumpkin"]
        self.street_value_at = at["street_value"]
        self.street_flipped_at = at["street_flipped"]
        self.mean_pumpkin_at = at["mean_pumpkin"]
        self.market_at = at["market"]
        self.deck_at = at["deck_size"]


class Deal:
    """What the encoding needs of one deal that the core does not hold.

    ``secret[seat]`` is the index of the seat's secret tile; ``unseen[viewer]`` the offsets of
    the tiles the viewer cannot see while the game goes on, ``unseen_shown`` once every secret
    tile is shown; ``deck`` the card ids of the deck, and ``card_deck[card]`` the counts
    of ``deck_left`` a card is in.
    """

    def __init__(
        self,
        secret: tuple[int, ...],
        unseen: tuple[tuple[int, ...], ...],
        unseen_shown: tuple[int, ...],
        face_up: bool,
        first_player: int,
        deck: tuple[int, ...],
        card_deck: tuple[tuple[int, ...], ...],
    ) -> None:
        self.secret = secret
        self.unseen = unseen
        self.unseen_shown = unseen_shown
        self.face_up = face_up
        self.first_player = first_player
        self.deck = deck
        self.card_deck = card_deck
        self.left: list[list[int]] = []  # deck_left per position, made when first read


def new_deal(
    layout: Layout,
    secret: tuple[int, ...],
    mean_tiles: tuple[int, ...],
    face_up: bool,
    first_player: int,
    deck: tuple[int, ...],
    card_deck: tuple[tuple[int, ...], ...],
) -> Deal:
    """The ``Deal`` of a game (``deal_entries`` lists what it fixes).

    ``secret`` are the indices of the seats' secret tiles, ``mean_tiles`` those of the tiles
    on the mean houses; ``card_deck[card]`` the counts of ``deck_left`` a card is in.
    """
    at = layout.unseen_at
    off_board = [at + i for i in range(layout.tiles) if i not in mean_tiles]
    mine = [at + i for i in secret]
    return Deal(
        secret,
        tuple([tuple([i for i in off_board if i != own]) for own in mine]),
        tuple([i for i in off_board if i not in mine]),
        face_up,
        first_player,
        deck,
        card_deck,
    )


def deal_entries(
    core: Core,
    layout: Layout,
    deal: Deal,
    mean_tiles: tuple[int, ...],
    game: int,
    fixed: list[int],
    treats: list[int],
    market: list[int],
    seats: list[int],
    deck: list[int],
    boards: list[int],
) -> None:
    """List what game ``game``'s deal fixes in the vector env's arrays.

    To ``fixed``, the offsets of the ones of its fixed part (one row of ``layout.size`` per
    viewer, the games' rows one after the other): the board's (what each nice house wants,
    the treats of the houses and street tokens, the mean houses' icons and tiles, the rule
    options) and each viewer's ``viewer_ones``. To ``treats``, the game's ``house_treats``
    (per house the treats for 1 to ``most_cards`` cards). To ``market``, the ones of its
    market block (``market_block``), offsets into the games' blocks one after the other; to
    ``seats``, per seat the game, the seat and its ``seat_row``; to ``deck``, its
    ``deck_row``; to ``boards``, the game and its ``board_row``. A deal's kids wear no card.
    """
    n = core.tables.players
    board: list[int] = []
    board_ones(core, layout, mean_tiles, board, treats)
    size = layout.size
    for viewer in range(n):
        at = (game * n + viewer) * size
        fixed.extend([at + i for i in board])
        own: list[int] = []
        viewer_ones(layout, deal, viewer, deal.face_up, n, own)
        fixed.extend([at + i for i in own])
        assert not core.seats[viewer].counts, "a deal's kids wear no card yet"
        seats.append(game)
        seats.append(viewer)
        seat_row(core, viewer, seats)
    market_block(core, layout, list(range(len(core.market))), market, game * layout.market_row)
    deck_row(core, deal, deck)
    boards.append(game)
    board_row(core, layout, boards)


def deck_left(
    deck: tuple[int, ...], position: int, card_deck: tuple[tuple[int, ...], ...]
) -> list[int]:
    """The cards of ``deck`` from ``position`` on per feature, then per trick icon (13 counts)."""
    counts = [0] * 13
    for at in range(position, len(deck)):
        for entry in card_deck[deck[at]]:
            counts[entry] += 1
    return counts


def deck_row(core: Core, deal: Deal, row: list[int]) -> None:
    """Append the game's ``deck_size``, ``deck_features``, ``deck_icons`` and ``discarded``.

    15 counts: the cards left in the deck, those per feature then per trick icon, and the
    cards discarded.
    """
    position = core.position
    row.append(core.tables.deck_size - position)
    row.extend(deck_left(deal.deck, position, deal.card_deck))  # once a deal: the env counts on
    row.append(len(core.discarded))


def market_block(core: Core, layout: Layout, slots: list[int], ones: list[int], base: int) -> None:
    """The ``market`` section's ones of ``slots`` (14 entries a slot), from ``base`` on."""
    card_market = layout.card_market
    market = core.market
    for slot in slots:
        card = market[slot]
        if card >= 0:
            at = base + slot * 14
            ones.extend([at + entry for entry in card_market[card]])


def seat_row(core: Core, seat: int, row: list[int]) -> None:
    """Append ``seat``'s row of the seat sections after ``kids``: 7 ints.

    The houses it visited and tricked (bit masks), its treats, pumpkins and footprints.
    """
    board = core.seats[seat]
    treats = board.treats
    row.extend(
        (
            board.visited,
            board.tricked,
            treats & TREAT_MASK,
            treats >> TREAT_BITS & TREAT_MASK,
            treats >> 2 * TREAT_BITS & TREAT_MASK,
            board.pumpkins,
            board.footprints,
        )
    )


def play_all(
    cores: list[Core | None],
    codes: list[int],
    layout: Layout,
    takes: list[int],
    refreshed: list[int],
    seats: list[int],
    boards: list[int],
) -> list[int]:
    """Play ``codes[i]`` on ``cores[i]`` (each legal there; None: skipped).

    Returns the indices of the games that ended. What the moves change in the seats' rows
    and the market block the caller keeps per game and viewer goes to lists of small ints,
    which index tables: per card taken, ``takes`` gets six (the game, the seat, the
    kid, the card, its market slot and the card now there, -1 for none); per refresh,
    ``refreshed`` gets the game, the cards of its market's ``layout.market_size`` slots and
    the cards discarded so far;
    per visit or trick in a game that goes on (one that ended is dealt again), ``seats``
    gets the game, the seat and its ``seat_row``, and ``boards`` the game and its
    ``board_row``.
    """
    ended: list[int] = []
    slots = layout.market_size
    for i in range(len(cores)):
        core = cores[i]
        if core is None:
            continue
        code = codes[i]
        t = core.tables
        seat = core.current
        slot = -1
        card = -1
        if 0 <= code < t.take_count:
            slot = code // t.kids
            card = core.market[slot]
        played = core.play(code)
        assert played, "an action checked legal was refused"
        if card >= 0:
            takes.extend((i, seat, code % t.kids, card, slot, core.market[slot]))
        elif code == t.refresh_code:
            refreshed.append(i)
            market = core.market
            refreshed.extend([market[at] if at < len(market) else -1 for at in range(slots)])
            refreshed.append(len(core.discarded))
        elif code < t.trick_end and core.current >= 0:  # a visit or a trick: the rows
            seats.append(i)
            seats.append(seat)
            seat_row(core, seat, seats)
            boards.append(i)
            board_row(core, layout, boards)
        if core.current < 0:
            ended.append(i)
    return ended


def encode_all(
    cores: list[Core | None],
    layout: Layout,
    deals: list[Deal | None],
    ones: list[int],
    values: list[int],
    takes: list[int],
    legal: list[int],
    ends: list[int],
    players: list[int],
) -> None:
    """``encode`` each game for its player to move, and list its legal actions.

    The legal takes go to ``takes``: per market slot (``layout.market_size`` of them) a bit
    mask of the kids that may take its card; the other legal codes to ``legal``. Per game,
    ``ends`` gets where its ones, then its other legal codes, end in the lists, and
    ``players`` the seat to move. A game without a core or deal (None) gets no ones, zero
    counts, no takes and seat -1: the caller encodes it.
    """
    zeros = [0] * len(layout.count_at)
    slots = layout.market_size
    nothing = [0] * slots
    for i in range(len(cores)):
        core = cores[i]
        deal = deals[i]
        if core is None or deal is None:
            values.extend(zeros)
            takes.extend(nothing)
            players.append(-1)
        else:
            seat = core.current
            encode(core, layout, seat, ones, values)
            legal_masks(core, slots, takes, legal)
            players.append(seat)
        ends.append(len(ones))
        ends.append(len(legal))


def encode(core: Core, layout: Layout, viewer: int, ones: list[int], values: list[int]) -> None:
    """Append the entries of ``viewer``'s observation of ``core`` that change at every step.

    The offsets of the entries that are 1 go to ``ones``: who is to act, who triggered the
    end and why; the values of the counts at ``layout.count_at`` to ``values``: the turn and
    the passes in a row. The caller keeps the rest, as the vector env does: per game and
    viewer a fixed part (``deal_entries``: the board, the tiles the viewer sees, the first
    player, the seats' rows in the viewer's order, the market block), kept up to date by
    what ``play_all`` lists. With them, the same
    numbers as ``ObservationEncoding.encode(state.view(viewer))``, for a game that goes on
    (once it is over the tiles show, which the fixed part does not hold).
    """
    n = core.tables.players
    assert core.current >= 0, "a game is encoded while it goes on"
    ones.append(layout.to_act_at + (core.current - viewer) % n)
    trigger = core.trigger
    if trigger is not None:
        seat_reason = layout.trigger_of(trigger)
        ones.append(layout.trigger_at + (seat_reason[0] - viewer) % n)
        ones.append(layout.reason_at + seat_reason[1])
    values.append(core.turn)
    values.append(core.passes)


def board_row(core: Core, layout: Layout, row: list[int]) -> None:
    """Append what visits and tricks change on the board: 3 bit masks and the streets' values.

    The nice houses and the mean houses whose pumpkin is still there, the street tokens
    flipped, then each street's value now (``layout.streets`` of them).
    """
    t = core.tables
    flipped = core.flipped
    row.extend((core.house_pumpkins, core.mean_pumpkins, flipped))
    row.extend(
        [
            t.street_back[street] if flipped >> street & 1 else t.street_front[street]
            for street in range(layout.streets)
        ]
    )


def viewer_ones(
    layout: Layout, deal: Deal, viewer: int, shown: bool, players: int, ones: list[int]
) -> None:
    """Append the entries of ``viewer``'s observation that only the deal and viewer fix.

    The secret tiles the viewer sees (every one if ``shown``: face up, or the game over),
    the tiles unseen and who is first player.
    """
    tiles = layout.tiles
    for row in range(players):
        seat = (viewer + row) % players
        if shown or seat == viewer:
            ones.append(layout.secret_at + row * tiles + deal.secret[seat])
    ones.extend(deal.unseen_shown if shown else deal.unseen[viewer])
    ones.append(layout.first_at + (deal.first_player - viewer) % players)


# -- one observation, whole: the single-game adapters' encoder ----------------------------------


def board_ones(
    core: Core, layout: Layout, mean_tiles: tuple[int, ...], ones: list[int], treats: list[int]
) -> None:
    """Append the offsets of the ones a deal fixes on the board, and its ``house_treats``.

    The ones: what each nice house wants and its treat, the street tokens' treats, the mean
    houses' icons and tiles (``mean_tiles``, the tiles' indices), the rule options. To
    ``treats``, per house the treats for 1 to ``layout.most_cards`` matching cards.
    """
    t = core.tables
    features = layout.features
    most = layout.most_cards
    for h in range(len(t.house_feature)):
        ones.append(layout.wants_at + h * features + t.house_feature[h])
        ones.append(layout.house_treat_at + h * 3 + t.house_treat[h])
        treats.extend(t.house_gain[h][1 : most + 1])
    streets_at = layout.street_treat_at
    ones.extend([streets_at + s * 3 + t.street_treat[s] for s in range(len(t.street_treat))])
    tiles = layout.tiles
    for m in range(len(t.mean_icon)):
        ones.append(layout.mean_icon_at + m * 3 + t.mean_icon[m])
        ones.append(layout.mean_tile_at + m * tiles + mean_tiles[m])
    if t.any_mean_house:
        ones.append(layout.rules_at)
    if t.refresh_ends_turn:
        ones.append(layout.rules_at + 1)


def bit_ones(mask: int, at: int, ones: list[int]) -> None:
    """Append ``at + i`` for every bit ``i`` set in ``mask``."""
    i = 0
    while mask:
        if mask & 1:
            ones.append(at + i)
        mask >>= 1
        i += 1


def observation(
    core: Core,
    layout: Layout,
    deal: Deal,
    viewer: int,
    ones: list[int],
    counts: list[int],
    values: list[int],
) -> None:
    """List ``viewer``'s observation of ``core``: all of it but what ``board_ones`` lists.

    The offsets of the entries that are 1 go to ``ones``, those of the counts to ``counts``
    and their values, in the same order, to ``values``: with ``board_ones``' entries, the
    numbers of ``ObservationEncoding.encode(state.view(viewer))``, whether the game goes on
    or is over. Made of the functions the vector env's arrays are kept with (``seat_row``'s
    fields, ``board_row``'s, ``market_block``, ``deck_row``, ``viewer_ones``, ``encode``), for
    the adapters that encode one game at a time (``adapters._encoder``).
    """
    t = core.tables
    n = t.players
    kids = layout.kids
    houses = layout.houses
    mean_houses = layout.mean_houses
    card_kid = layout.card_kid
    card_top = layout.card_top
    for row in range(n):
        board = core.seats[(viewer + row) % n]
        stacks = board.stacks
        for kid in range(kids):
            stack = stacks[kid]
            if stack:
                slot = row * kids + kid
                top = card_top[(stack & CARD_MASK) - 1]  # the top card is the lowest
                ones.append(layout.top_at + slot * 3 + top[0])
                ones.append(layout.icon_at + slot * 3 + top[1])
                at = layout.kids_at + slot * 33
                while stack:
                    ones.extend([at + entry for entry in card_kid[(stack & CARD_MASK) - 1]])
                    stack >>= CARD_BITS
        treats = board.treats
        at = layout.treats_at + row * 3
        counts.extend((at, at + 1, at + 2, layout.pumpkins_at + row, layout.footprints_at + row))
        values.extend(
            (
                treats & TREAT_MASK,
                treats >> TREAT_BITS & TREAT_MASK,
                treats >> 2 * TREAT_BITS & TREAT_MASK,
                board.pumpkins,
                board.footprints,
            )
        )
        bit_ones(board.visited, layout.visited_at + row * houses, ones)
        bit_ones(board.tricked, layout.tricked_at + row * mean_houses, ones)
    over = core.current < 0
    viewer_ones(layout, deal, viewer, deal.face_up or over, n, ones)  # R16: shown once over
    bit_ones(core.house_pumpkins, layout.house_pumpkin_at, ones)
    bit_ones(core.mean_pumpkins, layout.mean_pumpkin_at, ones)
    flipped = core.flipped
    bit_ones(flipped, layout.street_flipped_at, ones)
    for street in range(layout.streets):
        counts.append(layout.street_value_at + street)
        values.append(t.street_back[street] if flipped >> street & 1 else t.street_front[street])
    market_block(core, layout, list(range(len(core.market))), ones, layout.market_at)
    deck_at = layout.deck_at
    counts.extend([deck_at + i for i in range(15)])  # deck_size to discarded, one after another
    deck_counts(core, deal, values)
    counts.extend(layout.count_at)
    if not over:
        encode(core, layout, viewer, ones, values)
        return
    ones.append(layout.game_over_at)
    trigger = core.trigger
    if trigger is not None:
        seat_reason = layout.trigger_of(trigger)
        ones.append(layout.trigger_at + (seat_reason[0] - viewer) % n)
        ones.append(layout.reason_at + seat_reason[1])
    values.append(core.turn)
    values.append(core.passes)


def legal_masks(core: Core, slots: int, takes: list[int], legal: list[int]) -> None:
    """List the current player's legal actions as ``encode_all`` does, without their codes.

    To ``takes``, per market slot (``slots`` of them) the bit mask of the kids that may take
    its card; to ``legal``, the other legal codes, as ``Core.legal_codes`` lists them: the
    takes' masks are worked out as ``legal_codes`` works them out, without listing a code per
    kid to sort back into masks.
    """
    current = core.current
    assert current >= 0, "a game is encoded while it goes on"
    t = core.tables
    seat = core.seats[current]
    free_shift = t.card_free_shift
    card_mask = t.card_mask
    free = seat.free
    shared = -1
    market = core.market
    some = False  # a take, a visit or a trick is legal
    for slot in range(slots):
        card = market[slot] if slot < len(market) else -1
        if card < 0:
            shared = 0
            takes.append(0)
        else:
            kids = free >> free_shift[card] & FREE_MASK
            takes.append(kids)
            if kids:
                some = True
            shared &= card_mask[card]
    if seat.footprints:
        visitable = seat.qualified & ~seat.visited
        if visitable:
            legal.extend(t.visit_codes[visitable])
            some = True
        ready = seat.ready
        if ready:
            trickable = t.mean_ready[ready] & ~seat.tricked
            if trickable:
                legal.extend(t.trick_codes[trickable])
                some = True
    if shared and core.position < t.deck_size:
        legal.append(t.refresh_code)
        if not some:
            legal.append(t.pass_code)  # R18, under either form of R8
    elif not some:
        legal.append(t.pass_code)  # R11


def deck_counts(core: Core, deal: Deal, row: list[int]) -> None:
    """Append ``deck_row``'s 15 counts, the deck's read from ``deal.left``.

    ``deal.left[position]`` is ``deck_left`` of the deck from ``position`` on, worked out for
    every position in one pass the first time: an observation a step then costs no pass
    over the deck.
    """
    left = deal.left
    if not left:
        deck = deal.deck
        card_deck = deal.card_deck
        counts = [0] * 13
        left.append(counts[:])
        for at in range(len(deck) - 1, -1, -1):
            for entry in card_deck[deck[at]]:
                counts[entry] += 1
            left.append(counts[:])
        left.reverse()  # left[position]: the cards from position on
    position = core.position
    row.append(core.tables.deck_size - position)
    row.extend(left[position])
    row.append(len(core.discarded))


# -- the greedy bot's takes valued from the board's points once --------------------------------


def potential_of(features: tuple[tuple[int, ...], ...], stack: int) -> float:
    """What a kid wearing ``stack`` adds to ``greedy_value``'s promise (0.0: nothing).

    The very operations of ``greedy_value``'s loop: 2 cards add ``2 * (theme + colour +
    0.3)``, one card ``1 * (1.0 + 0.6 + 0.3)``, none or a complete costume nothing.
    """
    if stack and not stack >> 2 * CARD_BITS:
        top = features[(stack & CARD_MASK) - 1]
        below = stack >> CARD_BITS
        if below:
            other = features[(below & CARD_MASK) - 1]
            theme = 1.0 if top[1] == other[1] else 0.0
            colour = 0.6 if top[0] == other[0] else 0.0
            return 2 * (theme + colour + 0.3)
        return 1 * (1.0 + 0.6 + 0.3)
    return 0.0


def greedy_take_values(core: Core, scoring: Scoring, codes: list[int]) -> list[float]:
    """``greedy_values(core, scoring, codes)``, equal value for value, its takes valued quicker.

    A take changes one kid's stack only (with two players or more): the mover's points are
    worked out once (``seat_points``), and per take the kid's costume and promise swapped
    for those of its new stack, the promise summed over the kids in the same order as
    ``greedy_value`` sums it (adding 0.0 for a kid that adds nothing leaves a sum of
    non-negative floats as it was), so the floats are the same. The other codes are valued
    by ``greedy_values``.
    """
    t = core.tables
    take_count = t.take_count
    if t.players == 1:  # a take may keep the turn: played and undone there
        return greedy_values(core, scoring, codes)
    others = [code for code in codes if code >= take_count]
    other_values = greedy_values(core, scoring, others) if others else []
    if len(others) == len(codes):  # no take
        return other_values
    features = t.card_features
    current = core.current
    seat = core.seats[current]
    looks = t.card_look
    points = seat_points(looks, scoring, current, seat)[0]
    stacks = seat.stacks
    count = len(stacks)
    promises = [potential_of(features, stack) for stack in stacks]
    kids = t.kids
    market = core.market
    values: list[float] = []
    j = 0
    for code in codes:
        if code >= take_count:
            values.append(other_values[j])
            j += 1
            continue
        kid = code % kids
        stack = stacks[kid]
        worn = stack << CARD_BITS | market[code // kids] + 1
        total = points + costume_of(looks, worn) - costume_of(looks, stack)
        promise = potential_of(features, worn)
        potential = 0.0
        for at in range(count):
            potential += promise if at == kid else promises[at]
        values.append(total + 0.5 * potential)
    return values
