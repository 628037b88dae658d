"""Players of any ``TurnBasedGame``: random, at a terminal, and the information-set search."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any

import attrs

from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.protocol.game import Agent, InformationSet, TurnBasedGame

__all__ = ["RandomPlayer", "SearchPlayer", "TerminalPlayer", "make_player"]


@attrs.frozen
class RandomPlayer:
    """Chooses uniformly among the legal actions."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Return a legal action drawn uniformly with ``rng``."""
        return info.legal_actions[rng.randrange(len(info.legal_actions))]


@attrs.frozen
class TerminalPlayer:
    """A person at a terminal: shows the view, lists the legal actions and reads one.

    An action is chosen by its text (``str(action)``, or ``spell(action)``, as the list shows
    it, in any letter case) or its number in the list; ``help`` (or the word for it in the
    console's language) prints ``help`` (the game explained in a few lines). ``render``
    turns the view into text; ``read`` and ``write`` default to ``input`` and ``print``.

    A console that speaks another language than its notation gives ``spell`` (an action in
    the player's words: ``mover rojo`` for ``move red``) and ``parse`` (a typed text, in
    either language's words, to an action, or None when it is none); an answer that is no
    legal action is then answered with the reason: not an action at all, or ``refusal(info,
    action)``, why the rules refuse that action now.
    """

    render: Callable[[Any], str] = str
    read: Callable[[str], str] = input
    write: Callable[[str], None] = print
    help: str = ""
    """What ``help`` prints: the game in a few lines and its notation."""
    spell: Callable[[Any], str] = str
    """An action as the list shows it, in the player's language."""
    parse: Callable[[str], Hashable | None] | None = None
    """A typed text as an action (legal or not), None when it names none."""
    refusal: Callable[[InformationSet, Any], str] | None = None
    """Why an action the player typed cannot be played now, in the player's language."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Ask until the answer names a legal action; end of input raises ``EOFError``."""
        from tricky_treats.i18n import _  # the prompt in the console's language

        self.write(self.render(info.view))
        legal = info.legal_actions
        texts = [self.spell(a) for a in legal]
        self.write(_("legal: ") + ", ".join(f"[{i}] {t}" for i, t in enumerate(texts)))
        # Actions are matched without regard to case: "play k4 2" and "play K4 2" are one action;
        # the notation is understood too where the list speaks another language.
        chosen = {_fold(str(a)): a for a in legal}
        chosen |= {_fold(t): a for t, a in zip(texts, legal, strict=True)}
        helps = {"help", "?", _fold(_("help"))}
        while True:
            answer = self.read(_("player {number}> ").format(number=info.player)).strip()
            key = _fold(answer)
            if key.isascii() and key.isdigit() and int(key) < len(texts):
                return legal[int(key)]
            if key in chosen:
                return chosen[key]
            if key in helps:
                self.write(self.help or _("type one of the legal actions or its number"))
                continue
            # Words of both languages in one answer ("move rojo"), or the notation's own.
            action = self.parse(answer) if self.parse is not None and answer else None
            if action is not None and action in legal:
                return action
            self.write(self._refused(info, answer, action))

    def _refused(self, info: InformationSet, answer: str, action: Hashable | None) -> str:
        """Why ``answer`` is refused: that it names no action, or the rules' reason."""
        from tricky_treats.i18n import _

        if action is None:
            return _(
                "{answer} is not an action; type one of the actions above or its number "
                "({help} explains the game)"
            ).format(answer=repr(answer[:40]), help=_("help"))
        reason = self.refusal(info, action) if self.refusal is not None else ""
        return _("{action} cannot be played now: {reason}").format(
            action=self.spell(action), reason=reason or _("it is not among the actions above")
        )


def _fold(text: str) -> str:
    """``text`` as answers are compared: lower case, single spaces."""
    return " ".join(text.lower().split())


class _Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


