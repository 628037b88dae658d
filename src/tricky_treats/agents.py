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

import json
import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import attrs

from tricky_treats._extras import install_hint
from tricky_treats.actions import Action, TakeCard
from tricky_treats.components import ComponentData, CostumeCard, CostumeType, RulesData, TrickTile
from tricky_treats.declaration import Variant
from tricky_treats.errors import ConfigurationError, InvalidActionError
from tricky_treats.model import ActionLog, GameConfig, GameState, Setup
from tricky_treats.plugins import resolve, variant_registry
from tricky_treats.rules import build_player
from tricky_treats.scoring import ExtraScore, score_sheet
from tricky_treats.simulator import Simulator, _redealt_setup
from tricky_treats.simulator._simulator import _greedy_values
from tricky_treats.variants._shuffles import fast_shuffles, plan
from tricky_treats.views import PlayerView

__all__ = [
    "AGENTS",
    "MAX_SEARCH_ITERATIONS",
    "Agent",
    "Determinizer",
    "GreedyAgent",
    "RandomAgent",
    "SearchAgent",
    "begin_game",
    "determinize",
    "end_game",
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
        self.scorers = _scorers(self.config, view.rules, self.components)
        log: ActionLog = None
        for action in view.history:
            log = (action, log)
        self.log = log
        # What simulator() copies: a simulator made from the first sample (or None where
        # the core does not cover the game), with the core's code of every card by id.
        self._template: tuple[Simulator, dict[int, int]] | None = None
        self._sampled = False
        self._plans = (plan(view.unseen_tiles), plan(view.deck_cards))

    def simulator(self, rng: random.Random) -> Simulator:
        """A ``Simulator`` of one state consistent with the view.

        The same as ``Simulator(self.sample(rng))``, drawing the same numbers from ``rng``:
        after the first, each is a copy of the first with the hidden information drawn anew,
        which costs a fraction of building a state.
        """
        template = self._template
        if template is None:
            sim = Simulator(self.sample(rng))
            if not self._sampled and sim.fast:
                codes = sim._core.tables.deck  # type: ignore[union-attr]
                by_card = {
                    id(card): code for card, code in zip(sim._setup.deck, codes, strict=True)
                }
                self._template = (sim.clone(), by_card)
            self._sampled = True
            return sim
        base, by_card = template
        secret_tiles, remaining = self._draw(rng)
        deck = (*self.dealt, *remaining)
        codes = base._core.tables.deck[: len(self.dealt)]  # type: ignore[union-attr]
        codes += tuple([by_card[id(card)] for card in remaining])
        return base._redealt(_redealt_setup(base._setup, secret_tiles, deck), codes)

    def _draw(self, rng: random.Random) -> tuple[tuple[TrickTile, ...], list[CostumeCard]]:
        """The hidden information of one sample: every secret tile, and the deck's order.

        The numbers ``rng.shuffle`` would draw, drawn by the deal's shuffle loop (compiled in
        the compiled build).
        """
        unseen, remaining = fast_shuffles(rng.getrandbits, self._plans)
        secret_tiles = tuple(t if t is not None else unseen.pop() for t in self.view.secret_tiles)
        return secret_tiles, remaining

    def sample(self, rng: random.Random) -> GameState:
        """One state consistent with the view."""
        view = self.view
        secret_tiles, remaining = self._draw(rng)
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


def _scorers(
    config: GameConfig, rules: RulesData, components: ComponentData
) -> tuple[_Scorer, ...]:
    """The variants' scoring functions for determinized games of ``config`` and ``rules``.

    Resolved once per combination: they depend on the variants, their options, the player
    count and the rules, not on the sampled components, which are new objects every time
    (so the plugins' own cache, keyed by the components, would miss on every call).
    """
    registry = variant_registry()
    variants = [registry.get(ref.name) for ref in config.variants]
    key = (
        tuple([id(v) for v in variants]),
        json.dumps(config.variant_options, sort_keys=True),
        len(config.players),
        rules,
    )
    entry = _SCORERS.get(key)
    if entry is None or any(a is not b for a, b in zip(entry[0], variants, strict=True)):
        if len(_SCORERS) >= 64:
            _SCORERS.clear()
        entry = _SCORERS[key] = (tuple(variants), resolve(config, variants, components).scorers)
    return entry[1]


_Scorer = Callable[[GameState, int], Sequence[ExtraScore]]
"""A variant's scoring function, as ``Setup.scorers`` holds them."""

# Scorers of determinized games by combination; each entry holds the variants its key names.
_SCORERS: dict[tuple[object, ...], tuple[tuple[Variant, ...], tuple[_Scorer, ...]]] = {}


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
        values = self._values(state, legal_actions)
        best: list[Action] = []
        best_value = -math.inf
        for action, value in zip(legal_actions, values, strict=True):
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]

    @staticmethod
    def _values(state: GameState, legal_actions: Sequence[Action]) -> list[float]:
        """The value of each action for the player to move in ``state``.

        Played on the compact core where it plays the game and no variant adds scoring lines
        (``simulator.greedy_codes``' valuation: the same numbers), else by the rules.
        """
        encode = state.action_space.encode
        try:
            codes = [encode(action) for action in legal_actions]
        except InvalidActionError:  # not one of the game's: the rules say what is wrong
            return _values_by_rules(state, legal_actions)
        on_core = _greedy_values(Simulator(state), codes)
        return on_core if on_core is not None else _values_by_rules(state, legal_actions)


