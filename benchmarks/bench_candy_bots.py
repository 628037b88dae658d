"""The candy games' search bots against greedy bots and hiders: shares of the wins, with intervals.

Run with ``python benchmarks/bench_candy_bots.py`` after installing the packages under
``examples/``; it prints figures and asserts nothing. For each game it plays ``--games`` games
of the search bot against one kind of rival in every other seat (Tricks & Treats: 3 players;
Candy Chaser: 4; Hack Trick: 2), the bot's seat going round (game ``i`` is dealt and played
from seed ``SEED + i``, the bot in seat ``i % players``). The rivals of the hidden-role games
are each game's ``greedy`` bot, which plays openly for its own basket or candy, and its
``hider``, which plays for a decoy and never for its own, so that a bot that takes a player's
favourite for theirs accuses wrongly (Hack Trick hides nothing: greedy only). Each line gives
the bot's share of the wins (a shared win counts its share) beside the fair share
``1 / players``, the 95% Wilson interval of that share, the games it was out of, its
accusations and how many were wrong (in Candy Chaser also how many of those cost a win:
passing would have won, the rivals all passing), and the CPU time.

The bots are each game's ``make_bot`` names: ``search:N`` is the bot under test; the previous
search bots stay for the comparison (``--previous N``: N games each): ``informed:N`` in
Tricks & Treats (it accuses only when sure), ``blind:N`` in Candy Chaser (it searches every
accusation with random playouts) and ``full:N`` in Hack Trick (playouts to the end of the
match). ``--against`` names other rivals (``PREVIOUS``: each game's previous search bot), and
``--habits OWN,DECOY`` sets the chances the sleuths give a player of playing for their own
basket or candy and for a decoy (``feeders``/``pushers`` and ``hiders``), to measure that
choice. Every run is bounded by ``--games`` and by ``--budget`` CPU seconds a line (the
line then says how many games it played); the defaults take about forty CPU minutes.
``--quick`` plays two games a line with small searches, in seconds: a smoke test for CI.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any

import attrs
import candy_chaser
import hack_trick
import tricks_and_treats as tnt

from tricky_treats.protocol import Agent, TurnBasedGame, play_match
from tricky_treats.report.stats import wilson_interval


def _costly_candy_accusation(state: Any, action: Hashable) -> bool:
    """Whether a wrong Candy Chaser accusation gave up a win: passing would have won.

    The rivals measured here all pass, so the survivors would have been the living now.
    """
    if not isinstance(action, candy_chaser.Accuse):
        return False
    if state.objectives[action.target] == action.candy:
        return False
    living = [state.price(state.objectives[q]) for q in range(state.num_players) if state.alive[q]]
    return bool(state.price(state.objectives[state.current_player]) == max(living))


@attrs.frozen
class Game:
    """How the benchmark plays one candy game."""

    new_game: Callable[[int], TurnBasedGame]
    make_bot: Callable[[str], Agent]
    previous: str
    """The make_bot name of the previous search bot."""
    iterations: int
    """The search iterations measured unless ``--iterations`` says otherwise."""
    rivals: tuple[str, ...]
    habits: tuple[str, str] | None = None
    """The sleuth's fields for the chances of playing for one's own secret and for a decoy."""
    costly: Callable[[Any, Hashable], bool] | None = None
    """Whether an action of the bot was a wrong accusation that cost it a win."""


GAMES: dict[str, Game] = {
    "tricks-and-treats": Game(
        lambda seed: tnt.new_game(3, seed),
        tnt.make_bot,
        "informed",
        200,
        ("greedy", "hider"),
        ("feeders", "hiders"),
    ),
    "candy-chaser": Game(
        lambda seed: candy_chaser.new_game(4, seed),
        candy_chaser.make_bot,
        "blind",
        200,
        ("greedy", "hider"),
        ("pushers", "hiders"),
        _costly_candy_accusation,
    ),
    "hack-trick": Game(
        lambda seed: hack_trick.new_match(seed=seed),
        hack_trick.make_bot,
        "full",
        50,
        ("greedy",),
    ),
}
"""The games, by name."""


@attrs.frozen
class Duel:
    """What one line of the benchmark measured."""

    bot: str
    against: str
    games: int
    players: int
    wins: float
    out: int
    """Games in which the bot was eliminated."""
    accusations: int
    wrong: int
    costly: int | None
    """Wrong accusations that cost a win, where the benchmark can tell (else None)."""
    seconds: float
    budget_hit: bool

    def __str__(self) -> str:
        share = wilson_interval(self.wins, self.games)
        fair = 1 / self.players
        verdict = "above" if share.low > fair else "below" if share.high < fair else "not above"
        line = (
            f"  {self.bot} vs {self.against}: won {self.wins:g} of {self.games} "
            f"({share.estimate:.1%}, 95% interval {share.low:.1%} to {share.high:.1%}; "
            f"fair share {fair:.1%}: {verdict})"
        )
        if self.accusations or self.out:
            cost = "" if self.costly is None else f", {self.costly} of them costing a win"
            line += (
                f", out in {self.out}, {self.accusations} accusation"
                f"{'' if self.accusations == 1 else 's'} ({self.wrong} wrong{cost})"
            )
        stopped = f", stopped at the CPU budget after {self.games} games" if self.budget_hit else ""
        return f"{line}, {self.seconds:.0f} CPU s{stopped}"


def duel(
    game: Game,
    bot: Callable[[], Agent],
    name: str,
    games: int,
    seed: int,
    against: str,
    budget: float = float("inf"),
) -> Duel:
    """``bot`` against ``against`` bots in every other seat, its seat going round."""
    start = time.process_time()
    wins, out, accusations, wrong, costly, played, seats = 0.0, 0, 0, 0, 0, 0, 0
    for i in range(games):
        if time.process_time() - start > budget:
            break
        state = game.new_game(seed + i)
        seats = state.num_players
        me = i % seats
        agents = [game.make_bot(against) for _ in range(seats)]
        agents[me] = bot()

        def count(state: Any, action: Hashable, me: int = me) -> None:
            nonlocal costly
            if game.costly is not None and state.current_player == me:
                costly += game.costly(state, action)

        final: Any = play_match(state, agents, seed + i, on_action=count)
        played += 1
        wins += final.returns()[me]
        out += not getattr(final, "alive", [True] * seats)[me]
        mine = [a for a in getattr(final, "accusations", ()) if a.accuser == me]
        accusations += len(mine)
        wrong += sum(not a.correct for a in mine)
    return Duel(
        name,
        against,
        played,
        seats,
        wins,
        out,
        accusations,
        wrong,
        costly if game.costly is not None else None,
        time.process_time() - start,
        played < games,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games a line (200)")
    parser.add_argument("--seed", type=int, default=10_000, help="the seed of game 0 (10000)")
    parser.add_argument("--iterations", type=int, help="search iterations (default: per game)")
    parser.add_argument("--only", help="one game, by the start of its name")
    parser.add_argument(
        "--previous", type=int, default=0, metavar="N", help="also N games of the previous bot"
    )
    parser.add_argument(
        "--against",
        help="the rivals, by name, separated by commas (default: greedy and, in the "
        "hidden-role games, hider); PREVIOUS names each game's previous search",
    )
    parser.add_argument(
        "--habits",
        metavar="OWN,DECOY",
        help="the sleuths' chances that a player plays for their own secret and for a decoy",
    )
    parser.add_argument(
        "--budget", type=float, default=float("inf"), help="CPU seconds a line at most"
    )
    parser.add_argument(
        "--quick", action="store_true", help="two games a line, small searches (a smoke test)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.iterations = 2, args.iterations or 8
    habits = None
    if args.habits:
        own, decoy = (float(x) for x in args.habits.split(","))
        habits = (own, decoy)
    for name, game in GAMES.items():
        if args.only and not name.startswith(args.only):
            continue
        n = args.iterations or game.iterations
        spec = f"search:{n}"

        def bot(spec: str = spec, game: Game = game) -> Agent:
            agent = game.make_bot(spec)
            if habits is not None and game.habits is not None:
                own_field, decoy_field = game.habits
                agent = attrs.evolve(agent, **{own_field: habits[0], decoy_field: habits[1]})  # type: ignore[misc]
            return agent

        label = spec if habits is None or game.habits is None else f"{spec} {habits}"
        rivals = args.against.split(",") if args.against else list(game.rivals)
        rivals = [f"{game.previous}:{n}" if r == "PREVIOUS" else r for r in rivals]
        print(
            f"{name} ({game.new_game(0).num_players} players), seeds from {args.seed}:", flush=True
        )
        for rival in rivals:
            print(duel(game, bot, label, args.games, args.seed, rival, args.budget), flush=True)
            if args.previous:
                previous = f"{game.previous}:{n}"
                old = partial(game.make_bot, previous)
                print(
                    duel(game, old, previous, args.previous, args.seed, rival, args.budget),
                    flush=True,
                )


if __name__ == "__main__":
    main()