@attrs.frozen
class SearchPlayer:
    """Information-set Monte Carlo tree search (single observer, UCB1 with availability counts).

    Each iteration samples a determinization of the information set, descends the shared tree
    among the actions legal in that sample, expands one action, finishes the game with uniform
    random moves (or ``rollout_policy(state, rng)``, a game's own quick policy) and credits each
    seat its ``returns()``. It is game-independent: it needs only ``TurnBasedGame``.
    """

    iterations: int = 200
    exploration: float = 0.7
    max_rollout_actions: int = 10_000
    """A guard against a game that never ends; reaching it is an error of the game."""
    rollout_policy: Callable[[Any, random.Random], Hashable] | None = None
    """Chooses the actions of the playouts; uniform among the legal actions when None."""
    action_filter: Callable[[Any], Sequence[Hashable]] | None = None
    """The actions the search considers in a state, a non-empty subset of the legal ones
    (for example, no accusation the accuser cannot know to be right); all legal when None.
    It applies to every seat in the tree and to uniform playouts."""
    playout_cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None
    """``playout_cutoff(start, state)`` may stop a playout early: called after each playout
    action with the state the playout began from, it returns each seat's estimated share (for
    example at the end of a hand of a long match) or None to play on. None plays to the end."""
    sampler: Callable[[InformationSet, random.Random], Any] | None = None
    """Draws the full states the search plays in, ``info.determinize(rng)`` when None: a game's
    bot gives one that draws the hidden information as likely as what the player has seen
    makes it (for example, a basket its player keeps feeding is likelier theirs)."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Return the most visited root action after ``iterations`` iterations."""
        if len(info.legal_actions) == 1:
            return info.legal_actions[0]
        sample = info.determinize if self.sampler is None else partial(self.sampler, info)
        if self.action_filter is not None:
            # The filter reads only what the player knows, so any sample gives the same answer.
            considered = self.action_filter(sample(rng))
            if len(considered) == 1:
                return considered[0]
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(root, sample(rng), rng)
        legal = set(info.legal_actions)
        tried = [(a, n) for a, n in root.children.items() if a in legal]
        return max(tried, key=lambda item: (item[1].visits, item[1].reward))[0]

    def _iterate(self, root: _Node, state: TurnBasedGame, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        considered = self.action_filter or _legal
        while not state.is_over:
            legal = considered(state)
            seat = state.current_player
            assert seat is not None
            untried = [a for a in legal if a not in node.children]
            for action in legal:
                if action in node.children:
                    node.children[action].available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node()
                child.available += 1
                path.append((child, seat))
                state = state.apply(action)
                break
            action = max(legal, key=lambda a: self._ucb(node.children[a]))
            node = node.children[action]
            path.append((node, seat))
            state = state.apply(action)
        policy = self.rollout_policy
        if policy is None and self.action_filter is not None:
            policy = _uniform_among(self.action_filter)
        shares = _playout_shares(state, rng, self.max_rollout_actions, policy, self.playout_cutoff)
        for child, seat in path:
            child.visits += 1
            child.reward += shares[seat]

    def _ucb(self, node: _Node) -> float:
        return node.reward / node.visits + self.exploration * math.sqrt(
            math.log(max(node.available, 1)) / node.visits
        )


def _legal(state: Any) -> Sequence[Hashable]:
    return state.legal_actions()  # type: ignore[no-any-return]


def _uniform_among(
    actions: Callable[[Any], Sequence[Hashable]],
) -> Callable[[Any, random.Random], Hashable]:
    def policy(state: Any, rng: random.Random) -> Hashable:
        options = actions(state)
        return options[rng.randrange(len(options))]

    return policy


def _playout_shares(
    state: TurnBasedGame,
    rng: random.Random,
    limit: int,
    policy: Callable[[Any, random.Random], Hashable] | None = None,
    cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None,
) -> tuple[float, ...]:
    """Each seat's share at the end of a random playout from ``state`` (or at ``cutoff``)."""
    start = state
    for _ in range(limit):
        if state.is_over:
            return state.returns()
        if policy is not None:
            state = state.apply(policy(state, rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        shares = None if cutoff is None else cutoff(start, state)
        if shares is not None:
            return shares
    if not state.is_over:
        raise ConfigurationError(f"a playout did not end within {limit} actions")
    return state.returns()


def make_player(
    spec: str,
    rollout_policy: Callable[[Any, random.Random], Hashable] | None = None,
    action_filter: Callable[[Any], Sequence[Hashable]] | None = None,
    playout_cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None,
) -> Agent:
    """A generic bot from its name: ``random``, ``search`` or ``search:ITERATIONS``.

    A search bot plays its playouts with ``rollout_policy``, considers only the actions
    ``action_filter`` gives and stops playouts at ``playout_cutoff``, when they are given (see
    ``SearchPlayer``).
    """
    name, _, budget = spec.partition(":")
    if name == "random" and not budget:
        return RandomPlayer()
    if name == "search" and (not budget or (budget.isdigit() and 0 < int(budget) <= 100_000)):
        return SearchPlayer(
            iterations=int(budget) if budget else SearchPlayer().iterations,
            rollout_policy=rollout_policy,
            action_filter=action_filter,
            playout_cutoff=playout_cutoff,
        )
    raise ConfigurationError(
        f"no bot {brief(spec)}; choose random, search or search:ITERATIONS (1 to 100000)"
    )
