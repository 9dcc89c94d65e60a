"""The `harena` command: serve, health, admin, export, import, play, simulate, games."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from harena.core.engine import (
    GameConfigError,
    OptionSpec,
    available_games,
    make_config,
    option_warnings,
)
from harena.core.simulate import parse_bots, simulate
from harena.core.store import default_data_dir
from harena.server.cluster.options import (
    add_cluster_commands,
    add_cluster_options,
    cluster_settings,
)
from harena.server.commands.config import ConfigError, load_config, render_config
from harena.server.commands.notices_cli import add_notice_options, notice_config
from harena.server.commands.operations_cli import add_operations_commands, add_operations_options
from harena.server.common.limits import ServerLimits
from harena.server.common.logs import configure_logging
from harena.server.operations.admin_socket import AdminSocketError
from harena.server.operations.metrics_http import MetricsError, metrics_address
from harena.server.operations.operators import OperatorsError, load_operators
from harena.server.transport.hostkey import HostKeyError
from harena.server.transport.ssh_address import public_address

log = logging.getLogger("harena")


if TYPE_CHECKING:
    from harena.server.service.ssh_server import ServerConfig

    Commands = argparse._SubParsersAction[argparse.ArgumentParser]
    """Where each command adds its parser."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="harena",
        description="Play Carthage and Spartacus with friends over SSH.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_serve_command(commands)
    add_operations_commands(commands)
    add_cluster_commands(commands)
    add_replay_command(commands)
    add_review_command(commands)
    add_play_command(commands)
    add_simulate_command(commands)
    add_games_command(commands)
    return parser


def add_serve_command(commands: Commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the SSH server",
        description="Run the SSH server: players connect with `ssh -p PORT HOST`.",
    )
    add_listen_options(serve)
    limits = ServerLimits()
    add_connection_limits(serve, limits)
    add_input_limits(serve, limits)
    add_bot_options(serve)
    add_operations_options(serve)
    add_metrics_option(serve)
    add_notice_options(serve)
    add_cluster_options(serve)
    serve.set_defaults(run=run_serve, serve_parser=serve, operator_keys=[])


def add_listen_options(serve: argparse.ArgumentParser) -> None:
    """Where the server listens, what it is called, where its keys and tables are kept."""
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=port_number, default=2222, help="port to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--public-address",
        type=public_address,
        default=None,
        metavar="NAME[:PORT]",
        help="the address players type after ssh, as the server prints its commands (default: "
        "the address and port each connection reached)",
    )
    serve.add_argument(
        "--keys",
        type=Path,
        default=Path("keys"),
        help="folder for the host key (default: %(default)s)",
    )
    serve.add_argument(
        "--data",
        type=Path,
        default=None,
        help="folder for saved tables (default: your user data folder)",
    )
    serve.add_argument(
        "--allow",
        type=Path,
        default=None,
        metavar="AUTHORIZED_KEYS",
        help="admit only the keys listed in this authorized_keys file (no guests)",
    )


def add_connection_limits(serve: argparse.ArgumentParser, limits: ServerLimits) -> None:
    serve.add_argument(
        "--login-timeout",
        type=float,
        default=limits.login_timeout,
        metavar="SECONDS",
        help="time to finish SSH login (default: %(default)s)",
    )
    serve.add_argument(
        "--max-per-ip",
        type=int,
        default=limits.max_per_ip,
        metavar="N",
        help="concurrent connections from one address (default: %(default)s)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=limits.max_connections,
        metavar="N",
        help="concurrent connections in all (default: %(default)s)",
    )
    serve.add_argument(
        "--max-startups",
        type=int,
        default=limits.max_startups,
        metavar="N",
        help="connections still logging in, in all (default: %(default)s)",
    )
    serve.add_argument(
        "--max-startups-per-ip",
        type=int,
        default=limits.max_startups_per_ip,
        metavar="N",
        help="connections still logging in from one address; the oldest gives way (default: %(default)s)",
    )
    serve.add_argument(
        "--max-per-key",
        type=int,
        default=limits.max_per_key,
        metavar="N",
        help="concurrent connections of one key (default: %(default)s)",
    )
    serve.add_argument(
        "--max-channels",
        type=int,
        default=limits.max_channels,
        metavar="N",
        help="sessions open on one connection (default: %(default)s)",
    )


