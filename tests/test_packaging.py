"""The distribution installs one namespace, `harena` (pyproject.toml maps core/, server/, tui/).

.ci/wheel_check builds and installs the real wheel; these checks catch, in every test run, the
two ways the mapping silently breaks: a new package folder missing from the list, and an import
of the repository's folder names instead of the namespace."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAPPED = ("core", "server", "tui")


def test_every_package_folder_is_in_the_distribution() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {f"harena.{name}": name for name in MAPPED}
    folders = {
        "harena." + ".".join(init.parent.relative_to(REPO).parts)
        for name in MAPPED
        for init in (REPO / name).rglob("__init__.py")
    }
    assert set(config["packages"]) == folders


def test_no_module_imports_a_folder_name_outside_the_namespace() -> None:
    offenders = []
    for path in [
        *REPO.glob("core/**/*.py"),
        *REPO.glob("server/**/*.py"),
        *REPO.glob("tui/**/*.py"),
        *REPO.glob("tests/**/*.py"),
        *REPO.glob("bench/*.py"),
    ]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and node.level == 0
                    else []
                )
            )
            offenders += [
                f"{path.relative_to(REPO)}: {n}" for n in names if n.split(".")[0] in MAPPED
            ]
    assert offenders == []
