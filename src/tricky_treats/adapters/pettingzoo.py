"""Tricky Treats as a PettingZoo AEC environment (``pip install 'tricky-treats[pettingzoo]'``).

>>> from tricky_treats.adapters.pettingzoo import env
>>> game = env(players=3, variants=["family"])
>>> game.reset(seed=7)
>>> game.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = game.last()
>>> sorted(observation), int(observation["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

Agents are ``player_0`` to ``player_{n-1}`` by seat, and the renderings name the seats so.
Observations are dicts like those of PettingZoo's classic games: ``"observation"``, the
viewer's ``PlayerView`` encoded by ``tricky_treats.adapters.observation`` (version
``OBSERVATION_VERSION``), and ``"action_mask"``, 1 for each legal action by its code in
``game.action_space``. Actions are those codes. The agent to act may act twice in a row: a
refresh of the market is not the turn's action (R8). Rewards come only when the game ends,
from the result (``outcome_rewards``): +1 for a sole winner, ``-1/(n-1)`` for the others,
shared wins split the +1 so the rewards always sum to 0. The game never truncates.

The observation and mask are read from the game's ``tt.Simulator``: its compact core lists
the observation (``adapters._encoder``, the vector env's encoder), the very numbers
``ObservationEncoding.encode(view)`` gives, without building the state or the view.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tricky_treats._extras import install_hint
from tricky_treats.adapters._encoder import CoreEncoder
from tricky_treats.adapters._text import outcome_rewards, seat_name, view_text
from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.components import Colour, Treat, feature_text
from tricky_treats.dealing import new_game
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import GameState
from tricky_treats.simulator import Simulator
from tricky_treats.views import PlayerView

__all__ = ["TrickyTreatsEnv", "board_picture", "env", "outcome_rewards", "raw_env"]

_Observation = dict[str, np.ndarray[Any, Any]]
_TREATS = tuple(Treat)


class TrickyTreatsEnv(AECEnv[str, _Observation, int]):  # type: ignore[misc]
    """Tricky Treats for 2 to 4 agents, with variants; see the module's description.

    ``players`` is the player count, ``variants`` and ``variant_options`` are as for
    ``tricky_treats.new_game()``. ``reset(seed=s)`` deals the game ``new_game(seed=s)`` deals;
    a ``reset()`` without a seed deals the next game of a sequence drawn from the last seed
    given (or from ``seed`` here, else from the operating system). ``render_mode`` is
    ``"ansi"`` (``render()`` returns the text), ``"human"`` (it prints it after every
    step) or ``"rgb_array"`` (``render()`` returns a picture of the board, an ``(H, W, 3)``
    ``uint8`` array drawn with matplotlib). Both show what the agent to act sees.
    Without a render mode ``render()`` warns and returns None, as PettingZoo's classic
    games do. ``env.game`` is the current ``GameState``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "tricky_treats_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        variants: Iterable[str] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        render_mode: str | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigurationError(
                f"render_mode must be None, 'ansi', 'human' or 'rgb_array', got {render_mode!r}"
            )
        self.render_mode = render_mode
        self._players = players
        self._variants = tuple(variants)
        self._variant_options = {k: dict(v) for k, v in (variant_options or {}).items()}
        probe = self._deal(0)  # checks the configuration and sizes the spaces
        self.encoding = ObservationEncoding(probe)
        # Observations and masks come from the simulator's core (the reference: encoding).
        self._encoder = CoreEncoder(self.encoding, probe)
        count = len(probe.players)
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = self.encoding.action_space.size
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0,
                        high=self.encoding.high,
                        shape=(self.encoding.size,),
                        dtype=np.float32,
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(size) for agent in self.possible_agents
        }
        self._seeds = random.Random(seed) if seed is not None else None
        # The game is played on a simulator; its state is built when read, once per move.
        self._sim = Simulator(probe)
        self._state: GameState | None = probe
        self.agents: list[str] = []

    @property
    def game(self) -> GameState:
        """The game being played, as a plain ``GameState``."""
        state = self._state
        if state is None:
            state = self._state = self._sim.state()
        return state

    def _deal(self, seed: int) -> GameState:
        return new_game(
            self._players,
            seed=seed,
            variants=self._variants,
            variant_options=self._variant_options,
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: a code of ``game.action_space``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``new_game(seed=seed)``, or the next seed of the sequence."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random(secrets.randbits(63))
            game_seed = self._seeds.getrandbits(63)
        self._sim = Simulator.new_game(
            self._players,
            seed=game_seed,
            variants=self._variants,
            variant_options=self._variant_options,
        )
        self._state = None  # built when read
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        seat = self._sim.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> _Observation:
        """What ``agent`` sees, encoded, and its legal-action mask (zeros off turn)."""
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self._encoder.observation(self._sim, seat),
            "action_mask": self._encoder.action_mask(self._sim, seat),
        }

    def step(self, action: int | None) -> None:
        """Play ``action`` (a code) for the agent to act; ``None`` once it is terminated.

        Raises ``InvalidActionError`` for a code outside the action space and
        ``IllegalActionError`` (naming the rule) for an action the rules forbid now; the
        environment is unchanged either way.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        code = int(action) if isinstance(action, (int, np.integer)) else action
        sim = self._sim
        sim.play(code)  # type: ignore[arg-type]
        self._state = None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        seat = sim.current_player
        if seat is None:
            for index, reward in enumerate(outcome_rewards(self.game)):
                self.rewards[self.possible_agents[index]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The game as the agent to act sees it, in the render mode (see the class).

        Without a render mode it warns and returns None.
        """
        if self.render_mode is None:
            logger.warn(
                "You are calling render method without specifying any render mode: "
                "create the environment with render_mode 'ansi', 'human' or 'rgb_array'"
            )
            return None
        seat = self.agent_name_mapping.get(self.agent_selection, 0) if self.agents else 0
        view = self.game.view(seat)
        if self.render_mode == "rgb_array":
            return board_picture(view)
        text = view_text(view)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the renderings hold no window."""


raw_env = TrickyTreatsEnv
"""The environment without wrappers, as PettingZoo's classic modules name it."""


