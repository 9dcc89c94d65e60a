"""Each game's rules stand alone: what two games share lives in `core/` (as `core/deal.py`),
so a game can be read, changed or removed without the other (issue 38)."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
GAMES = ("carthage", "spartacus")


def imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_no_game_imports_another_game() -> None:
    offenders = [
        f"{path.relative_to(CORE)}: {name}"
        for game in GAMES
        for path in sorted((CORE / game).rglob("*.py"))
        for name in imported(path)
        for other in GAMES
        if other != game and name.startswith(f"harena.core.{other}")
    ]
    assert offenders == []
