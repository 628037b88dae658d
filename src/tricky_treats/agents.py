"""Agents (bots): choose an action from what one player may see.

An agent implements ``choose(view, legal_actions, rng) -> Action``. It sees only the player's
``PlayerView`` and the legal actions, and draws any randomness from the
``random.Random`` it is given, so a game between agents is as deterministic as the game.

- ``RandomAgent`` chooses uniformly.
- ``GreedyAgent`` values the immediate effect of each action.
- ``SearchAgent`` runs information-set Monte Carlo tree search: every iteration samples
  the hidden information (``determinize()``) and searches that sampled game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol

import attrs

from tricky_treats.actions import Action, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import ComponentData, CostumeType
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import ActionLog, GameConfig, GameState, Setup
from tricky_treats.plugins import resolve, variant_registry
from tricky_treats.rules import build_player
from tricky_treats.scoring import score_sheet, winners
from tricky_treats.views import PlayerView

__all__ = [
    "AGENTS",
    "MAX_SEARCH_ITERATIONS",
    "Agent",
    "Determinizer",
    "GreedyAgent",
    "RandomAgent",
    "SearchAgent",
    "determinize",
    "make_agent",
    "play_game",
]


class Agent(Protocol):
    """Anything that chooses an action for a player."""

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return one of ``legal_actions`` for the player whose ``view`` this is."""
        ...  # pragma: no cover - a protocol


class RandomAgent:
    """Chooses uniformly among the legal actions."""

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return a legal action drawn uniformly with ``rng``."""
        return legal_actions[rng.randrange(len(legal_actions))]

    def choose_from_legal(self, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The same choice without a view: ``simulate()`` calls this and builds no view.

        Any agent that never looks at its view may define this method to be simulated faster.
        """
        return legal_actions[rng.randrange(len(legal_actions))]

    def __repr__(self) -> str:
        return "RandomAgent()"


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state consistent with ``view``: the hidden information sampled with ``rng``.

    The deck's remaining cards are shuffled and the other players' secret tiles drawn from
    the tiles the viewer cannot see. Everything the viewer sees is kept as it is, and the
    result plays and scores by the game's rules and variants.
    """
    return Determinizer(view).sample(rng)


class Determinizer:
    """Samples states consistent with one view; the parts that do not vary are built once."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        seen = [c for p in view.players for kid in p.kids for c in kid]
        seen += [c for c in view.market if c is not None] + list(view.discarded)
        cards = tuple(sorted((*seen, *view.deck_cards), key=lambda c: c.id))
        shown = [t for t in view.secret_tiles if t is not None]
        self.components = ComponentData(
            name="determinized",
            rules=view.rules,
            cards=cards,
            nice_neighbours=tuple(h.neighbour for h in view.grid),
            mean_neighbours=tuple(m.neighbour for m in view.mean_houses),
            house_treat_tokens=tuple(h.treat for h in view.grid),
            street_bonus_tokens=view.street_tokens,
            trick_tiles=(*(m.tile for m in view.mean_houses), *shown, *view.unseen_tiles),
        )
        in_deck = {c.id for c in view.deck_cards}
        self.dealt = tuple(c for c in cards if c.id not in in_deck)
        self.config = GameConfig(
            players=tuple(p.name for p in view.players),
            seed=0,
            first_player=view.first_player,
            variants=view.variants,
            variant_options=view.variant_options,
        )
        registry = variant_registry()
        variants = [registry.get(ref.name) for ref in view.variants]
        self.scorers = resolve(self.config, variants, self.components).scorers
        log: ActionLog = None
        for action in view.history:
            log = (action, log)
        self.log = log

    def sample(self, rng: random.Random) -> GameState:
        """One state consistent with the view."""
        view = self.view
        unseen = list(view.unseen_tiles)
        rng.shuffle(unseen)
        secret_tiles = tuple(t if t is not None else unseen.pop() for t in view.secret_tiles)
        remaining = list(view.deck_cards)
        rng.shuffle(remaining)
        setup = Setup(
            config=self.config,
            components=self.components,
            rules=view.rules,
            grid=view.grid,
            street_tokens=view.street_tokens,
            mean_houses=view.mean_houses,
            secret_tiles=secret_tiles,
            deck=(*self.dealt, *remaining),
            # Other players' tiles show in a view only when dealt face up or at the end.
            secret_tiles_face_up=all(tile is not None for tile in view.secret_tiles),
            scorers=self.scorers,
        )
        players = tuple(
            build_player(
                setup,
                name=p.name,
                secret_tile=secret_tiles[seat],
                kids=p.kids,
                treats=p.treats,
                pumpkins=p.pumpkins,
                visited=p.visited,
                tricked=p.tricked,
            )
            for seat, p in enumerate(view.players)
        )
        return GameState(
            setup=setup,
            players=players,
            market=view.market,
            deck_position=len(self.dealt),
            discarded=view.discarded,
            pumpkin_on_house=view.pumpkin_on_house,
            pumpkin_on_mean_house=view.pumpkin_on_mean_house,
            street_flipped=view.street_flipped,
            current_player=view.current_player,
            turn=view.turn,
            passes_in_a_row=view.passes_in_a_row,
            end_trigger=view.end_trigger,
            log=self.log,
        )