def _values_by_rules(state: GameState, legal_actions: Sequence[Action]) -> list[float]:
    """Each action's value by the reference rules: ``evaluate`` of the state it leads to."""
    seat = state.current_player
    assert seat is not None
    values: list[float] = []
    for action in legal_actions:
        after = state.apply(action)
        value = evaluate(after, seat)
        if isinstance(action, TakeCard) and after.current_player == seat:
            value -= 0.01  # same value: prefer ending the turn
        values.append(value)
    return values


class _Node:
    """A node of the search tree: statistics of each action (by code) tried from here."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
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
        sim = None
        for _ in range(self.iterations):
            # Every move of an iteration is played on a simulator: none of them is read.
            sim = sampler.simulator(rng)
            self._iterate(root, sim, rng)
        if sim is None:
            raise ConfigurationError(
                f"a SearchAgent needs at least 1 iteration a move, got {self.iterations}"
            )
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward))
        return sim.action_space.actions[best[0]]

    def _iterate(self, root: _Node, sim: Simulator, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            seat = sim.current_player
            if seat is None:
                break
            legal = sim.legal_codes()
            children = node.children
            untried = [code for code in legal if code not in children]
            if untried:
                code = untried[rng.randrange(len(untried))]
                child = children[code] = _Node()
                for other in legal:
                    if other in children:
                        children[other].available += 1
                path.append((child, seat))
                sim.play(code)
                break
            for code in legal:
                children[code].available += 1
            code = max(legal, key=lambda c: self._ucb(children[c]))
            node = children[code]
            path.append((node, seat))
            sim.play(code)
        self._rollout(sim, rng)
        shares = self._rewards(sim)
        for child, seat in path:
            child.visits += 1
            child.reward += shares[seat]

    def _ucb(self, node: _Node) -> float:
        return node.reward / node.visits + self.exploration * math.sqrt(
            math.log(node.available) / node.visits
        )

    def _rollout(self, sim: Simulator, rng: random.Random) -> None:
        space = sim.action_space
        first_visit = space.market_size * space.kids  # visits and tricks follow the takes
        last_visit = first_visit + space.nice_houses + space.mean_houses
        visit_bias = self.visit_bias
        core = sim._core  # the hot loop of the search: on the core itself where it plays
        if core is None:
            while not sim.is_over:
                legal = sim.legal_codes()
                if visit_bias and rng.random() < visit_bias:
                    visits = [code for code in legal if first_visit <= code < last_visit]
                    if visits:
                        sim.play(visits[rng.randrange(len(visits))])
                        continue
                sim.play(legal[rng.randrange(len(legal))])
            return
        # The same draws as above: the visits are the legal codes of that range, in order.
        legal_codes = core.legal_codes
        visit_codes = core.visit_codes
        play = core.play
        randrange = rng.randrange
        draw = rng.random
        while core.current >= 0:
            if visit_bias and draw() < visit_bias:
                visits = visit_codes()
                if visits:
                    play(visits[randrange(len(visits))])
                    continue
            legal = legal_codes()
            play(legal[randrange(len(legal))])

    def _rewards(self, sim: Simulator) -> list[float]:
        results = sim._totals()  # each seat's total and tile points, worked out once
        totals = [total for total, _ in results]
        best = max(results)
        won = [seat for seat, result in enumerate(results) if result == best]
        rewards = [1.0 / len(won) if p in won else 0.0 for p in range(len(totals))]
        if self.margin:
            for p, total in enumerate(totals):
                best_other = max(t for q, t in enumerate(totals) if q != p)
                rewards[p] += self.margin * math.tanh((total - best_other) / 20)
        return rewards


def _shipped_policy() -> Agent:
    """The learned value policy whose weights ship with the package (needs numpy)."""
    try:
        from tricky_treats.adapters.policy import ValuePolicyAgent
    except ImportError:
        raise ConfigurationError(
            f"the policy agent needs numpy: {install_hint('policy')}"
        ) from None
    return ValuePolicyAgent.shipped()


AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": SearchAgent,
    "policy": _shipped_policy,
}
"""Agent names for the command line and ``make_agent()``: ``policy`` is the learned value
policy of ``tricky_treats.adapters.policy`` (numpy, from the ``policy`` extra)."""


MAX_SEARCH_ITERATIONS = 5_000
"""The largest budget ``make_agent`` accepts in ``search:ITERATIONS``: at about a millisecond
an iteration, a few seconds a move (``search:1000000`` would take a quarter of an hour)."""


def make_agent(spec: str) -> Agent:
    """An agent from its name: ``random``, ``greedy``, ``search[:ITERATIONS]`` or ``policy``.

    ``policy`` is the shipped learned policy, which needs numpy.

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


