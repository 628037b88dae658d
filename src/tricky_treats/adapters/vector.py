"""N games of Tricky Treats stepped at once, for training (needs gymnasium and numpy).

``TrickyTreatsVectorEnv(num_envs, players=2, variants=())`` (and ``new_game``'s other
keywords, ``render_mode``) is a ``gymnasium.vector.VectorEnv`` for a turn-based game: every
step plays one action in each game, for the player to move there.

>>> from tricky_treats.adapters.vector import TrickyTreatsVectorEnv
>>> envs = TrickyTreatsVectorEnv(4, players=3)
>>> obs, infos = envs.reset(seed=42)
>>> obs.shape == (4, envs.observation_size), infos["action_mask"].shape == (4, envs.action_count)
(True, True)
>>> actions = infos["action_mask"].argmax(axis=1)      # the first legal action of each game
>>> obs, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, infos["rewards"].shape, bool(terminations.any()), bool(truncations.any())
((4,), (4, 3), False, False)

- ``reset(seed=None) -> (obs, infos)`` and ``step(actions) -> (obs, rewards, terminations,
  truncations, infos)``. ``obs`` is ``(num_envs, observation_size)`` ``float32``: in each
  game, the view of the player to move encoded by ``tricky_treats.adapters.observation``
  (version ``OBSERVATION_VERSION``), exactly ``ObservationEncoding.encode(view)``.
- ``infos["action_mask"]`` is ``(num_envs, action_count)`` ``int8``, exactly
  ``ObservationEncoding.action_mask(view)`` of that view; ``infos["player"]`` the seat to
  move in each game and ``infos["seed"]`` the seed of the game each env plays.
- ``rewards`` is ``(num_envs,)`` ``float32``: in each game the reward of the seat that just
  moved, which is 0 while a game goes on and in the step that ends it that seat's outcome
  reward of the PettingZoo adapter (``outcome_rewards``: +1 for a sole winner, ``-1/(n-1)``
  for the others, shared wins split the +1). ``infos["rewards"]`` is ``(num_envs,
  players)``, every seat's. ``terminations[i]`` is True in that step; ``truncations`` always
  False (a game ends by the rules within ``max_game_length`` turns).
- **Auto-reset, same step** (Gymnasium's ``AutoresetMode.SAME_STEP``): a game that ends in a
  step is dealt again at once, so that step's ``obs``, ``action_mask``, ``player`` and
  ``seed`` already belong to the new game. The finished game has no player to move, so there
  is no final observation; ``infos["final_scores"]`` holds each finished game's totals (rows
  of games that did not end are zeros).
- **Seeds.** ``reset(seed=s)`` deals env ``i`` the game ``tt.new_game(seed=s + i)`` (a list
  gives each env its seed), and later games of env ``i`` the seeds of
  ``random.Random(s + i).getrandbits(63)``, as the PettingZoo env reset with ``s + i`` deals
  them; ``np_random`` is seeded with ``s``. Without a seed they are drawn from ``np_random``.
- Gymnasium's ``metadata["autoreset_mode"]``, ``np_random``, spaces (``single_*`` and
  batched), ``call``/``get_attr``/``set_attr`` (the games share this one env object),
  ``render()`` (``"ansi"``: each player to move's view as text), ``spec`` and ``close``.
- **Bad actions** raise the library's errors (``InvalidActionError`` for a code outside the
  action space, ``IllegalActionError`` naming the rule), and no game moves.

Observations and masks are written from the simulators' compact core into preallocated
arrays, with the core's functions (compiled with it in the compiled build). Each game is
``new_game``'s, dealt by the simulator's one dealer (``variants._base_deals.BaseDeals``, as
``Simulator.new_game`` deals: the deal's shuffles on indices, straight into the first core,
the setup built only when something asks for it) for every configuration it covers, else by
a ``dealing._Dealer`` that checks the arguments once, its simulator made from the setup
(``Simulator._first``). Per game the env keeps what the observations are
made of: per viewer a fixed part (``_core.deal_entries``: the board, the secret tiles the
viewer sees, the tiles unseen, the first player; and the pumpkins and street tokens, which
visits and tricks change), per seat a block (kids, visited, tricked, treats, pumpkins,
footprints) and a market block (the market and the deck's counts). ``play_all`` lists what
each move changes there as a few small ints, which numpy writes through per-card and
per-bit-mask tables; ``encode_all`` lists the rest (who is to act, the end trigger, the
turn and passes) and the legal actions. A step's observation is the fixed part of the
viewer to move with the seats' blocks moved to the viewer's rows. The arrays returned are
those same arrays, overwritten by the next call (copy what you keep). A configuration the
core does not cover is encoded from its views instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tricky_treats.adapters._encoder import CoreEncoder
from tricky_treats.adapters._text import rewards_of
from tricky_treats.adapters._vector_api import (
    RENDER_MODES,
    Actions,
    Observations,
    Seed,
    SharedCalls,
    checked_render_mode,
    reset_seeds,
)
from tricky_treats.adapters._vector_input import MAX_ENVS, checked_size, first_no_code
from tricky_treats.adapters._vector_tables import (
    bit_rows,
    board_offsets,
    market_rows,
    seat_offsets,
    take_tables,
)
from tricky_treats.adapters.observation import (
    OBSERVATION_VERSION,
    ObservationEncoding,
    max_game_length,
)
from tricky_treats.components import ComponentData
from tricky_treats.dealing import _Dealer, _first_state
from tricky_treats.errors import ConfigurationError, IllegalActionError, InvalidActionError
from tricky_treats.model import GameState
from tricky_treats.simulator import Simulator, _core
from tricky_treats.simulator._simulator import dealt
from tricky_treats.variants._base_deals import BaseDeals

__all__ = ["MAX_ENVS", "OBSERVATION_VERSION", "TrickyTreatsVectorEnv"]


class TrickyTreatsVectorEnv(SharedCalls, VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """``num_envs`` games of one configuration, stepped together (see the module)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's class attribute
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": list(RENDER_MODES),
    }

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        variants: Iterable[str] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        first_player: int = 0,
        any_mean_house: bool = False,
        refresh_ends_turn: bool = False,
        components: ComponentData | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.num_envs = checked_size(num_envs)
        self.render_mode = checked_render_mode(render_mode)
        if isinstance(variants, str):  # tuple() would make it letters, each "no variant"
            raise ConfigurationError(
                f"variants is a list of variant names, got the string {variants!r}: write "
                f"variants=[{variants!r}]"
            )
        self._variants = tuple(variants)
        # new_game's arguments, checked once: each game is new_game(seed=...)'s.
        self._dealer = _Dealer(
            players,
            first_player=first_player,
            any_mean_house=any_mean_house,
            refresh_ends_turn=refresh_ends_turn,
            variants=self._variants,
            variant_options=variant_options,
            components=components,
        )
        probe = self._deal(0)  # checks the configuration and sizes the arrays
        self.encoding = ObservationEncoding(probe)
        self.players = len(probe.players)
        self.observation_size = self.encoding.size
        self.action_count = probe.action_space.size
        self.max_game_length = max_game_length(probe)
        # The adapters' one encoder (adapters._encoder): its layout, deals and fallback.
        self._encoder = CoreEncoder(self.encoding, probe)
        self._layout = self._encoder.layout
        self._card_deck, self._cards = self._encoder.card_deck, self._encoder.cards
        turn, passes = self._layout.count_at
        # The counts of each step (a slice where they are side by side, as in version 1).
        self._counts: slice | npt.NDArray[np.intp] = (
            slice(turn, turn + 2) if passes == turn + 1 else np.array((turn, passes), np.intp)
        )
        section = self.encoding.section("house_treats")
        self._treats_at = (section.start, section.stop)
        n = num_envs
        self.observations: npt.NDArray[np.float32] = np.zeros(
            (n, self.observation_size), np.float32
        )
        self.action_masks: npt.NDArray[np.int8] = np.zeros((n, self.action_count), np.int8)
        self.rewards: npt.NDArray[np.float32] = np.zeros(n, np.float32)
        self.seat_rewards: npt.NDArray[np.float32] = np.zeros((n, self.players), np.float32)
        self.movers: npt.NDArray[np.int64] = np.zeros(n, np.int64)
        self._envs = np.arange(n, dtype=np.intp)
        self.single_observation_space = spaces.Box(
            0.0, self.encoding.high, (self.observation_size,), np.float32
        )
        self.single_action_space: spaces.Discrete = spaces.Discrete(self.action_count)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.terminations: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        self.truncations: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        self.current_players: npt.NDArray[np.int64] = np.zeros(n, np.int64)
        self.seeds: npt.NDArray[np.int64] = np.zeros(n, np.int64)
        self.final_scores: npt.NDArray[np.int64] = np.zeros((n, self.players), np.int64)
        # Per game and viewer, the viewer's observation but the entries of each step: the
        # board, the tiles the viewer sees (_core.viewer_ones), the seats' rows, the market.
        self._fixed_part = np.zeros((n, self.players, self.observation_size), np.float32)
        self._viewer_rows = np.arange(n, dtype=np.intp) * self.players
        self._obs_rows = np.arange(n, dtype=np.intp) * self.observation_size
        self._mask_rows = np.arange(n, dtype=np.intp) * self.action_count
        # Views of the fixed part: per game and viewer, the market's slots and the deck's
        # counts (deck_size, deck_features, deck_icons, discarded). A move of a seat writes its
        # rows in every viewer's part, the rows the viewer sees it at (row r is seat viewer
        # + r), through the flat offsets below.
        layout = self._layout
        seats = self.players
        kids = layout.kids
        houses = len(probe.setup.grid)
        mean_houses = len(probe.setup.mean_houses)
        fixed = self._fixed_part
        market = self.encoding.section("market")
        slots = layout.market_size
        if self.encoding.section("discarded").stop != market.start + layout.market_row:
            raise AssertionError("the market block is not the sections market to discarded")
        self._market_block = fixed[:, :, market.start : market.start + layout.market_row]
        self._market_rows = self._market_block[:, :, : slots * 14].reshape(n, seats, slots, 14)
        self._deck_rows = self._market_block[:, :, slots * 14 :]
        self._visited_bits = bit_rows(houses)  # also the nice houses' pumpkins
        self._tricked_bits = bit_rows(mean_houses)  # and the mean houses'
        self._street_bits = bit_rows(layout.streets)
        # The masks' takes, by slot and kid (the first codes), and the bits of the kids.
        take_count = layout.market_size * kids
        self._take_masks = self.action_masks[:, :take_count].reshape(n, -1, kids)
        self._kid_bits = bit_rows(kids).astype(np.int8)  # per bit mask of kids, its bits
        self._card_market = market_rows(self._layout)
        # Per card, what drawing it from the deck takes off the deck's counts (-1: nothing).
        self._card_drawn = np.zeros((len(self._card_deck) + 1, 15), np.intp)
        for card, entries in enumerate(self._card_deck):
            if entries:
                self._card_drawn[card, 0] = 1
                self._card_drawn[card, [1 + entry for entry in entries]] = 1
        # The same writes, flat: offsets into the fixed part (a game's part is one
        # observation per viewer) where what a move changes goes, with every viewer's rows
        # in one scatter. Per seat and kid, per card, per market slot, per seat (seat_row's
        # fields), and the board's (board_row's).
        self._fixed_flat = fixed.reshape(-1)
        if not np.shares_memory(self._fixed_flat, fixed):  # pragma: no cover
            raise AssertionError("the flat fixed part is not a view of it")
        self._game_size = seats * self.observation_size
        self._take_base, self._take_offsets, self._take_values = take_tables(
            self.encoding, layout, seats
        )
        viewer_at = np.arange(seats, dtype=np.intp)[:, None] * self.observation_size
        slot_at = market.start + np.arange(slots, dtype=np.intp)[:, None, None] * 14
        self._slot_offsets = (slot_at + viewer_at + np.arange(14)).reshape(slots, -1)
        self._deck_offsets = (viewer_at + market.start + slots * 14 + np.arange(15)).reshape(-1)
        self._market_values = np.tile(self._card_market, (1, seats))
        self._drawn_values = np.tile(self._card_drawn, (1, seats)).astype(np.float32)
        self._seat_offsets = seat_offsets(
            self.encoding,
            seats,
            (
                ("visited", houses),
                ("tricked", mean_houses),
                ("treats", 3),
                ("pumpkins", 1),
                ("footprints", 1),
            ),
        ).reshape(seats, seats, -1)
        self._board_offsets = board_offsets(
            self.encoding,
            seats,
            ("house_pumpkin", "mean_pumpkin", "street_flipped", "street_value"),
        ).reshape(seats, -1)
        # The deals made straight into cores (None for a game they do not cover), whose
        # simulators build their setups only when asked for one.
        base = BaseDeals.of(self._dealer)
        cards = None if base is None else base.cards
        self._base = base if cards is self._cards or cards == self._cards else None
        tile_index = self.encoding._tile_index
        self._base_tiles = () if base is None else tuple([tile_index[t.id] for t in base.tiles])
        self._dealer_first_player = probe.setup.config.first_player
        self._sims: list[Simulator] = []
        self._game_seeds: list[int] = []
        # The games the core plays and encodes (None: by the rules, from their views).
        self._cores: list[_core.Core | None] = []
        self._deals: list[_core.Deal | None] = []
        self._mean_tiles: list[tuple[int, ...]] = []  # the tiles' indices, per core's game
        # Per env whose game ended since the last clear(): that game's core, deal and mean
        # tiles (None: played by the rules), for its final observation (final_observation).
        self._finished: dict[int, tuple[_core.Core, _core.Deal, tuple[int, ...]] | None] = {}
        self._rngs: list[random.Random] = []
        self._ready = False
        self._observed = False  # the observations and masks are those of the games now

    # -- the games --------------------------------------------------------------------------

    def _deal(self, seed: int) -> GameState:
        return self._dealer.game(seed)

    @property
    def simulators(self) -> tuple[Simulator, ...]:
        """The games being played, one simulator per env (read them; do not play on them)."""
        return tuple([self._simulator(env) for env in range(len(self._sims))])

    def _simulator(self, env: int) -> Simulator:
        """The simulator of env ``env``'s game."""
        return self._sims[env]

    def _outcome(self, env: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The scores and winners of env ``env``'s game, scored once."""
        return self._sims[env]._outcome()

    def _place(self, env: int, seed: int, sim: Simulator) -> None:
        """Make ``sim``, of the game of ``seed``, env ``env``'s game (an env after the last)."""
        if env == len(self._sims):
            self._sims.append(sim)
            self._game_seeds.append(seed)
            self._cores.append(None)
            self._deals.append(None)
            self._mean_tiles.append(())
        else:
            self._sims[env] = sim
            self._game_seeds[env] = seed

    def _start(
        self, envs: list[int], seeds: list[int], seat_rows: list[int], board_rows: list[int]
    ) -> None:
        """Deal each of ``envs`` the game of its seed, with its board's fixed entries.

        The seeds are checked (``reset``'s, or drawn below 2**63). The arrays of the games
        dealt are written at once but for their seat and board rows, which go to the lists
        (the caller writes them, with the moves' own).
        """
        layout = self._layout
        tile_index = self.encoding._tile_index
        fixed: list[int] = []  # offsets of ones in _fixed_part, flat
        treats: list[int] = []  # house_treats of the games the core plays, in order
        market: list[int] = []  # in the games' market blocks, one after the other
        played: list[int] = []  # the envs of those games
        deck: list[int] = []  # each game's deck_row
        base = self._base
        base_tiles = self._base_tiles
        for env, seed in zip(envs, seeds, strict=True):
            dealt_here = None if base is None else base.deal(seed, checked=True)
            if dealt_here is not None:
                assert base is not None
                core, scoring, face_up = dealt_here
                sim = dealt(base, seed, core, scoring, base.sheets)
                self._place(env, seed, sim)
                secret_tiles = tuple([base_tiles[tile] for tile in scoring.secret])
                mean_tiles = tuple([base_tiles[tile] for tile in scoring.mean])
            else:
                setup = self._dealer.setup(seed)
                sim = Simulator._first(setup) or Simulator(_first_state(setup))
                self._place(env, seed, sim)
                found = sim._core
                if found is None or not self._encoder.covers(found):
                    self._cores[env] = None  # by the rules, or cards the layout does not know
                    self._deals[env] = None
                    continue
                core = found
                secret_tiles = tuple([tile_index[tile.id] for tile in setup.secret_tiles])
                mean_tiles = tuple([tile_index[house.tile.id] for house in setup.mean_houses])
                face_up = setup.secret_tiles_face_up
            self._cores[env] = core
            self._mean_tiles[env] = mean_tiles
            deal = self._deals[env] = self._encoder.deal(
                core, secret_tiles, mean_tiles, face_up, self._dealer_first_player
            )
            _core.deal_entries(
                core,
                layout,
                deal,
                mean_tiles,
                env,
                fixed,
                treats,
                market,
                seat_rows,
                deck,
                board_rows,
            )
            played.append(env)
        self.seeds[envs] = seeds
        if not played:
            return
        # A game at a time (a step deals one or two): plain slices, quicker than indexing.
        start, stop = self._treats_at
        values = np.fromiter(treats, np.intp, len(treats)).reshape(len(played), 1, -1)
        counts = np.fromiter(deck, np.intp, len(deck)).reshape(len(played), 1, -1)
        part = self._fixed_part
        for at, env in enumerate(played):
            part[env] = 0.0
            part[env, :, start:stop] = values[at]
            self._deck_rows[env] = counts[at]
        self._fixed_flat[np.fromiter(fixed, np.intp, len(fixed))] = 1.0
        game, entry = np.divmod(np.fromiter(market, np.intp, len(market)), layout.market_row)
        self._market_block[game, :, entry] = 1.0

    def _write_rows(self, seat_rows: list[int], board_rows: list[int]) -> None:
        """Write the seat and board rows the core listed (for each game once at the most)."""
        if seat_rows:
            self._write_seat_rows(seat_rows)
            self._write_board_rows(board_rows)

    def _write_board_rows(self, rows: list[int]) -> None:
        """Write ``_core.board_row``s, each after its game, into every viewer's fixed part."""
        table = np.fromiter(rows, np.intp, len(rows)).reshape(-1, 4 + self._layout.streets)
        values = np.concatenate(  # take(): a row gather, quicker than indexing
            (
                self._visited_bits.take(table[:, 1], axis=0),
                self._tricked_bits.take(table[:, 2], axis=0),
                self._street_bits.take(table[:, 3], axis=0),
                table[:, 4:],
            ),
            axis=1,
        )
        at = (table[:, :1] * self._game_size)[:, :, None] + self._board_offsets
        self._fixed_flat[at] = values[:, None, :]

    def _write_seat_rows(self, rows: list[int]) -> None:
        """Write ``_core.seat_row``s, each after its game and seat, into every viewer's rows."""
        table = np.fromiter(rows, np.intp, len(rows)).reshape(-1, 9)
        values = np.concatenate(
            (
                self._visited_bits.take(table[:, 2], axis=0),
                self._tricked_bits.take(table[:, 3], axis=0),
                table[:, 4:],
            ),
            axis=1,
        )
        offsets = self._seat_offsets.take(table[:, 1], axis=0)
        at = (table[:, :1] * self._game_size)[:, :, None] + offsets
        self._fixed_flat[at] = values[:, None, :]

    # -- the Gymnasium interface ------------------------------------------------------------

    def reset(
        self,
        seed: Seed = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal every env a new game (see the module for the seeds): ``(obs, infos)``.

        ``seed`` also seeds ``np_random`` (Gymnasium's ``seeding.np_random``; a list of seeds
        seeds it with them all); without a seed, the games' seeds are drawn from
        ``np_random``. ``options`` are taken and ignored, as Gymnasium's envs do.
        """
        seeds = reset_seeds(self, seed)
        self._deal_all(seeds)
        return self.observations, self._infos()

    def _deal_all(self, seeds: list[int]) -> None:
        """Deal env ``i`` the game of ``seeds[i]``, later games from its seed's sequence."""
        n = self.num_envs
        self._rngs = [random.Random(s) for s in seeds]
        seat_rows: list[int] = []
        board_rows: list[int] = []
        self._start(list(range(n)), seeds, seat_rows, board_rows)
        self._write_rows(seat_rows, board_rows)
        self.rewards[:] = 0
        self.seat_rewards[:] = 0
        self.terminations[:] = False
        self.final_scores[:] = 0
        self._ready = True
        self._observe()
        self.movers[:] = self.current_players

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play ``actions[i]`` (a code) in game ``i``: ``(obs, rewards, terminations, ...)``.

        For the player to move in each game; finished games are dealt again. Returns
        ``(obs, rewards, terminations, truncations, infos)``: ``rewards[i]`` is the reward
        of the seat that moved in game ``i``, ``infos["rewards"]`` every seat's.
        """
        if not self._ready:
            raise InvalidActionError("step() before reset(): call reset() first")
        self._advance(self._checked(actions), None)
        return self.observations, self.rewards, self.terminations, self.truncations, self._infos()

    def _advance(
        self, codes: list[int], moving: npt.NDArray[np.bool_] | None, observe: bool = True
    ) -> list[int]:
        """Play ``codes[i]`` (checked) in each game ``i``, or only where ``moving`` is True.

        The rewards, terminations and final scores are those of this call's moves; the
        games that end are dealt again. Returns the envs whose games ended. With ``observe``
        False only ``current_players`` is brought up to date, not the observations and
        masks (for moves that others play next: ``_observe()`` before they are read).
        """
        seat_rewards = self.seat_rewards
        seat_rewards[:] = 0
        terminations = self.terminations
        terminations[:] = False
        self.final_scores[:] = 0
        self.movers[:] = self.current_players
        cores = self._cores
        if moving is not None:  # the others are skipped, as the core skips None
            cores = [
                core if move else None for core, move in zip(cores, moving.tolist(), strict=True)
            ]
        takes: list[int] = []
        refreshed: list[int] = []
        seat_rows: list[int] = []
        board_rows: list[int] = []
        ended = _core.play_all(cores, codes, self._layout, takes, refreshed, seat_rows, board_rows)
        if takes:  # each game's taker puts the card on a kid; the market slot gets the next
            game, seat, kid, card, slot, after = (
                np.fromiter(takes, np.intp, len(takes)).reshape(-1, 6).T
            )
            # In every viewer's rows, flat: the kid's card and top, the slot, the deck.
            flat = self._fixed_flat
            at = (game * self._game_size)[:, None]
            kids = self._take_base.take(seat * self._layout.kids + kid, axis=0)
            kids += self._take_offsets.take(card, axis=0)
            kids += at
            flat[kids] = self._take_values.take(card, axis=0)
            slots = at + self._slot_offsets.take(slot, axis=0)
            flat[slots] = self._market_values.take(after, axis=0)  # after -1: the last row
            deck = at + self._deck_offsets
            flat[deck] -= self._drawn_values.take(after, axis=0)  # after: from the deck
        if refreshed:  # a game, its market's cards (all from the deck), the cards discarded
            rows = np.fromiter(refreshed, np.intp, len(refreshed))
            rows = rows.reshape(-1, self._layout.market_size + 2)
            game, market, discarded = rows[:, 0], rows[:, 1:-1], rows[:, -1]
            self._market_rows[game] = self._card_market[market][:, None]
            self._deck_rows[game] -= self._card_drawn[market].sum(axis=1)[:, None]
            self._deck_rows[game, :, -1] = discarded[:, None]
        if None in self._cores:
            for env, core in enumerate(self._cores):
                if core is None and (moving is None or moving[env]):  # played by the rules
                    sim = self._simulator(env)
                    sim.play(codes[env])
                    if sim.is_over:
                        ended.append(env)
        if ended:
            finished = self._finished
            for env in ended:  # the first game of each env to end since the last clear()
                if env not in finished:
                    found, deal = self._cores[env], self._deals[env]
                    finished[env] = (
                        None
                        if found is None or deal is None
                        else (
                            found,
                            deal,
                            self._mean_tiles[env],
                        )
                    )
            outcomes = [self._outcome(env) for env in ended]  # each scored once
            players = self.players
            seat_rewards[ended] = [rewards_of(players, winners) for _, winners in outcomes]
            self.final_scores[ended] = [scores for scores, _ in outcomes]
            terminations[ended] = True
            rngs = self._rngs
            seeds = [rngs[env].getrandbits(63) for env in ended]
            self._start(ended, seeds, seat_rows, board_rows)
        self.rewards[:] = seat_rewards[self._envs, self.movers]
        self._write_rows(seat_rows, board_rows)
        if observe:
            self._observe()
        else:
            self._note_players()
        return ended

    def _note_players(self) -> None:
        """Set ``current_players`` from the games, without observing them."""
        if None in self._cores:  # a game played by the rules: its view says
            self._observe()
            return
        players = [core.current for core in self._cores if core is not None]
        self.current_players[:] = np.fromiter(players, np.int64, self.num_envs)
        self._observed = False

    def _final_observation(self, env: int, seat: int, sim: Simulator) -> npt.NDArray[np.float32]:
        """``seat``'s observation of ``sim``, env ``env``'s game until it ended or was left.

        By the core, from what the game's deal fixed, where the game ended since
        ``_finished`` was last cleared and the core played it; else by the encoder.
        """
        found = self._finished.get(env)
        if found is None:
            return self._encoder.observation(sim, seat)
        core, deal, mean_tiles = found
        return self._encoder.core_observation(core, deal, mean_tiles, seat)

    def _redeal(self, envs: list[int]) -> None:
        """Deal each of ``envs`` its next game, as if its game had ended (not scored)."""
        rngs = self._rngs
        seat_rows: list[int] = []
        board_rows: list[int] = []
        self._start(envs, [rngs[env].getrandbits(63) for env in envs], seat_rows, board_rows)
        self._write_rows(seat_rows, board_rows)
        self._observe()

    def _checked(self, actions: npt.ArrayLike) -> list[int]:
        """The actions as ints, each legal in its game; else the library's error is raised."""
        found = np.asarray(actions)
        if found.shape != (self.num_envs,) or found.dtype.kind not in "biu":  # whole numbers
            raise InvalidActionError(
                f"step takes {self.num_envs} action codes (whole numbers), one per env; "
                f"got an array of shape {found.shape} and dtype {found.dtype}"
            )
        no_code = first_no_code(actions, found)
        if no_code is not None:  # a bool, or a value under a mask: refused as play() does
            env, value = no_code
            try:
                self._simulator(env).clone().play(value)
            except InvalidActionError as error:
                raise InvalidActionError(f"env {env}: {error}") from None
            raise AssertionError(f"{value!r} was played")  # pragma: no cover
        codes: list[int] = found.tolist()
        inside = (found >= 0) & (found < self.action_count)
        if inside.all():  # the usual case: one gather checks every game's mask
            flat = self._mask_rows + found.astype(np.intp)
            if self.action_masks.reshape(-1)[flat].all():
                return codes
        masks = self.action_masks
        legal = inside.copy()
        legal[inside] = masks[np.flatnonzero(inside), found[inside]] == 1
        if not legal.all():
            env = int(np.flatnonzero(~legal)[0])
            try:
                self._simulator(env).clone().play(codes[env])  # raises the rules' error
            except (InvalidActionError, IllegalActionError) as error:
                raise type(error)(f"env {env}: {error}") from None
            raise InvalidActionError(f"env {env}: {codes[env]} is not legal")  # pragma: no cover
        return codes

    def _observe(self) -> None:
        """Write every game's observation and mask, for its player to move."""
        self._observed = True
        obs = self.observations
        masks = self.action_masks
        masks[:] = 0
        ones: list[int] = []
        values: list[int] = []
        takes: list[int] = []
        legal: list[int] = []
        ends: list[int] = []  # per env, where its ones and its other codes end in the lists
        players: list[int] = []
        _core.encode_all(
            self._cores, self._layout, self._deals, ones, values, takes, legal, ends, players
        )
        n = self.num_envs
        self.current_players[:] = np.fromiter(players, np.int64, n)
        fixed = self._fixed_part.reshape(n * self.players, -1)
        # mode="clip": the rows are in range, and numpy buffers out= under mode="raise".
        np.take(fixed, self._viewer_rows + self.current_players, axis=0, out=obs, mode="clip")
        ended_at = np.fromiter(ends, np.intp, len(ends)).reshape(n, 2)
        lengths = ended_at.copy()
        lengths[1:] -= ended_at[:-1]
        at = np.fromiter(ones, np.intp, len(ones))
        at += np.repeat(self._obs_rows, lengths[:, 0])
        obs.reshape(-1)[at] = 1.0
        # As ints: numpy converts Python ints to float32 one by one, more slowly.
        obs[:, self._counts] = np.fromiter(values, np.intp, len(values)).reshape(n, -1)
        codes = np.fromiter(legal, np.intp, len(legal))
        codes += np.repeat(self._mask_rows, lengths[:, 1])
        masks.reshape(-1)[codes] = 1
        kid_masks = np.fromiter(takes, np.intp, len(takes)).reshape(n, -1)
        self._take_masks[:] = self._kid_bits.take(kid_masks, axis=0)
        if None not in self._cores:
            return
        for env, core in enumerate(self._cores):
            if core is None:  # by the rules: the encoder encodes its view
                sim = self._simulator(env)
                seat = sim.current_player
                assert seat is not None
                obs[env] = self._encoder.observation(sim, seat)
                masks[env] = self._encoder.action_mask(sim, seat)
                self.current_players[env] = seat

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks,
            "player": self.current_players,
            "seed": self.seeds,
            "final_scores": self.final_scores,
            "rewards": self.seat_rewards,
        }

    def __repr__(self) -> str:
        return (
            f"TrickyTreatsVectorEnv(num_envs={self.num_envs}, players={self.players}, "
            f"variants={self._variants!r})"
        )
