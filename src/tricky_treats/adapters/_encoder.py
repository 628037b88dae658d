"""The one observation encoder of the adapters, made by the core (needs numpy).

Private to ``tricky_treats.adapters``: the vector env, the PettingZoo env and the OpenSpiel
game read their observations and action masks through a ``CoreEncoder``. Where the compact
core plays a game (``simulator._core``), the observation is listed by the core's functions
(compiled with it in the compiled build): the vector env keeps per game and viewer the
entries a deal fixes and writes what each move changes (``_core.deal_entries``,
``play_all``, ``encode_all``); the single-game adapters list a whole observation at once
(``_core.observation``) over the board a deal fixes (``_core.board_ones``), worked out once
per game. Either way the numbers are ``ObservationEncoding.encode(view)``'s, the reference
the tests check them against; a game the core does not play is encoded from its view by
that reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tricky_treats.adapters._vector_tables import layout_of
from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.model import GameState
from tricky_treats.simulator import Simulator, _core

__all__ = ["CoreEncoder"]

# Per game: the setup it was dealt from (which keeps its id from being reused while it is
# here), the core's deal and the board's entries that the deal fixes.
_Game = tuple[object, _core.Deal, npt.NDArray[np.float32]]


class CoreEncoder:
    """The observations and masks of one configuration's games, listed by the core.

    ``encoding`` is the configuration's ``ObservationEncoding`` (the reference) and ``game``
    any state of it. ``layout``, ``card_deck`` and ``cards`` are the core's layout of the
    encoding, per card the deck counts it is in, and the cards by id (``layout_of``).
    """

    def __init__(self, encoding: ObservationEncoding, game: GameState) -> None:
        self.encoding = encoding
        self._probe = game
        self.layout, self.card_deck, self.cards = layout_of(encoding, game)
        section = encoding.section("house_treats")
        self._treats_at = slice(section.start, section.stop)
        self._tile_index = encoding._tile_index
        self._games: dict[int, _Game] = {}

    def covers(self, core: _core.Core | None) -> bool:
        """Whether the core encodes ``core``'s game: it plays the cards the layout knows."""
        if core is None:
            return False
        cards = core.tables.cards
        return cards is self.cards or cards == self.cards

    def deal(
        self,
        core: _core.Core,
        secret_tiles: tuple[int, ...],
        mean_tiles: tuple[int, ...],
        face_up: bool,
        first_player: int,
    ) -> _core.Deal:
        """The core's ``Deal`` of ``core``'s game: its tiles (indices), whether they show."""
        return _core.new_deal(
            self.layout,
            secret_tiles,
            mean_tiles,
            face_up,
            first_player,
            core.tables.deck,
            self.card_deck,
        )

    def _game(self, sim: Simulator) -> _Game | None:
        """The deal and fixed board of ``sim``'s game (remembered); None: not the core's."""
        core = sim._core
        if not self.covers(core):
            return None
        assert core is not None
        setup = sim._setup  # built once for a game dealt straight into the core
        found = self._games.get(id(setup))
        if found is not None and found[0] is setup:
            return found
        if len(self._games) > 4096:  # games of a long run, or of many searches: start afresh
            self._games.clear()
        tile_index = self._tile_index
        mean_tiles = tuple([tile_index[house.tile.id] for house in setup.mean_houses])
        deal = self.deal(
            core,
            tuple([tile_index[tile.id] for tile in setup.secret_tiles]),
            mean_tiles,
            setup.secret_tiles_face_up,
            setup.config.first_player,
        )
        found = self._games[id(setup)] = (setup, deal, self._board(core, mean_tiles))
        return found

    def _board(self, core: _core.Core, mean_tiles: tuple[int, ...]) -> npt.NDArray[np.float32]:
        """The entries of the board that the deal of ``core``'s game fixes (a new array)."""
        ones: list[int] = []
        treats: list[int] = []
        _core.board_ones(core, self.layout, mean_tiles, ones, treats)
        board = np.zeros(self.encoding.size, np.float32)
        board[ones] = 1.0
        board[self._treats_at] = treats
        return board

    def observation(self, sim: Simulator, viewer: int) -> npt.NDArray[np.float32]:
        """``viewer``'s observation of ``sim``'s game, a new array of ``encoding.size``.

        The core lists it where it plays the game; else the reference encodes the view.
        """
        game = self._game(sim)
        if game is None:
            return self.encoding.encode(sim.state().view(viewer))
        core = sim._core
        assert core is not None
        return self._listed(core, game[1], game[2].copy(), viewer)

    def core_observation(
        self, core: _core.Core, deal: _core.Deal, mean_tiles: tuple[int, ...], viewer: int
    ) -> npt.NDArray[np.float32]:
        """``viewer``'s observation of the game ``core`` plays, of ``deal`` (a new array).

        ``mean_tiles`` are the indices of the mean houses' tiles; the core lists it all, as
        ``observation`` does, without the game's setup.
        """
        return self._listed(core, deal, self._board(core, mean_tiles), viewer)

    def _listed(
        self, core: _core.Core, deal: _core.Deal, board: npt.NDArray[np.float32], viewer: int
    ) -> npt.NDArray[np.float32]:
        """``board`` (the deal's entries, written over) with the rest of the observation."""
        ones: list[int] = []
        counts: list[int] = []
        values: list[int] = []
        _core.observation(core, self.layout, deal, viewer, ones, counts, values)
        board[ones] = 1.0
        board[counts] = values
        return board

    def action_mask(self, sim: Simulator, viewer: int) -> npt.NDArray[np.int8]:
        """1 for each of ``viewer``'s legal actions by code (``ObservationEncoding``'s)."""
        mask = np.zeros(self.encoding.action_space.size, np.int8)
        if sim.current_player == viewer:
            mask[sim.legal_codes()] = 1
        return mask

    def history(self, sim: Simulator) -> list[int]:
        """The codes of the actions played in ``sim``'s game, oldest first."""
        core = sim._core
        if core is not None and core.log is None:  # played from the first state on
            return core.played[:]
        encode = sim.action_space.encode
        return [encode(action) for action in sim.state().history]

    def __getstate__(self) -> dict[str, Any]:
        # The games are keyed by object identity, which a pickle does not keep; the layout is
        # the core's (an extension type in the compiled build, which pickles no instance):
        # worked out again from the configuration when loaded.
        state = {**self.__dict__, "_games": {}}
        del state["layout"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.layout = layout_of(self.encoding, self._probe)[0]