def _costume_potential(state: GameState, seat: int) -> float:
    """How promising the unfinished costumes are (R12).

    Kids whose cards still share a colour or a theme can still score 4, 6 or 8.
    """
    value = 0.0
    for kid in state.players[seat].kids:
        if 0 < len(kid) < len(CostumeType):
            colour = all(c.colour is kid[0].colour for c in kid)
            theme = all(c.theme is kid[0].theme for c in kid)
            value += len(kid) * (1.0 * theme + 0.6 * colour + 0.3)
    return value


def evaluate(state: GameState, seat: int) -> float:
    """Points so far for ``seat`` plus a small value for costumes in progress."""
    return score_sheet(state, seat).total + 0.5 * _costume_potential(state, seat)


@attrs.frozen
class GreedyAgent:
    """Values the immediate effect of each action and takes the best (ties by ``rng``).

    The effect is measured on one sampled completion of the hidden information: the player's
    points afterwards (pumpkins, costumes, trick tiles, with their own secret tile) plus a
    small value for costumes in progress.
    """

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return the legal action with the best immediate value."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        state = determinize(view, rng)
        seat = view.player
        best: list[Action] = []
        best_value = -math.inf
        for action in legal_actions:
            after = state.apply(action)
            value = evaluate(after, seat)
            if isinstance(action, TakeCard) and after.current_player == seat:
                value -= 0.01  # same value: prefer ending the turn
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]


