"""The server's rooms import only downward: a room may import the rooms below it, never one above.

Read from the source (every import, at the top of a module, inside a function or under
TYPE_CHECKING), so a picture of the imports shows the server as these rooms, from `commands` at
the top to `common` at the bottom, with no cycle between them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import harena.server

SERVER = Path(harena.server.__file__).parent

ROOMS = [
    "commands",  # the `harena` command line
    "service",  # HarenaServer, its SSH sessions and its backend
    "cluster",  # nodes sharing tables through NATS
    "operations",  # admin commands, the admin socket, operators and bans
    "notices",  # notices to away players
    "transport",  # one session's app, driver and screen buffer
    "runners",  # bots and clocks
    "hosting",  # many Textual apps in one process: the workarounds
    "common",  # logging, limits
]
"""Top to bottom."""


def room_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["harena", "server"] or len(parts) < 3:
        return None
    return parts[2]


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (line, dotted name), `from harena.server import x` as x's."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                raise AssertionError(f"{path}:{node.lineno}: a relative import")
            if node.module == "harena.server":
                found += [(node.lineno, f"harena.server.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def test_every_file_of_the_server_is_in_a_room() -> None:
    loose = [p.name for p in SERVER.glob("*.py") if p.name != "__init__.py"] + [
        p.name for p in SERVER.iterdir() if p.is_dir() and p.name not in [*ROOMS, "__pycache__"]
    ]
    assert loose == []


def upward_imports(server: Path) -> list[str]:
    wrong = []
    for path in sorted(server.rglob("*.py")):
        here = path.relative_to(server).parts
        if len(here) < 2:
            continue
        rank = ROOMS.index(here[0])
        for line, module in imports_of(path):
            room = room_of(module)
            if room is None or room == here[0]:
                continue
            if room not in ROOMS or ROOMS.index(room) < rank:
                wrong.append(f"{'/'.join(here)}:{line} imports {module} ({here[0]} -> {room})")
    return wrong


def test_no_room_imports_a_room_above_it() -> None:
    assert upward_imports(SERVER) == []


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    for room in ("hosting", "transport"):
        (tmp_path / room).mkdir()
    (tmp_path / "transport" / "driver.py").write_text("from harena.server.hosting import x\n")
    (tmp_path / "hosting" / "fixes.py").write_text(
        "def f():\n    from harena.server.transport.driver import SSHDriver\n"
    )
    assert upward_imports(tmp_path) == [
        "hosting/fixes.py:2 imports harena.server.transport.driver (hosting -> transport)"
    ]
