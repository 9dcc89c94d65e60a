"""The commands an operator runs on the host: `harena health`, `admin`, `export`, `import`,
and the serve options that belong to running a server for real (config, operators, logs,
archiving)."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from harena.core.store import Store, StoreError, default_data_dir
from harena.core.transfer import TransferError, export_table, import_table
from harena.server.cluster.options import add_nats_options
from harena.server.operations.admin_socket import (
    SOCKET_NAME,
    AdminSocketError,
    running,
    send,
    socket_path,
)

EXPORT_SUFFIX = ".harena"


def add_operations_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="read these options from a TOML file; the command line wins",
    )
    serve.add_argument(
        "--print-config",
        action="store_true",
        help="print the effective settings as a config file and exit",
    )
    serve.add_argument(
        "--operators",
        type=Path,
        default=None,
        metavar="AUTHORIZED_KEYS",
        help="keys in this authorized_keys file may run the server from the lobby (key o)",
    )
    serve.add_argument(
        "--log-format",
        choices=["text", "json"],
        default="text",
        help="log lines as text or one JSON object each (default: %(default)s)",
    )
    serve.add_argument(
        "--archive-after",
        type=non_negative,
        default=30.0,
        metavar="DAYS",
        help="archive tables nobody touched this long; 0 never (default: %(default)s)",
    )


def non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value:g}")
    return value


def add_operations_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    health = commands.add_parser(
        "health",
        help="check that a server answers (for container health checks)",
        description="Connect to a harena server and wait for its SSH banner; exit 0 if it answers.",
    )
    health.add_argument("--host", default="127.0.0.1", help="server address (default: %(default)s)")
    health.add_argument("--port", type=int, default=2222, help="server port (default: %(default)s)")
    health.add_argument(
        "--timeout", type=float, default=5.0, metavar="SECONDS", help="(default: %(default)s)"
    )
    health.set_defaults(run=run_health)

    admin = commands.add_parser(
        "admin",
        help="run the server from the host: tables, sessions, delete, ban, ...",
        description="Run an operator command on the running server through its admin socket "
        "(DATA/admin.sock). `harena admin help` lists the commands.",
    )
    _data_option(admin)
    admin.add_argument(
        "words", nargs=argparse.REMAINDER, metavar="COMMAND ...", help="e.g. tables, ban ann"
    )
    admin.set_defaults(run=run_admin)

    export = commands.add_parser(
        "export",
        help="write a table's log and snapshot to a file",
        description="Write a table (live or archived) to a file another server can `harena import`.",
    )
    _data_option(export)
    export.add_argument("table", help="the table's id")
    export.add_argument(
        "-o", "--output", type=Path, default=None, help="file to write (default: table-ID.harena)"
    )
    add_nats_options(export)  # --cluster: the table is in a cluster (docs/cluster.md)
    export.set_defaults(run=run_export)

    imp = commands.add_parser(
        "import",
        help="load a table exported by harena export",
        description="Load an exported table under a new id (through the running server, if any).",
    )
    _data_option(imp)
    imp.add_argument("file", type=Path, help="a file written by harena export")
    add_nats_options(imp)
    imp.set_defaults(run=run_import)


def _data_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="the server's data folder (default: your user data folder)",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="take --data from this config file",
    )


def data_dir(args: argparse.Namespace) -> Path:
    """--data, else the config file's `data`, else the default data folder."""
    if args.data is not None:
        return Path(args.data)
    if args.config is not None:
        from harena.server.commands.cli import build_parser
        from harena.server.commands.config import load_config

        serve = build_parser().parse_args(["serve"]).serve_parser
        data = load_config(args.config, serve).get("data")
        if data is not None:
            return Path(data)
    return default_data_dir()


def run_health(args: argparse.Namespace) -> int:
    """An SSH server speaks first: a line starting SSH-2.0- within the timeout is healthy."""
    try:
        with socket.create_connection((args.host, args.port), timeout=args.timeout) as sock:
            sock.settimeout(args.timeout)
            banner = sock.recv(256)
    except OSError as exc:
        print(f"harena: unhealthy: {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if not banner.startswith(b"SSH-2.0-"):
        print(f"harena: unhealthy: {args.host}:{args.port} sent no SSH banner", file=sys.stderr)
        return 1
    print(f"harena: healthy: {banner.decode(errors='replace').strip()}")
    return 0


PER_WORKER = {"sessions", "kick"}
"""Admin commands whose answer is one process's own: with `--workers`, every worker is asked.
The others act on what the workers share (tables, bans, the notice, the cluster)."""


def run_admin(args: argparse.Namespace) -> int:
    argv = args.words or ["help"]
    data = data_dir(args)
    workers = [] if running(socket_path(data)) else worker_sockets(data)
    try:
        if not workers:
            ok, text = send(socket_path(data), argv)
        elif argv[0] in PER_WORKER:
            answers = [(path.parent.name, *send(path, argv)) for path in workers]
            ok = all(done for _, done, _ in answers)
            text = "\n".join(f"[{node}]\n{said}" for node, _, said in answers)
        else:
            ok, text = send(workers[0], argv)
    except AdminSocketError as exc:
        print(f"harena: {exc}", file=sys.stderr)
        return 1
    print(text, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def worker_sockets(data: Path) -> list[Path]:
    """The admin sockets of the workers `harena serve --workers N --data DIR` runs (each has
    its folder, `DIR/workers/<node>`) that answer now, by node name."""
    return [path for path in sorted((data / "workers").glob(f"*/{SOCKET_NAME}")) if running(path)]


def run_export(args: argparse.Namespace) -> int:
    output = args.output or Path(f"table-{args.table}{EXPORT_SUFFIX}")
    if args.cluster:
        from harena.server.cluster.transfer import run_cluster_export

        return run_cluster_export(args, output)
    try:
        blob = export_table(Store(data_dir(args)), args.table)
        output.write_bytes(blob)
    except (StoreError, TransferError, OSError) as exc:
        print(f"harena: cannot export table {args.table}: {exc}", file=sys.stderr)
        return 1
    print(f"harena: table {args.table} written to {output} ({len(blob)} bytes)")
    return 0


def run_import(args: argparse.Namespace) -> int:
    data = data_dir(args)
    try:
        blob = args.file.read_bytes()
    except OSError as exc:
        print(f"harena: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if args.cluster:
        from harena.server.cluster.transfer import run_cluster_import_file

        return run_cluster_import_file(args, blob)
    path = socket_path(data)
    if running(path):  # the server owns the data folder while it runs: it imports
        ok, text = send(path, ["import", str(args.file)], blob)
        print(f"harena: {text}", file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    try:
        table = import_table(Store(data), blob)
    except (StoreError, TransferError) as exc:
        print(f"harena: cannot import {args.file}: {exc}", file=sys.stderr)
        return 1
    table.close()
    print(f"harena: imported as table {table.id} ({table.game.title}, {table.status}) under {data}")
    return 0
