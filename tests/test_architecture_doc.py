"""docs/architecture.md names only what exists: every path, module and public name it mentions.

It once described `Game.check_options` and `Game.players_for`, which never existed, and put
`HarenaSession` in `server/session.py` (issue 38). How a backticked span is read:

- a path (`core/table.py`, `server/cluster/`, `data/*.toml`, `tests/x.py::test_y`): from the
  repository root when it starts with a top-level entry (`core/`, `bench/`, `.ci/` ...), else
  under a folder its bullet or paragraph names or its section heading names, or that folder's
  mirror in `tests/`, or anywhere below them (so `session.py` in the `server/` bullet is found
  wherever under `server/` it lives);
- a dotted name (`Table.act`, `textual_pins.PINS`, `core/bots.standing_move`,
  `textual.app.asyncio`, `game.rng`): its head is a class or function of harena, Textual, Rich
  or asyncssh, a module (by its last name or its path), an importable module, or `game` (a real
  Carthage game, whose pieces `team_mode`, `board` ... may also head a name); the rest is looked
  up with getattr, then among the attributes a class's methods assign (`self.x = ...`); call
  arguments, a leading `self.` or `@` are dropped, and `a.b/c` stands for `a.b` and `a.c`;
- `Name` (`path.py`): the name is defined in that module, not just imported there;
- a bare `CamelCase` or `UPPER_CASE` name: defined in harena, Textual, Rich or asyncssh; a bare
  `lowercase()` call: a function of harena; a bare lowercase word: a word the code or its data
  uses (a module, a function, an attribute, a record kind, an option);
- a span with spaces is a command or prose: only its paths are checked.

A failure names every span that does not resolve, with its line, so a doc that falls behind a
move or a rename says exactly where.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = {"core": "harena.core", "server": "harena.server", "tui": "harena.tui"}
THIRD_PARTY = ("textual", "rich", "asyncssh")  # the libraries the doc's patches name
SKIPPED_DIRS = {".git", "__pycache__", "keys", ".mypy_cache", ".ruff_cache", ".pytest_cache"}

# Spans that look like names or paths but are neither, each with why.
NOT_NAMES = {
    "tables/": "the folder inside a server's --data folder, not the repository's",
    "callback(view_for_that_identity)": "a placeholder: any function a subscriber gives",
    "asyncio.eager_task_factory": "Python 3.12+ (the doc says so); tests may run on 3.11",
}
# Lowercase words that head a dotted name for an instance the doc talks about.
INSTANCES = {"app": "textual.app.App", "loop": "asyncio.AbstractEventLoop"}

SPAN = re.compile(r"`([^`]+)`")
CALL = re.compile(r"^@?([\w./]+)\(.*\)$", re.S)
DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
PAIR = re.compile(r"`([^`\s]+)`\s*\(`([\w/.]+(?:\.py|/))`")
FILE_EXTENSIONS = (".py", ".toml", ".md", ".txt", ".json", ".cfg", ".yml", ".yaml")


@dataclass(frozen=True)
class Span:
    text: str
    line: int
    scopes: tuple[str, ...]  # folders (relative, ending in "/") bare paths are looked for under


# -- reading the doc ------------------------------------------------------------------------------


def folders_in(text: str) -> list[str]:
    """The repository folders a piece of the doc names (`core/carthage/`, `core/table.py`)."""
    out = []
    for span in SPAN.findall(text):
        token = span.split()[0] if span.split() else ""
        if "/" in token and token.split("/")[0] in top_entries():
            folder = token if token.endswith("/") else token.rsplit("/", 1)[0] + "/"
            out.append(folder)
    return out


def blocks(text: str) -> Iterator[tuple[int, str, str]]:
    """(first line, heading, text) of each bullet, paragraph and table row, with its heading."""
    heading, start, lines = "", 0, []
    for number, line in enumerate([*text.splitlines(), ""], start=1):
        new_block = not line.strip() or bool(re.match(r"#|- |\||\d+\. ", line))
        if new_block and lines:
            yield start, heading, "\n".join(lines)
            lines = []
        if line.startswith("#"):
            heading = line
            yield number, heading, line
        elif line.strip():
            if not lines:
                start = number
            lines.append(line)


def spans(text: str) -> list[Span]:
    out = []
    for start, heading, block in blocks(text):
        scopes = folders_in(block) or folders_in(heading)
        scopes = scopes + [f"tests/{s}" for s in scopes if not s.startswith("tests/")]
        for match in SPAN.finditer(block):
            line = start + block.count("\n", 0, match.start())
            out.append(Span(" ".join(match.group(1).split()), line, tuple(scopes)))
    return out


# -- the tree ---------------------------------------------------------------------------------


@functools.cache
def top_entries() -> frozenset[str]:
    return frozenset(p.name for p in ROOT.iterdir() if p.name not in SKIPPED_DIRS)


@functools.cache
def tree() -> tuple[str, ...]:
    """Every file and folder of the repository, relative, folders ending in "/"."""
    out = []
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if SKIPPED_DIRS & set(relative.parts) or relative.parts[0].endswith(".egg-info"):
            continue
        out.append(relative.as_posix() + ("/" if path.is_dir() else ""))
    return tuple(out)


def path_exists(path: str, scopes: tuple[str, ...]) -> bool:
    if path.split("/")[0] in top_entries():
        return any(fnmatch(entry, path) for entry in tree())
    bases = scopes or ("",)
    return any(
        entry.startswith(base) and (fnmatch(entry, base + path) or fnmatch(entry, f"*/{path}"))
        for base in bases
        for entry in tree()
    )


def module_name(path: str) -> str | None:
    """harena's module for a repository path (`core/bots` or `core/bots.py`), if it is one."""
    parts = path.removesuffix("/").removesuffix(".py").split("/")
    if parts[0] not in PACKAGES:
        return None
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGES[parts[0]], *parts[1:]])


