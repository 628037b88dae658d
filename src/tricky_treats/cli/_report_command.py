"""``tricky-treats report``: the command line's side of balance reports."""

from __future__ import annotations

import argparse
import os
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from tricky_treats._extras import install_hint
from tricky_treats._progress import Progress
from tricky_treats.report import ReportError, Sample, play_results, read_results, write_report
from tricky_treats.simulation import game_seed

if TYPE_CHECKING:
    from rich.console import Console

_KEYS = ("label", "players", "bot", "agents", "variants", "games", "seed", "file")

_CONFIG_HELP = (
    "a sample of games, as space-separated KEY=VALUE (quote a value with spaces): "
    "label=TEXT, players=N, bot=BOT, "
    "agents=BOT,BOT,... (one per seat; overrides players and bot), variants=NAME,NAME,..., "
    "games=N, seed=N, or file=PATH to read a simulate --output file instead of playing; "
    "keys left out take the values of the options below. Repeat for several samples; "
    "the first is the baseline"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``report`` subcommand's arguments."""
    parser.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="games written by 'simulate --output' (.jsonl or .csv), one sample per file, "
        "labelled by its name; they come before the --config samples",
    )
    parser.add_argument("--config", action="append", default=[], metavar="SPEC", help=_CONFIG_HELP)
    parser.add_argument("--players", type=int, default=3, help="2 to 4 players (3)")
    parser.add_argument("--bot", default="greedy", help="the bot in every seat (greedy)")
    parser.add_argument("--games", type=int, default=200, help="games per sample (200)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from SEED + i (0)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (all CPU cores)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=Path("report.html"), help="report.html"
    )
    parser.add_argument("--title", default="Tricky Treats balance report", help="the page title")


@attrs.frozen
class Config:
    """One sample to play or read, as the command line describes it."""

    label: str
    agents: tuple[str, ...]
    variants: tuple[str, ...]
    games: int
    seed: int
    file: Path | None = None


def parse_config(spec: str, args: argparse.Namespace) -> Config:
    """A ``--config`` SPEC, its missing keys taken from the command's options."""
    values: dict[str, str] = {}
    try:
        items = shlex.split(spec)  # so that label='Base game' keeps its space
    except ValueError as exc:
        raise ReportError(f"--config {spec!r}: {exc}") from None
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not value:
            raise ReportError(f"--config {spec!r}: write each setting as KEY=VALUE, got {item!r}")
        if key not in _KEYS:
            raise ReportError(
                f"--config {spec!r}: no setting {key!r}; choose from {', '.join(_KEYS)}"
            )
        if key in values:
            raise ReportError(f"--config {spec!r}: {key} is given twice")
        values[key] = value
    if "file" in values:
        others = sorted(set(values) - {"file", "label"})
        if others:
            raise ReportError(
                f"--config {spec!r}: a sample read from a file takes only label=, not "
                f"{', '.join(others)}"
            )
        path = Path(values["file"])
        return Config(values.get("label", path.stem), (), (), 0, 0, path)
    players = _whole(values.get("players"), args.players, "players", spec)
    bot = values.get("bot", args.bot)
    if "agents" in values:
        if "players" in values or "bot" in values:
            raise ReportError(f"--config {spec!r}: give agents= or players= and bot=, not both")
        agents = tuple(a for a in values["agents"].split(",") if a)
    else:
        agents = (bot,) * players
    variants = tuple(v for v in values.get("variants", "").split(",") if v)
    label = values.get("label") or (" + ".join(variants) if variants else "Base game")
    return Config(
        label=label,
        agents=agents,
        variants=variants,
        games=_whole(values.get("games"), args.games, "games", spec),
        seed=_whole(values.get("seed"), args.seed, "seed", spec, minimum=None),
    )


def _whole(text: str | None, default: int, key: str, spec: str, minimum: int | None = 1) -> int:
    if text is None:
        value = default
    else:
        try:
            value = int(text)
        except ValueError:
            raise ReportError(
                f"--config {spec!r}: {key} must be a whole number, got {text!r}"
            ) from None
    if minimum is not None and value < minimum:
        raise ReportError(f"{key} must be at least {minimum}, got {value}")
    return value


def configs(args: argparse.Namespace) -> list[Config]:
    """Every sample the command asks for, in order: the files, then the ``--config`` ones."""
    found = [Config(path.stem, (), (), 0, 0, path) for path in args.files]
    found += [parse_config(spec, args) for spec in args.config]
    if not found:
        found = [parse_config("", args)]
    labels = [c.label for c in found]
    doubles = sorted({label for label in labels if labels.count(label) > 1})
    if doubles:
        raise ReportError(
            f"two samples are labelled {', '.join(map(repr, doubles))}; give each its own "
            "label= in --config"
        )
    return found


def _describe(config: Config) -> str:
    variants = ", ".join(config.variants) or "none"
    last = game_seed(config.seed, config.games - 1)  # the seeds wrap round at 2**128
    return f"played here: variants {variants}; seeds {config.seed} to {last}"


def run(args: argparse.Namespace, console: Console) -> int:
    """Play or read every sample, then write the report."""
    if args.jobs < 1:
        raise ReportError("--jobs must be at least 1")
    wanted = configs(args)
    try:  # before playing any game, not after
        import matplotlib  # noqa: F401
    except ImportError:
        raise ReportError(f"the report's plots need matplotlib: {install_hint('report')}") from None
    start = time.perf_counter()
    samples: list[Sample] = []
    for config in wanted:
        began = time.perf_counter()
        if config.file is not None:
            results = read_results(config.file)
            seeds = [r.seed for r in results]
            description = f"read from {config.file.name}; seeds {min(seeds)} to {max(seeds)}"
        else:
            with Progress(config.games, f"Playing {config.label}") as progress:
                results = play_results(
                    config.agents,
                    variants=config.variants,
                    games=config.games,
                    seed=config.seed,
                    jobs=args.jobs,
                    on_game=progress.advance,
                )
            description = _describe(config)
        samples.append(Sample(config.label, results, description))
        console.print(
            f"{config.label}: {len(results)} games, {description} "
            f"({time.perf_counter() - began:.1f} s)"
        )
    path = write_report(samples, args.output, args.title)
    total = sum(len(s.results) for s in samples)
    console.print(
        f"Wrote {path} ({len(samples)} sample{'s' if len(samples) != 1 else ''}, {total} games, "
        f"{time.perf_counter() - start:.1f} s)."
    )
    return 0