def begin_game(agents: Iterable[object], game: GameState) -> None:
    """Tell each agent that has a ``begin_game(game)`` method that ``game`` begins (once each).

    An agent may define ``begin_game(game)`` and ``end_game(final)`` to hear of a game's
    start and end: an exec bot (``tricky_treats.bot_protocol.ExecAgent``) starts and ends its
    processes there. ``play_game``, ``simulate`` and the ladder call them.
    """
    for agent in _distinct(agents):
        hook = getattr(agent, "begin_game", None)
        if hook is not None:
            hook(game)


def end_game(agents: Iterable[object], game: GameState | None) -> None:
    """Tell each agent that has an ``end_game`` method that the game ended (once each).

    ``game`` is the final state, or None for a game stopped before its end.
    """
    for agent in _distinct(agents):
        hook = getattr(agent, "end_game", None)
        if hook is not None:
            hook(game)


def _distinct(agents: Iterable[object]) -> list[object]:
    """Each agent once, though it play several seats."""
    return list({id(agent): agent for agent in agents}.values())


def play_game(game: GameState, agents: Sequence[Agent], seed: int = 0) -> list[GameState]:
    """Play ``game`` to the end with one agent per seat; return every state, first to last.

    The agents draw from one ``random.Random(seed)``, so the same game, agents and seed
    always play the same way. Agents that define ``begin_game`` and ``end_game`` hear of
    the game's start and end (``begin_game()``), even when a move raises.
    """
    if len(agents) != len(game.players):
        raise ConfigurationError(
            f"need {len(game.players)} agents, one per seat, got {len(agents)}"
        )
    rng = random.Random(seed)
    states = [game]
    begin_game(agents, game)
    final: GameState | None = None
    try:
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            action = agents[seat].choose(game.view(seat), game.legal_actions(), rng)
            game = game.apply(action)
            states.append(game)
        final = game
    finally:
        end_game(agents, final)
    return states