@functools.cache
def harena_modules() -> dict[str, Path]:
    """harena's dotted module name -> its file."""
    out = {}
    for folder in PACKAGES:
        for file in sorted((ROOT / folder).rglob("*.py")):
            name = module_name(file.relative_to(ROOT).as_posix())
            assert name is not None
            out[name] = file
    return out


@functools.cache
def parsed(file: Path) -> ast.Module:
    return ast.parse(file.read_text(encoding="utf-8"))


def defined_at_top(tree_: ast.Module) -> set[str]:
    """Names a module defines itself (classes, functions, assignments), not ones it imports."""
    out = set()
    for node in tree_.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def class_members(node: ast.ClassDef) -> set[str]:
    """What a class body defines, its `__slots__`, and what its methods assign to `self`."""
    out = defined_at_top(ast.Module(body=node.body, type_ignores=[]))
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
            if isinstance(inner.value, ast.Name) and inner.value.id == "self":
                out.add(inner.attr)
        if isinstance(inner, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in inner.targets
        ):
            out |= {c.value for c in ast.walk(inner.value) if isinstance(c, ast.Constant)}
    return out


FUNCTION = re.compile(r"^\s*(?:async )?def (\w+)", re.M)
WORD = re.compile(r"[A-Za-z_]\w*")


@functools.cache
def harena_index() -> tuple[dict[str, set[str]], set[str], set[str]]:
    """(name -> modules defining it at top level, every function name, every word the code
    and its data use: the last two read from the text, permissive and quick)."""
    defined: dict[str, set[str]] = {}
    functions: set[str] = set()
    words: set[str] = {"harena"}
    for module, file in harena_modules().items():
        source = file.read_text(encoding="utf-8")
        for name in defined_at_top(parsed(file)):
            defined.setdefault(name, set()).add(module)
        functions |= set(FUNCTION.findall(source))
        words |= set(WORD.findall(source))
    for entry in tree():
        words.add(entry.rstrip("/").rsplit("/", 1)[-1].split(".")[0])
        if entry.endswith(".toml") and entry.split("/")[0] in PACKAGES:
            words |= set(WORD.findall((ROOT / entry).read_text(encoding="utf-8")))
    return defined, functions, words


@functools.cache
def third_party_classes(name: str) -> tuple[Any, ...]:
    """The classes (or module-level names) called `name` in Textual, Rich and asyncssh."""
    pattern = re.compile(rf"^(class {name}\b|{name}\s*[:=])", re.M)
    found = []
    for dotted, source in third_party_sources():
        if name in source and pattern.search(source):
            try:
                found.append(getattr(importlib.import_module(dotted), name))
            except (ImportError, AttributeError):
                continue
    return tuple(found)


@functools.cache
def third_party_sources() -> tuple[tuple[str, str], ...]:
    """(module, source) of every module of Textual, Rich and asyncssh."""
    out = []
    for package in THIRD_PARTY:
        base = Path(importlib.import_module(package).__file__ or "").parent
        for file in sorted(base.rglob("*.py")):
            dotted = file.relative_to(base.parent).with_suffix("").as_posix().replace("/", ".")
            source = file.read_text(encoding="utf-8", errors="replace")
            out.append((dotted.removesuffix(".__init__"), source))
    return tuple(out)