def add_input_limits(serve: argparse.ArgumentParser, limits: ServerLimits) -> None:
    serve.add_argument(
        "--input-events",
        type=float,
        default=limits.input_events,
        metavar="N",
        help="sustained input events (keys, clicks) per second per session (default: %(default)s)",
    )
    serve.add_argument(
        "--input-event-burst",
        type=int,
        default=limits.input_event_burst,
        metavar="N",
        help="input events accepted at once (default: %(default)s)",
    )
    serve.add_argument(
        "--loop-share",
        type=float,
        default=limits.loop_share,
        metavar="FRACTION",
        help="share of the server's event loop one session's input may use (default: %(default)s)",
    )
    serve.add_argument(
        "--input-rate",
        type=float,
        default=limits.input_rate,
        metavar="BYTES",
        help="sustained input bytes/s per connection; excess is dropped (default: %(default)s)",
    )
    serve.add_argument(
        "--input-burst",
        type=int,
        default=limits.input_burst,
        metavar="BYTES",
        help="input bytes accepted at once, e.g. a paste (default: %(default)s)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=limits.idle_timeout,
        metavar="SECONDS",
        help="disconnect spectators idle this long (default: %(default)s)",
    )


def add_bot_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="pause before each bot move, so humans can follow (default: %(default)s)",
    )
    serve.add_argument(
        "--bot-seconds",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="a search bot's thinking time per decision (default: %(default)s)",
    )
    serve.add_argument(
        "--bot-workers",
        type=int,
        default=2,
        metavar="N",
        help="processes search bots think in, off the server's loop (default: %(default)s)",
    )
    serve.add_argument(
        "--rate-bot-games",
        action="store_true",
        help="games with bots count for the players' ratings (bots keep fixed ratings)",
    )


def add_metrics_option(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--metrics",
        type=metrics_address,
        default=None,
        metavar="HOST:PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics (default: off; with "
        "--workers, worker N listens on PORT+N-1)",
    )


def add_replay_command(commands: Commands) -> None:
    replay = commands.add_parser(
        "replay",
        help="replay a saved table in this terminal",
        description="Step through a saved table's game: a finished one with everything revealed, "
        "one in play as a spectator sees it. Reads only; works while the server runs.",
    )
    replay.add_argument("table", help="the table's id (as the lobby shows it, without #)")
    replay.add_argument(
        "--data",
        type=Path,
        default=None,
        help="the server's data folder (default: your user data folder)",
    )
    replay.set_defaults(run=run_replay)


def add_review_command(commands: Commands) -> None:
    review = commands.add_parser(
        "review",
        help="print how a saved finished table went",
        description="Print a saved finished table's review: the course of the game drawn as "
        "text, then where it turned for each player (the search bot's estimates). Reads only; "
        "works while the server runs.",
    )
    review.add_argument("table", help="the table's id (as the lobby shows it, without #)")
    review.add_argument(
        "--data",
        type=Path,
        default=None,
        help="the server's data folder (default: your user data folder)",
    )
    review.add_argument(
        "--player", default=None, help="only this player's turning points (default: everyone's)"
    )
    review.set_defaults(run=run_review)


def add_play_command(commands: Commands) -> None:
    play = commands.add_parser(
        "play",
        help="play in this terminal against bots",
        description="Play a game in this terminal, bots in the other seats.",
    )
    play.add_argument("game", help="game name (see `harena games`)")
    play.add_argument(
        "--bots", type=int, default=1, help="number of bot opponents (default: %(default)s)"
    )
    play.add_argument(
        "--players", type=int, default=None, help="seats at the table (default: you plus the bots)"
    )
    play.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="pause before each bot move (default: %(default)s)",
    )
    play.add_argument(
        "--learn",
        action="store_true",
        help="a guided first game: easy bots, and panels that explain each moment as it comes",
    )
    play.add_argument(
        "--data",
        type=Path,
        default=None,
        help="the log goes to DATA/logs/terminal.log while the game is on screen "
        "(default: your user data folder)",
    )
    play.set_defaults(run=run_play)


