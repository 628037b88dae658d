"""``run_console``: the ``play`` and ``simulate`` commands of any ``TurnBasedGame``."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import attrs

from tricky_treats.errors import ConfigurationError
from tricky_treats.protocol.game import Agent, InformationSet, TurnBasedGame
from tricky_treats.protocol.matches import play_match, simulate
from tricky_treats.protocol.players import TerminalPlayer, make_player

__all__ = ["run_console"]


def run_console(
    prog: str,
    new_game: Callable[..., TurnBasedGame],
    render: Callable[[Any], str],
    argv: Sequence[str] | None = None,
    players: tuple[int, int] = (2, 2),
    describe: Callable[[Any, Hashable, int], str] | None = None,
    rollout_policy: Callable[[Any, random.Random], Hashable] | None = None,
    *,
    help_text: str = "",
    outcome: Callable[[Any, int], str] | None = None,
    game_options: Mapping[str, Mapping[str, Any]] | None = None,
    action_filter: Callable[[Any], Sequence[Hashable]] | None = None,
    playout_cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None,
    make_bot: Callable[[str], Agent] | None = None,
    languages: Sequence[str] = ("en",),
    translate: Callable[[str], str] | None = None,
    spell: Callable[[Any], str] = str,
    parse: Callable[[str], Hashable | None] | None = None,
    refusal: Callable[[InformationSet, Any], str] | None = None,
) -> int:
    """A small command line for a game on this protocol: ``play`` against bots, ``simulate``.

    ``new_game(players, seed, **options)`` builds a game, ``options`` being the values of
    ``game_options`` (option name to ``argparse`` arguments, e.g. ``{"specials": {"type":
    int, "default": 0}}`` for ``--specials``), offered by both commands. ``play`` seats a
    ``TerminalPlayer`` (unless ``--watch``) and bots; ``simulate`` plays many seeded games and
    prints the summary. ``describe(state, action, seat)`` writes an action as ``seat`` may
    learn of it (default: ``str(action)``); the person at the terminal sees actions only that
    way. ``outcome(final_state, seat)`` explains the end of the game to ``seat`` (default: the
    winners). ``help_text`` explains the game: the commands' description and what ``help``
    prints while playing. Search bots play their playouts with ``rollout_policy``, consider
    the actions of ``action_filter`` and stop playouts at ``playout_cutoff``, when given.
    ``make_bot(name)`` gives a game's own bots by name (``greedy`` and a search of its own)
    instead of ``make_player``'s; it raises ``ValueError`` (the game's ``ConfigurationError``)
    for a name it does not know.
    ``languages`` are those the game's texts come in: ``play --lang`` (else the locale) picks
    one, and ``render``, ``describe`` and ``outcome`` run speaking it
    (``tricky_treats.i18n.language()``); ``translate`` gives ``help_text`` in it.
    ``spell``, ``parse`` and ``refusal`` are the ``TerminalPlayer``'s: the actions in the
    player's words (in the list and in the news of each move, where ``describe`` is not
    used), read back in either language, and the reason an action typed is refused.
    """
    names = "random, greedy, search or search:N" if make_bot else "random, search or search:N"
    parser = argparse.ArgumentParser(prog=prog, description=help_text or None)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play against bots in the terminal", description=help_text)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--players", type=int, default=players[0])
    play.add_argument("--seat", type=int, default=0, help="your seat")
    play.add_argument("--bot", default="search:200", help=names)
    play.add_argument("--watch", action="store_true", help="bots only, printing each action")
    play.add_argument(
        "--lang",
        metavar="LANGUAGE",
        help=f"the language of the game's texts: {', '.join(languages)} (default: the locale's, "
        "else en)",
    )
    seats = f"{players[0]}" if players[0] == players[1] else f"{players[0]} to {players[1]}"
    sim = sub.add_parser(
        "simulate",
        help="play many seeded games between bots",
        description="Play many seeded games between bots and print each seat's share of wins. "
        "Game i is dealt and played from seed SEED+i, so the same options give the same "
        "results. A search bot thinks at every move, so its games take far longer than "
        "random bots' games: try a few games first; the progress shows the time left.",
    )
    sim.add_argument("--games", type=int, default=100, metavar="N", help="how many games (100)")
    sim.add_argument(
        "--seed", type=int, default=0, help="the seed of game 0; game i uses SEED+i (0)"
    )
    sim.add_argument(
        "--players",
        type=int,
        default=players[0],
        metavar="N",
        help=f"how many seats, {seats} (default {players[0]})",
    )
    sim.add_argument(
        "--bots",
        default="random",
        metavar="BOTS",
        help=f"comma-separated, one per seat, or one bot for every seat: {names}; "
        "search plays 200 iterations; default: random in every seat",
    )
    sim.add_argument(
        "--quiet",
        action="store_true",
        help="no progress (by default a bar with the time left on a terminal, else a line "
        "at every tenth of the games, on standard error)",
    )
    options = dict(game_options or {})
    for name, spec in options.items():
        for command in (play, sim):
            command.add_argument(f"--{name.replace('_', '-')}", dest=name, **spec)
    args = parser.parse_args(argv)
    if not players[0] <= args.players <= players[1]:
        parser.error(f"--players must be from {players[0]} to {players[1]}")
    chosen = {name: getattr(args, name) for name in options}

    def bot(spec: str) -> Agent:
        if make_bot is not None:
            return make_bot(spec)
        return make_player(spec, rollout_policy, action_filter, playout_cutoff)

    def start(seed: int) -> TurnBasedGame:
        return new_game(args.players, seed, **chosen)

    try:
        start(args.seed)
    except ValueError as error:  # the game's ConfigurationError for a bad option
        parser.error(str(error))
    if args.command == "simulate":
        specs = args.bots.split(",")
        specs = specs * args.players if len(specs) == 1 else specs
        if len(specs) != args.players:
            parser.error(f"give one bot or {args.players} bots")
        if args.games < 0:
            parser.error("--games must be 0 or more")
        try:
            agents = [bot(spec) for spec in specs]
        except ValueError as error:
            parser.error(str(error))
        from tricky_treats._progress import Progress

        with Progress(args.games, f"Playing {', '.join(specs)}", quiet=args.quiet) as progress:
            summary = simulate(start, agents, args.games, args.seed, on_game=progress.advance)
        print(summary)
        return 0
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat must be from 0 to {args.players - 1}")
    try:
        chosen_bot = bot(args.bot)
    except ValueError as error:
        parser.error(str(error))
    from tricky_treats import i18n

    try:
        language = (
            i18n.from_environment(shipped=languages)
            if args.lang is None
            else i18n.check_language(args.lang, languages)
        )
    except ConfigurationError as error:
        parser.error(str(error))
    with i18n.speaking(language, languages):
        terminal = TerminalPlayer(render=render, spell=spell, parse=parse, refusal=refusal)
        return _play(args, start, terminal, describe, outcome, help_text, translate, chosen_bot)


def _play(
    args: argparse.Namespace,
    start: Callable[[int], TurnBasedGame],
    terminal: TerminalPlayer,
    describe: Callable[[Any, Hashable, int], str] | None,
    outcome: Callable[[Any, int], str] | None,
    help_text: str,
    translate: Callable[[str], str] | None,
    bot: Agent,
) -> int:
    """``play``: the person at the terminal against bots, in the chosen language."""
    from tricky_treats.i18n import _

    seated: list[Agent] = [bot] * args.players
    if not args.watch:
        shown_help = translate(help_text) if translate is not None and help_text else help_text
        seated[args.seat] = attrs.evolve(terminal, help=shown_help)

    def show(state: TurnBasedGame, action: Hashable) -> None:
        if describe is None or args.watch:
            told = terminal.spell(action)
        else:
            told = describe(state, action, args.seat)
        print(_("player {number}: {told}").format(number=state.current_player, told=told))

    try:
        final = play_match(start(args.seed), seated, args.seed, on_action=show)
    except (EOFError, KeyboardInterrupt):
        print("\n" + _("game abandoned"))
        return 1
    print(terminal.render(final.view(args.seat)))
    if outcome is not None:
        print(outcome(final, args.seat))
        return 0
    shares = final.returns()
    winners = ", ".join(
        _("player {number}").format(number=p) for p, r in enumerate(shares) if r > 0
    )
    print(_("winners: {players}").format(players=winners))
    return 0