@functools.cache
def carthage_game() -> Any:
    from harena.core.engine import new_game

    return new_game("carthage", 2, seed=1)


# -- resolving names ------------------------------------------------------------------------------


def members_of(cls: type) -> set[str]:
    """Attributes a class or its bases assign in their source (instance attributes included)."""
    out: set[str] = set(getattr(cls, "__dataclass_fields__", {}))
    for klass in inspect.getmro(cls):
        try:
            file = inspect.getsourcefile(klass)
        except TypeError:
            continue  # a builtin
        if file is None or not file.endswith(".py"):
            continue
        for node in ast.walk(parsed(Path(file))):
            if isinstance(node, ast.ClassDef) and node.name == klass.__name__:
                out |= class_members(node)
    return out


def lookup(owner: Any, rest: list[str]) -> bool:
    """`owner.rest[0].rest[1]...` exists: as attributes, or as what a class's code assigns."""
    for index, name in enumerate(rest):
        if hasattr(owner, name):
            owner = getattr(owner, name)
            continue
        cls = owner if isinstance(owner, type) else type(owner)
        return index == len(rest) - 1 and name in members_of(cls)
    return True


def import_prefix(parts: list[str]) -> tuple[ModuleType, list[str]] | None:
    """The longest importable module at the start of `parts`, and what follows it."""
    for end in range(len(parts), 0, -1):
        try:
            return importlib.import_module(".".join(parts[:end])), parts[end:]
        except ImportError:
            continue
    return None


def heads(head: str) -> Iterator[Any]:
    """Everything `head` may stand for at the start of a dotted name."""
    if head == "game":
        yield carthage_game()
    if head in INSTANCES:
        module, _, name = INSTANCES[head].rpartition(".")
        yield getattr(importlib.import_module(module), name)
    defined, _, _ = harena_index()
    for module in sorted(defined.get(head, ())):
        yield getattr(importlib.import_module(module), head)
    for module in sorted(harena_modules()):
        if module.rsplit(".", 1)[-1] == head:
            yield importlib.import_module(module)
    yield from third_party_classes(head)
    if head[0].islower() and hasattr(carthage_game(), head):
        yield getattr(carthage_game(), head)  # a Carthage piece: `team_mode.keeps_chain`


def dotted_exists(name: str) -> bool:
    parts = name.split(".")
    if len(parts) > 1 and parts[0] in {"harena", "sys", "asyncio", *THIRD_PARTY}:
        found = import_prefix(parts)
        return found is not None and lookup(*found)
    return any(lookup(owner, parts[1:]) for owner in heads(parts[0]))


def bare_exists(name: str, called: bool) -> bool:
    defined, functions, words = harena_index()
    if name[0].isupper():
        return name in defined or bool(third_party_classes(name)) or hasattr(builtins, name)
    if called:
        return name in functions
    return name in words


# -- reading one span -----------------------------------------------------------------------------


def alternatives(name: str) -> list[str]:
    """`XTermParser.feed/tick` -> feed and tick; `redirect_stdout/stderr` -> both streams."""
    first, _, second = name.partition("/")
    cut = max(first.rfind("."), first.rfind("_"))
    return [first, first[: cut + 1] + second]


def problems_with(span: Span) -> list[str]:
    text = span.text
    if text in NOT_NAMES:
        return []
    call = CALL.match(text)
    name = call.group(1) if call else text.removeprefix("@")
    if " " in name:  # a command or prose: only its paths
        tokens = [t for t in name.split() if "/" in t and t.split("/")[0] in top_entries()]
        return [problem for t in tokens for problem in problems_with(Span(t, span.line, ()))]
    name = name.removeprefix("self.")
    if "::" in name:
        file, _, test = name.partition("::")
        path = ROOT / file
        if not path.is_file():
            return [f"no file {file}"]
        return [] if test in defined_at_top(parsed(path)) else [f"no {test} in {file}"]
    if "/" in name:
        return path_problems(name, span.scopes)
    if name.endswith(FILE_EXTENSIONS):
        return [] if path_exists(name, span.scopes) else [f"no {name} under {scope_words(span)}"]
    if not DOTTED.match(name) or len(name) < 2:
        return []  # a key, an option value, a record framing: words, not names
    if "." in name:
        return [] if dotted_exists(name) else [f"{name} is not defined"]
    return [] if bare_exists(name, called=bool(call)) else [f"{name} is not defined"]


