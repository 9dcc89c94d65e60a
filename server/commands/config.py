"""`harena serve --config harena.toml`: the serve options, read from a TOML file.

The keys are the long names of `harena serve`'s options (`max-per-ip = 4`, `data = "/var/lib/
harena"`; `max_per_ip` is read the same), found by walking the argparse parser: an option added
to `serve` is a config key at once, with the same type and check. The file's values become the
parser's defaults, so what is given on the command line wins, and `--help` shows the file's
values as the defaults. One key is the file's own: `operator-keys`, a list of public keys (as in
authorized_keys) or SHA256 fingerprints, added to those of `--operators FILE`.
"""

from __future__ import annotations

import argparse
import difflib
import tomllib
from pathlib import Path
from typing import Any

NOT_CONFIG = {"help", "config", "print_config"}
"""Options of `serve` that make no sense in the file itself."""

FILE_ONLY_KEYS = {"operator-keys": "operator_keys"}
"""Keys with no command-line option: lists are awkward on a command line."""


class ConfigError(Exception):
    """A bad config file or value; the message names the file and the key."""


def config_actions(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Config key (the long option without its dashes) -> the option's action."""
    actions: dict[str, argparse.Action] = {}
    for action in parser._actions:  # argparse offers no public list of a parser's options
        if action.dest in NOT_CONFIG or not action.option_strings:
            continue
        long = max(action.option_strings, key=len).lstrip("-")
        actions[long] = action
    return actions


def load_config(path: Path, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """The file's settings as argparse destinations and checked values."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    return config_values(data, parser, str(path))


def config_values(
    data: dict[str, Any], parser: argparse.ArgumentParser, source: str
) -> dict[str, Any]:
    actions = config_actions(parser)
    values: dict[str, Any] = {}
    for raw_key, raw in data.items():
        key = raw_key.replace("_", "-")
        if key in FILE_ONLY_KEYS:
            values[FILE_ONLY_KEYS[key]] = _key_list(raw, source, key)
            continue
        action = actions.get(key)
        if action is None:
            known = sorted([*actions, *FILE_ONLY_KEYS])
            close = difflib.get_close_matches(key, known, n=1)
            hint = (
                f" (did you mean {close[0]!r}?)" if close else f"; known keys: {', '.join(known)}"
            )
            raise ConfigError(f"{source}: unknown key {raw_key!r}{hint}")
        values[action.dest] = _value(action, raw, f"{source}: key {raw_key!r}")
    return values


def _value(action: argparse.Action, raw: Any, where: str) -> Any:
    """`raw` as the command line would have made it, or a ConfigError saying why not."""
    if action.nargs == 0:  # a flag (store_true / store_false)
        if not isinstance(raw, bool):
            raise ConfigError(f"{where}: expected true or false, got {raw!r}")
        return raw
    if isinstance(raw, (dict, list)):
        raise ConfigError(f"{where}: expected one value, got {type(raw).__name__}")
    kind = action.type or str
    assert callable(kind)  # a converter, never a registered type name
    number = isinstance(raw, (int, float)) and not isinstance(raw, bool)
    if kind is int and (not number or not isinstance(raw, int)):
        raise ConfigError(f"{where}: expected an integer, got {raw!r}")
    if kind is float and not number:
        raise ConfigError(f"{where}: expected a number, got {raw!r}")
    if kind in (str, Path) and not isinstance(raw, str):
        raise ConfigError(f"{where}: expected a string, got {raw!r}")
    if not isinstance(raw, str) and not number:
        raise ConfigError(f"{where}: expected a value, got {raw!r}")
    try:
        # Another type (a port number, say) reads text, as on the command line.
        value = kind(raw) if kind in (int, float, str, Path) else kind(str(raw))
    except (TypeError, ValueError, argparse.ArgumentTypeError) as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    if action.choices is not None and value not in action.choices:
        choices = ", ".join(map(str, action.choices))
        raise ConfigError(f"{where}: {value!r} is not one of {choices}")
    return value


def _key_list(raw: Any, source: str, key: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(k, str) for k in raw):
        raise ConfigError(f"{source}: key {key!r}: expected a list of keys or fingerprints")
    return [k.strip() for k in raw if k.strip()]


def render_config(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """The effective settings as a config file (what `--print-config` shows)."""
    lines = []
    for key, action in config_actions(parser).items():
        value = getattr(args, action.dest, None)
        if value is None:
            lines.append(f"# {key} = (not set)")
        else:
            lines.append(f"{key} = {_toml(value)}")
    keys = getattr(args, "operator_keys", [])
    lines.append("operator-keys = [" + ", ".join(_toml(k) for k in keys) + "]")
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'