def add_simulate_command(commands: Commands) -> None:
    sim = commands.add_parser(
        "simulate",
        help="bots play complete games headless",
        description="Bots play complete games headless; prints games/s, game length and winners.",
    )
    sim.add_argument("game", help="game name (see `harena games`)")
    sim.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    sim.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game (default: the fewest the game takes with these options)",
    )
    sim.add_argument(
        "--seed", type=int, default=1, help="seed of the run; the same seed plays the same games"
    )
    sim.add_argument(
        "--bots", default="random", help="bot kind for all seats, or one per seat: heuristic,random"
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    sim.set_defaults(run=run_simulate)


def add_games_command(commands: Commands) -> None:
    games = commands.add_parser(
        "games", help="list the games", description="List the games this server can host."
    )
    games.set_defaults(run=run_games)


def port_number(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def run_games(args: argparse.Namespace) -> int:
    infos = available_games()
    if not infos:
        print("No games are installed yet.")
        return 0
    print(f"{'NAME':<12} {'TITLE':<40} {'PLAYERS':<8} {'BOTS':<18} OPTIONS")
    for info in infos:
        players = f"{info.min_players}-{info.max_players}"
        options = "; ".join(_option_text(o) for o in info.options)
        print(
            f"{info.name:<12} {info.title:<40} {players:<8} {','.join(info.bots):<18} {options or '-'}"
        )
    return 0


def _option_text(option: OptionSpec) -> str:
    """`name=a|b (default a)`; a multi-select option lists every name it may combine."""
    if option.multi:
        return f"{option.name}=any of {','.join(option.choices)} (comma-separated; default {option.default or 'none'})"
    return f"{option.name}={'|'.join(option.choices)} (default {option.default})"


def run_simulate(args: argparse.Namespace) -> int:
    from harena.core.engine import default_players, game_class

    cls = game_class(args.game)
    if args.games < 1:
        raise GameConfigError("--games must be at least 1")
    options = dict(_parse_option(o) for o in args.option)
    players = args.players or default_players(args.game, options)
    report = simulate(
        args.game, args.games, players, args.seed, parse_bots(args.bots, players), options
    )
    if args.json:
        print(json.dumps(report.to_json()))
        return 1 if report.errors else 0
    done = report.games - len(report.errors)
    print(
        f"{cls.title}: {report.games} games, {players} players, seed {args.seed}, bots {','.join(report.bots)}"
    )
    if report.options:
        # an empty multi-select option (no rulesets) is left out: "rulesets=" reads as a typo
        print("  options: " + ", ".join(f"{k}={v}" for k, v in sorted(report.options.items()) if v))
    for warning in option_warnings(make_config(args.game, players, args.seed, report.options)):
        print(f"  warning: {warning}")
    print(f"  {report.games_per_s:.1f} games/s, median {report.median_ms_per_game:.2f} ms per game")
    print(
        f"  {report.mean_rounds:.1f} rounds and {report.mean_decisions:.0f} decisions per game on average"
    )
    wins = ", ".join(
        f"seat {seat} ({kind}) {n} ({100 * n / done:.0f}%)" if done else f"seat {seat} 0"
        for seat, (kind, n) in enumerate(zip(report.bots, report.wins_by_seat, strict=False))
    )
    print(f"  wins: {wins}")
    if report.label_kind is not None:
        labels = ", ".join(f"{label} {n}" for label, n in report.wins_by_label.items())
        print(f"  wins by {report.label_kind}: {labels or 'none'}")
    for kind, counts in report.stats_by_bot.items():
        print(
            f"  {kind} bots: " + ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in counts.items())
        )
    print(f"  errors: {len(report.errors)}")
    for line in report.errors[:10]:
        print(f"    {line}")
    return 1 if report.errors else 0


def _parse_option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise GameConfigError(f"--option takes NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def run_serve(args: argparse.Namespace) -> int:
    import asyncio

    from harena.server.service.ssh_server import serve_forever

    args.data = args.data or default_data_dir()
    if args.print_config:
        print(render_config(args, args.serve_parser), end="")
        return 0
    if args.workers > 1:
        from harena.server.cluster.workers import run_workers

        return run_workers(args, args.argv)
    configure_logging(args.verbose, args.log_format)
    if args.allow is not None:
        problem = allow_file_problem(args.allow)
        if problem:
            print(f"harena: --allow {args.allow}: {problem}", file=sys.stderr)
            return 2
    config = server_config(args)
    if config.cluster is not None:
        print(f"harena: node {config.cluster.node} of the cluster at {args.cluster}", flush=True)
    else:
        print(f"harena: saving tables under {config.data_dir}", flush=True)
    try:
        asyncio.run(serve_forever(config))
    except (AdminSocketError, OperatorsError, HostKeyError, MetricsError) as exc:
        print(f"harena: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            f"harena: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return 1
    return 0


def server_config(args: argparse.Namespace) -> ServerConfig:
    """What `harena serve`'s options (and config file) ask of the server."""
    from harena.server.service.ssh_server import ServerConfig

    # Every option named like a ServerLimits field is that limit: a new limit needs no line here.
    limits = ServerLimits(
        **{f.name: getattr(args, f.name) for f in fields(ServerLimits) if hasattr(args, f.name)}
    )
    return ServerConfig(
        host=args.host,
        port=args.port,
        keys_dir=args.keys,
        data_dir=args.data,
        allow_file=args.allow,
        limits=limits,
        bot_delay=args.bot_delay,
        bot_seconds=args.bot_seconds,
        bot_workers=args.bot_workers,
        operators=load_operators(args.operators, args.operator_keys),
        archive_after=args.archive_after * 86400,
        rate_bot_games=args.rate_bot_games,
        notices=notice_config(args),
        cluster=cluster_settings(args),
        reuse_port=args.reuse_port,
        public_address=args.public_address,
        metrics=args.metrics,
    )


def allow_file_problem(path: Path) -> str:
    """What is wrong with an `--allow` file, or "" (checked before the server starts, so that
    the message names the file, not the listen address)."""
    import asyncssh

    try:
        text = path.read_text()
    except OSError as exc:
        return exc.strerror or str(exc)
    except UnicodeDecodeError:
        return "not a text file"
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        return "no keys in it (an empty list would admit nobody)"
    try:
        asyncssh.import_authorized_keys(text)
    except (ValueError, asyncssh.KeyImportError) as exc:
        return f"not an authorized_keys file ({exc})"
    return ""


def run_replay(args: argparse.Namespace) -> int:
    from harena.server.commands.local_replay import ReplayError, replay_locally

    try:
        return replay_locally(args.table, args.data or default_data_dir())
    except ReplayError as exc:
        print(f"harena: {exc}", file=sys.stderr)
        return 1


def run_review(args: argparse.Namespace) -> int:
    from harena.server.commands.local_replay import ReplayError
    from harena.server.commands.local_review import review_locally

    try:
        return review_locally(args.table, args.data or default_data_dir(), args.player)
    except ReplayError as exc:
        print(f"harena: {exc}", file=sys.stderr)
        return 1


def run_play(args: argparse.Namespace) -> int:
    from harena.server.commands.local_play import play_locally

    return play_locally(
        args.game,
        bots=args.bots,
        players=args.players,
        bot_delay=args.bot_delay,
        learn=args.learn,
        data=args.data or default_data_dir(),
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, over `serve --config FILE` when one is given (the command line wins)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve" and args.config is not None:
        args.serve_parser.set_defaults(**load_config(args.config, args.serve_parser))
        args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # (`serve --workers` passes it on)
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
    except ConfigError as exc:
        print(f"harena: {exc}", file=sys.stderr)
        return 2
    configure_logging(args.verbose, "text")
    try:
        status: int = args.run(args)
        return status
    except (GameConfigError, ConfigError, OperatorsError) as exc:
        print(f"harena: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `harena games | head`: the reader left; what is still buffered goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a command ended by SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