def env(**kwargs: Any) -> AECEnv[str, _Observation, int]:
    """The environment wrapped as PettingZoo's classic games are, for the call order.

    Takes the arguments of ``TrickyTreatsEnv``. The classic games' ``AssertOutOfBoundsWrapper``
    is left out: the environment checks the bounds itself and raises the library's
    ``InvalidActionError`` (an ``AssertionError`` would not say how to fix the call).
    """
    result: AECEnv[str, _Observation, int] = wrappers.OrderEnforcingWrapper(
        TrickyTreatsEnv(**kwargs)
    )
    return result


# Card colours as drawn, close to the printed cards'.
_INK = {Colour.PURPLE: "#8e5fc2", Colour.RED: "#d9534f", Colour.GREEN: "#4fa85a"}
_PAPER = "#fdf6e3"


def board_picture(view: PlayerView, dpi: int = 72) -> np.ndarray[Any, Any]:
    """A picture of ``view`` (what one player sees) as an ``(H, W, 3)`` ``uint8`` array.

    The nice houses' grid (numbered row by row from 0) with what each wants and its treat,
    the street bonus tokens, the mean houses, the market, and each seat's board (treats,
    pumpkins, footprints, points, secret tile if the viewer may see it, the houses visited
    and tricked, and every kid's cards, the top one with its trick icon). Drawn with matplotlib's
    Agg canvas, without pyplot or a window (``pip install 'tricky-treats[pettingzoo]'``
    brings matplotlib).
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle
    except ImportError as exc:  # pragma: no cover - the extra installs it
        raise ConfigurationError(
            f"render_mode 'rgb_array' draws with matplotlib: {install_hint('pettingzoo')}"
        ) from exc
    n = len(view.players)
    figure = Figure(figsize=(12, 7.5), dpi=dpi, facecolor=_PAPER)
    canvas = FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 120)
    ax.set_ylim(0, 75)
    ax.axis("off")

    def box(x: float, y: float, w: float, h: float, colour: str, text: str = "") -> None:
        ax.add_patch(Rectangle((x, y), w, h, facecolor=colour, edgecolor="#333333", lw=1))
        if text:
            ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=8)

    turn = view.current_player
    status = "game over" if turn is None else f"{seat_name(turn)} to act"
    ax.text(1, 73, f"Turn {view.turn}, {status}; as seen by {seat_name(view.player)}", fontsize=12)
    ax.text(1, 69, "Nice houses", fontsize=10, weight="bold")
    for h, house in enumerate(view.grid):
        row, column = divmod(h, 3)
        pumpkin = "\npumpkin" if view.pumpkin_on_house[h] else ""
        text = f"{h}: wants {feature_text(house.neighbour.wants)}\n{house.treat.value}{pumpkin}"
        box(1 + column * 14, 55 - row * 12, 13, 11, "#fff3c4", text)
    streets = [
        f"{token.back if flipped else token.front} {token.treat.value}"
        for token, flipped in zip(view.street_tokens, view.street_flipped, strict=True)
    ]
    ax.text(1, 29, "Street bonuses: " + ", ".join(streets), fontsize=8)
    ax.text(1, 25, "Mean houses", fontsize=10, weight="bold")
    for m, mean in enumerate(view.mean_houses):
        pumpkin = "\npumpkin" if view.pumpkin_on_mean_house[m] else ""
        text = f"{m}: {mean.neighbour.icon.value}\ntile {mean.tile.id}{pumpkin}"
        box(1 + m * 14, 13, 13, 11, "#d9d2e9", text)
    ax.text(1, 10, f"Market (deck {view.deck_size}, discarded {len(view.discarded)})", fontsize=10)
    for slot, card in enumerate(view.market):
        if card is None:
            box(1 + slot * 9, 1, 8, 8, "#eeeeee", "-")
        else:
            text = f"{card.theme.value}\n{card.type.value}\n{card.icon.value}"
            box(1 + slot * 9, 1, 8, 8, _INK[card.colour], text)
    height = 73 / n
    for offset in range(n):
        seat = (view.player + offset) % n
        player = view.players[seat]
        top = 71 - offset * height
        tile = view.secret_tiles[seat]
        treats = ", ".join(
            f"{count} {t.value}" for t, count in zip(_TREATS, player.treats, strict=True)
        )
        ax.text(
            47,
            top,
            f"{seat_name(seat)}: {view.scores[seat].total} points; {treats}; pumpkins "
            f"{player.pumpkins}; footprints {player.footprints}; secret tile "
            f"{tile.id if tile is not None else '?'}",
            fontsize=9,
            weight="bold" if seat == turn else "normal",
        )
        visited = ", ".join(map(str, sorted(player.visited))) or "none"
        tricked = ", ".join(map(str, sorted(player.tricked))) or "none"
        ax.text(47, top - 2.5, f"visited {visited}; tricked {tricked}", fontsize=7)
        card_height = min(4.0, (height - 9) / 3)
        for k, kid in enumerate(player.kids):
            x = 47 + k * 14.5
            ax.text(x, top - 5, f"kid {k}", fontsize=7)
            for c, card in enumerate(kid):
                label = f"{card.theme.value} {card.type.value}"
                if c == len(kid) - 1:  # the top card shows its trick icon (R3)
                    label += f", {card.icon.value}"
                box(x, top - 6 - (c + 1) * card_height, 13.5, card_height, _INK[card.colour])
                ax.text(x + 0.5, top - 6 - (c + 0.5) * card_height, label, fontsize=6, va="center")
    canvas.draw()  # type: ignore[no-untyped-call]  # matplotlib leaves it untyped
    rgba = canvas.buffer_rgba()  # type: ignore[no-untyped-call]
    picture: np.ndarray[Any, Any] = np.asarray(rgba)[:, :, :3].copy()
    return picture