class _Node:
    """A node of the search tree: statistics of each action tried from here."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


@attrs.frozen
class SearchAgent:
    """Information-set Monte Carlo tree search over sampled hidden information.

    Each of ``iterations`` iterations samples the hidden information (``determinize()``),
    descends the tree by UCB1 among the actions legal in that sample, expands one action, and
    finishes the game with quick rollouts: a house is visited when one can be, with
    probability ``visit_bias``, else the action is uniform. The reward is the share of the
    win (R15) plus ``margin`` times a squashed point margin over the best other player.
    Measured with ``tricky-treats simulate`` against ``GreedyAgent``, these defaults
    won 84 of 100 two-player games; uniform rollouts with a win-only reward won 38 of 80.
    """

    iterations: int = 200
    """Search iterations per move: more plays better and slower."""
    exploration: float = 0.7
    """The UCB1 exploration constant."""
    visit_bias: float = 0.8
    """In rollouts, how often to visit a house when one can be visited (else uniform)."""
    margin: float = 0.5
    """Weight of the point margin in the reward, beside the share of the win."""

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return the most visited action at the root after the search."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = _Node()
        sampler = Determinizer(view)
        for _ in range(self.iterations):
            self._iterate(root, sampler.sample(rng), rng)
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward))
        return best[0]

    def _iterate(self, root: _Node, state: GameState, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while not state.is_over:
            legal = state.legal_actions()
            seat = state.current_player
            assert seat is not None
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node()
                for other in legal:
                    if other in node.children:
                        node.children[other].available += 1
                path.append((child, seat))
                state = state.apply(action)
                break
            for action in legal:
                node.children[action].available += 1
            action = max(legal, key=lambda a: self._ucb(node.children[a]))
            node = node.children[action]
            path.append((node, seat))
            state = state.apply(action)
        state = self._rollout(state, rng)
        shares = self._rewards(state)
        for child, seat in path:
            child.visits += 1
            child.reward += shares[seat]

    def _ucb(self, node: _Node) -> float:
        return node.reward / node.visits + self.exploration * math.sqrt(
            math.log(node.available) / node.visits
        )

    def _rollout(self, state: GameState, rng: random.Random) -> GameState:
        while not state.is_over:
            legal = state.legal_actions()
            if self.visit_bias and rng.random() < self.visit_bias:
                visits = [a for a in legal if type(a) in _VISITS]
                if visits:
                    state = state.apply(visits[rng.randrange(len(visits))])
                    continue
            state = state.apply(legal[rng.randrange(len(legal))])
        return state

    def _rewards(self, state: GameState) -> list[float]:
        sheets = [score_sheet(state, p) for p in range(len(state.players))]
        won = winners(sheets)
        rewards = [1.0 / len(won) if p in won else 0.0 for p in range(len(sheets))]
        if self.margin:
            totals = [sheet.total for sheet in sheets]
            for p, total in enumerate(totals):
                best_other = max(t for q, t in enumerate(totals) if q != p)
                rewards[p] += self.margin * math.tanh((total - best_other) / 20)
        return rewards


_VISITS = (VisitHouse, TrickHouse)


AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": SearchAgent,
}
"""Agent names for the command line and ``make_agent()``."""


MAX_SEARCH_ITERATIONS = 5_000
"""The largest budget ``make_agent`` accepts in ``search:ITERATIONS``: at about a millisecond
an iteration, a few seconds a move (``search:1000000`` would take a quarter of an hour)."""


def make_agent(spec: str) -> Agent:
    """An agent from its name: ``random``, ``greedy``, ``search`` or ``search:ITERATIONS``.

    Raises ``ConfigurationError`` naming the problem for an unknown name, a budget on an
    agent that takes none, or a budget that is not a whole number from 1 to
    ``MAX_SEARCH_ITERATIONS`` written in ASCII digits.
    """
    if not isinstance(spec, str):
        raise ConfigurationError(f"an agent is named by a string such as 'greedy', got {spec!r}")
    name, colon, budget = spec.partition(":")
    if name not in AGENTS:
        raise ConfigurationError(f"no agent {_shorten(name)!r}; choose from {', '.join(AGENTS)}")
    if not colon:
        return AGENTS[name]()
    if name != "search":
        raise ConfigurationError(
            f"only the search agent takes a budget, as 'search:ITERATIONS'; "
            f"{name!r} takes none, got {_shorten(spec)!r}"
        )
    # ASCII digits only: str.isdigit() also accepts '²' and '٣', which int() refuses or reads.
    digits = budget.isascii() and budget.isdigit()
    too_long = len(budget) > len(str(MAX_SEARCH_ITERATIONS))  # int() of a huge string is slow
    if not digits or too_long or not 1 <= int(budget) <= MAX_SEARCH_ITERATIONS:
        raise ConfigurationError(
            f"the search budget must be a whole number of iterations from 1 to "
            f"{MAX_SEARCH_ITERATIONS:,}, as in 'search:200'; got {_shorten(budget)!r}"
        )
    return SearchAgent(iterations=int(budget))


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters, so that an absurd input gives a readable message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def play_game(game: GameState, agents: Sequence[Agent], seed: int = 0) -> list[GameState]:
    """Play ``game`` to the end with one agent per seat; return every state, first to last.

    The agents draw from one ``random.Random(seed)``, so the same game, agents and seed
    always play the same way.
    """
    if len(agents) != len(game.players):
        raise ConfigurationError(
            f"need {len(game.players)} agents, one per seat, got {len(agents)}"
        )
    rng = random.Random(seed)
    states = [game]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = agents[seat].choose(game.view(seat), game.legal_actions(), rng)
        game = game.apply(action)
        states.append(game)
    return states