def path_problems(name: str, scopes: tuple[str, ...]) -> list[str]:
    first = name.split("/")[0]
    is_path = (
        name.endswith("/")
        or name.endswith(FILE_EXTENSIONS)
        or "*" in name
        or first in top_entries()
        or path_exists(first + "/", scopes)
    )
    if not is_path:  # `deliver_text/binary`
        return [p for alt in alternatives(name) for p in problems_with(Span(alt, 0, scopes))]
    if path_exists(name, scopes):
        return []
    folder, _, last = name.rpartition("/")
    module = module_name(f"{folder}/{last.split('.')[0]}")  # `core/bots.standing_move`
    if module in harena_modules() and "." in last:
        found = lookup(importlib.import_module(module), last.split(".")[1:])
        return [] if found else [f"{name} is not defined"]
    package = module_name(folder + "/")  # `tui/boards/BUILTIN_BOARDS`
    if package in harena_modules() and DOTTED.match(last):
        return [] if hasattr(importlib.import_module(package), last) else [f"no {name}"]
    where = "the repository" if first in top_entries() else f"under {', '.join(scopes)}"
    return [f"no {name} in {where}"]


def scope_words(span: Span) -> str:
    return ", ".join(span.scopes) or "the repository"


def pair_problems(text: str) -> list[str]:
    """`Name.attr` (`path.py`): the module at that path defines Name (a package (`path/`): one
    of its modules does)."""
    out = []
    for match in PAIR.finditer(text):
        name, path = match.group(1), match.group(2)
        head = CALL.sub(r"\1", name).removeprefix("self.").split(".")[0]
        module = module_name(path)
        if module is None or not DOTTED.match(head):
            continue
        line = text.count("\n", 0, match.start()) + 1
        inside = [
            file
            for dotted, file in harena_modules().items()
            if dotted == module or (path.endswith("/") and dotted.startswith(module + "."))
        ]
        if not inside:
            out.append(f"line {line}: `{name}` (`{path}`): no module {path}")
        elif module.rsplit(".", 1)[-1] != head and not any(
            head in defined_at_top(parsed(file)) for file in inside
        ):
            out.append(f"line {line}: `{name}` (`{path}`): {head} is not defined there")
    return out


# -- the tests ------------------------------------------------------------------------------------


def test_every_path_and_name_the_architecture_doc_mentions_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = [
        f"line {span.line}: `{span.text}`: {problem}"
        for span in spans(text)
        for problem in problems_with(span)
    ]
    found += pair_problems(text)
    assert not found, "docs/architecture.md names what does not exist:\n" + "\n".join(found)


def test_the_checker_catches_what_the_doc_once_got_wrong() -> None:
    """The spans issue 38 found wrong fail, and their fixes pass."""
    wrong = [
        Span("Game.check_options(players, options)", 1, ()),
        Span("Game.players_for(options)", 1, ()),
        Span("core/nowhere.py", 1, ()),
        Span("nowhere.py", 1, ("server/",)),
        Span("NoSuchClass", 1, ()),
        Span("textual_pins.NO_PINS", 1, ()),
        Span("tests/core/test_recovery.py::test_nothing", 1, ()),
    ]
    assert [span.text for span in wrong if not problems_with(span)] == []
    right = [
        Span("Game.check_config(players, options)", 1, ()),
        Span("session.py", 1, ("server/transport/",)),
        Span("HarenaSession.data_received", 1, ()),
        Span("App._display", 1, ()),
        Span("Widget._size", 1, ()),
        Span("team_mode.keeps_chain", 1, ()),
        Span("XTermParser.feed/tick", 1, ()),
    ]
    assert {span.text: problems_with(span) for span in right if problems_with(span)} == {}
    moved = "`HarenaSession.data_received` (`server/transport/session.py`)"
    assert pair_problems(moved) == [
        "line 1: `HarenaSession.data_received` (`server/transport/session.py`): "
        "HarenaSession is not defined there"
    ]


if __name__ == "__main__":  # print what does not resolve, for whoever edits the doc
    text = DOC.read_text(encoding="utf-8")
    for span in spans(text):
        for problem in problems_with(span):
            print(f"line {span.line}: `{span.text}`: {problem}")
    for problem in pair_problems(text):
        print(problem)
