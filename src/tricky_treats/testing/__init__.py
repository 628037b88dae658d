"""A conformance check for variant authors: random playouts that verify the core invariants.

Call it from your plugin's tests::

    from tricky_treats.testing import check_variant

    def test_my_variant_conforms():
        check_variant(["my-variant"])

It plays random games of the variants (combined with nothing else unless you list more) for
each supported player count and checks, at every step, what the engine's own tests check:
every listed action applies and an unlisted one is refused without changing the state; a kid
wears at most one card of each type and placed cards never move; footprints left plus houses
visited is the supply; every card and pumpkin is accounted for; treats never go down; the
game ends with every player having had the same number of turns; replaying the log from the
seed gives the same states; saving and loading gives the same state; what a player receives
(its view: the board as it may see it, its score lines, its legal actions) does not depend
on what that player may not see (the order of the deck, which tiles the other players hold,
the seed):
the check changes those several ways and compares, which catches a scoring function whose
visible lines read hidden information, even through a summary that one change keeps (the set
of the other players' tiles, the top and bottom cards of the deck). A failure raises
``AssertionError`` saying which game, step and invariant.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from tricky_treats.actions import RefreshMarket
from tricky_treats.agents import RandomAgent, play_game
from tricky_treats.components import CostumeType
from tricky_treats.dealing import new_game
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.model import GameState
from tricky_treats.plugins import get_variant
from tricky_treats.serialization import dumps, loads

__all__ = ["check_game", "check_state", "check_variant", "turns_taken", "with_hidden_changed"]


def check_variant(
    variants: Sequence[str],
    *,
    variant_options: Mapping[str, Mapping[str, Any]] | None = None,
    players: Iterable[int] | None = None,
    games: int = 5,
    seed: int = 0,
) -> int:
    """Play ``games`` random games per player count with ``variants``; check every step.

    ``players`` defaults to every count all the variants support. Returns the number of
    states checked. Raises ``AssertionError`` on the first broken invariant.
    """
    if players is None:
        supported = [set(get_variant(name).players) for name in variants]
        players = sorted(set.intersection(*supported)) if supported else [2, 3, 4]
    checked = 0
    for count, index in itertools.product(players, range(games)):
        game_seed = seed * 1000 + count * 100 + index
        game = new_game(
            players=count,
            seed=game_seed,
            variants=variants,
            variant_options=variant_options,
        )
        states = play_game(game, [RandomAgent()] * count, seed=game_seed)
        checked += check_game(states, label=f"{list(variants)}, {count} players, seed {game_seed}")
    return checked


def check_game(states: Sequence[GameState], label: str = "game") -> int:
    """Check a played game given as all its states, first to last; return the number checked."""
    first, final = states[0], states[-1]
    assert final.is_over, f"{label}: the game did not end"
    history = final.history
    assert len(history) == len(states) - 1, f"{label}: history and states disagree"
    replay = new_game(
        players=list(first.config.players),
        seed=first.config.seed,
        first_player=first.config.first_player,
        any_mean_house=first.config.any_mean_house,
        refresh_ends_turn=first.config.refresh_ends_turn,
        variants=[ref.name for ref in first.config.variants],
        variant_options=first.config.variant_options,
    )
    assert replay == first, f"{label}: the same seed dealt a different game"
    rng = random.Random(first.config.seed)
    steps = zip(states[:-1], history, states[1:], strict=True)
    for step, (before, action, after) in enumerate(steps):
        where = f"{label}, step {step} ({action})"
        check_state(before, where, rng)
        assert action in before.legal_actions(), f"{where}: a played action was not listed"
        replay = replay.apply(action)
        assert replay == after, f"{where}: replaying the log gave a different state"
        _check_step(before, after, where)
    check_state(final, f"{label}, final state", rng)
    turns = turns_taken(states)
    assert len(set(turns)) == 1, f"{label}: players had different numbers of turns: {turns}"
    assert loads(dumps(final)) == final, f"{label}: save and load changed the final state"
    return len(states)


def turns_taken(states: Sequence[GameState]) -> list[int]:
    """How many turns each seat took in a game given as its states, first to last.

    Every action is a turn but a refresh that is not the turn's action (R8).
    """
    turns = [0] * len(states[0].players)
    for before, action in zip(states, states[-1].history, strict=False):
        if not isinstance(action, RefreshMarket) or before.setup.rules.refresh_ends_turn:
            assert before.current_player is not None, "an action after the end of the game"
            turns[before.current_player] += 1
    return turns


def check_state(state: GameState, where: str = "state", rng: random.Random | None = None) -> None:
    """Check the invariants of one state (see the module's docstring)."""
    rng = rng or random.Random(0)
    setup = state.setup
    rules = setup.rules
    card_count = len(setup.components.cards)
    for seat, player in enumerate(state.players):
        for kid, stack in enumerate(player.kids):
            types = [card.type for card in stack]
            assert len(types) == len(set(types)) <= len(CostumeType), (
                f"{where}: player {seat} kid {kid} wears {types}"
            )
        visits = len(player.visited) + len(player.tricked)
        assert player.footprints + visits == rules.footprints_per_player, (
            f"{where}: player {seat} has {player.footprints} footprints after {visits} visits"
        )
        assert all(t >= 0 for t in player.treats), f"{where}: negative treats"
    cards = [c.id for p in state.players for kid in p.kids for c in kid]
    cards += [c.id for c in state.market if c is not None]
    cards += [c.id for c in state.discarded] + [c.id for c in setup.deck[state.deck_position :]]
    assert sorted(cards) == list(range(card_count)), f"{where}: cards are not conserved"
    houses = len(setup.grid) + len(setup.mean_houses)
    on_houses = sum(state.pumpkin_on_house) + sum(state.pumpkin_on_mean_house)
    assert on_houses + sum(p.pumpkins for p in state.players) == houses, (
        f"{where}: pumpkins are not conserved"
    )
    legal = state.legal_actions()
    assert bool(legal) != state.is_over, f"{where}: legal actions and the end disagree"
    for action in rng.sample(list(state.action_space.actions), 4):
        if action in legal:
            continue
        before = attrs.asdict(state, recurse=False)
        try:
            state.apply(action)
        except TrickyTreatsError:
            pass
        else:
            raise AssertionError(f"{where}: the unlisted action {action} was accepted")
        assert attrs.asdict(state, recurse=False) == before, (
            f"{where}: a refused action changed the state"
        )
    for seat in range(len(state.players)):
        # The view is everything the seat's player record holds but the game's public
        # settings (names, variants, options), which no change below touches.
        received = state.view(seat)
        for hidden in with_hidden_changed(state, seat, rng):
            assert hidden.view(seat) == received, (
                f"{where}: player {seat}'s view shows hidden information"
            )


def _check_step(before: GameState, after: GameState, where: str) -> None:
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        for kid, (a, b) in enumerate(zip(old.kids, new.kids, strict=True)):
            assert b[: len(a)] == a, f"{where}: player {seat} kid {kid}'s cards moved"
        assert all(n >= o for o, n in zip(old.treats, new.treats, strict=True)), (
            f"{where}: player {seat}'s treats went down"
        )
    flipped = zip(before.street_flipped, after.street_flipped, strict=True)
    assert all(n >= o for o, n in flipped), f"{where}: a street token flipped back"


def with_hidden_changed(state: GameState, viewer: int, rng: random.Random) -> list[GameState]:
    """``state`` with what ``viewer`` may not see changed, a few ways; [] if nothing is hidden.

    For a variant's or a client's own tests of hidden information: whatever ``viewer``
    receives of ``state`` (its view, its player record ``dumps(state, player=viewer)``, its
    legal actions on its turn) must be the same for each state returned, as
    ``check_state`` checks of the view::

        for hidden in with_hidden_changed(state, seat, random.Random(0)):
            assert dumps(hidden, player=seat) == dumps(state, player=seat)

    What is hidden is the order of the cards left in the deck, the other players' secret
    tiles (which of the box's tiles they are, and who holds which) and the seed. Each changed
    state changes all three: the rest of the deck reversed, turned by one card and shuffled;
    the other players' tiles swapped, replaced by tiles left in the box, and dealt again at
    random; the seed moved by one, its bits turned over, and drawn again.
    The viewer's view (everything a client of that seat receives but the game's public
    settings) must be the same for all of them. A scoring function whose lines show in the
    view (the viewer's own, or a ``public_scoring`` variant's) and that reads any of this,
    even as a symmetric summary (the set of the others' tiles, the top and bottom cards),
    makes the views differ.
    """
    setup = state.setup
    if state.is_over:
        return []
    drawn = setup.deck[: state.deck_position]
    rest = list(setup.deck[state.deck_position :])
    # Tiles dealt face up are no secret: then only the deck and the seed change.
    face_up = setup.secret_tiles_face_up
    others = [] if face_up else [p for p in range(len(state.players)) if p != viewer]
    tiles = list(setup.secret_tiles)
    in_play = {t.id for t in tiles} | {m.tile.id for m in setup.mean_houses}
    spares = [t for t in setup.components.trick_tiles if t.id not in in_play]
    pool = [tiles[p] for p in others] + spares  # what the viewer cannot tell apart
    shuffled_rest = rest[:]
    rng.shuffle(shuffled_rest)
    dealt = rng.sample(pool, len(others))
    seed = setup.config.seed
    changes = [
        (rest[::-1], [tiles[p] for p in others[1:] + others[:1]], seed ^ 1),
        (rest[1:] + rest[:1], (spares + pool)[: len(others)], seed ^ _SEED_BITS),
        (shuffled_rest, dealt, rng.getrandbits(63)),
    ]
    changed = []
    for new_rest, new_tiles, new_seed in changes:
        secret = list(tiles)
        for p, tile in zip(others, new_tiles, strict=True):
            secret[p] = tile
        players = tuple(
            attrs.evolve(player, secret_tile=secret[i]) if i in others else player
            for i, player in enumerate(state.players)
        )
        new_setup = attrs.evolve(
            setup,
            config=attrs.evolve(setup.config, seed=new_seed),
            deck=drawn + tuple(new_rest),
            secret_tiles=tuple(secret),
        )
        changed.append(attrs.evolve(state, setup=new_setup, players=players))
    return changed


_SEED_BITS = (1 << 63) - 1
"""Every bit a seed of ``new_game`` may have: a seed with them turned over is another seed."""
