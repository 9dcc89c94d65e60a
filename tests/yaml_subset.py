"""The YAML the deployment files under docs/deploy/ are written in, read for the tests without
a YAML library (the project does not depend on one, and a test alone is no reason to).

The subset: block mappings (`key: value`, `key:` then an indented block), block sequences
(`- item`, an item a scalar or a mapping), flow sequences of scalars (`["a", "b"]`), scalars
plain or quoted, `#` comments. Anything else (anchors, tags, block scalars, flow mappings, tabs)
is refused with the line, so a file that drifts out of the subset fails its test instead of
being read wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

_UNSUPPORTED = re.compile(r"^\s*(?:- )?(?:[^\"'#]*:\s+)?[&*!|>{]")


class YamlSubsetError(ValueError):
    pass


def load(text: str) -> Any:
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw:
            raise YamlSubsetError(f"line {number}: a tab")
        line = _strip_comment(raw).rstrip()
        if not line.strip() or line.strip() == "---":
            continue
        if _UNSUPPORTED.match(line):
            raise YamlSubsetError(f"line {number}: outside the subset: {raw.strip()}")
        lines.append((len(line) - len(line.lstrip()), line.strip(), number))
    value, rest = _block(lines, 0)
    if rest:
        raise YamlSubsetError(f"line {rest[0][2]}: unexpected indentation")
    return value


def _strip_comment(line: str) -> str:
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] == " "):
            return line[:i]
    return line


Lines = list[tuple[int, str, int]]


def _block(lines: Lines, indent: int) -> tuple[Any, Lines]:
    if not lines:
        return None, lines
    if lines[0][1].startswith("- ") or lines[0][1] == "-":
        return _sequence(lines, lines[0][0])
    return _mapping(lines, lines[0][0])


def _sequence(lines: Lines, indent: int) -> tuple[list[Any], Lines]:
    items: list[Any] = []
    while lines and lines[0][0] == indent and lines[0][1].startswith("-"):
        _, text, number = lines[0]
        rest = text[1:].strip()
        if not rest:
            value, lines = _block(lines[1:], indent + 1)
        elif _is_key(rest):
            # `- key: value` starts a mapping whose keys line up with `key`
            inner = indent + 2
            value, lines = _mapping([(inner, rest, number), *lines[1:]], inner)
        else:
            value, lines = _scalar(rest, number), lines[1:]
        items.append(value)
    return items, lines


def _mapping(lines: Lines, indent: int) -> tuple[dict[str, Any], Lines]:
    mapping: dict[str, Any] = {}
    while lines and lines[0][0] == indent and not lines[0][1].startswith("- "):
        _, text, number = lines[0]
        if not _is_key(text):
            raise YamlSubsetError(f"line {number}: expected `key: value`: {text}")
        key, _, rest = text.partition(":")
        key = _scalar(key.strip(), number)
        if key in mapping:
            raise YamlSubsetError(f"line {number}: {key!r} twice")
        rest = rest.strip()
        lines = lines[1:]
        if rest:
            mapping[key] = _scalar(rest, number)
        elif lines and (lines[0][0] > indent or lines[0][1].startswith("- ")):
            mapping[key], lines = _block(lines, lines[0][0])
        else:
            mapping[key] = None
    if lines and lines[0][0] > indent:
        raise YamlSubsetError(f"line {lines[0][2]}: unexpected indentation")
    return mapping, lines


def _is_key(text: str) -> bool:
    if text.startswith(("'", '"')):
        quote = text[0]
        end = text.find(quote, 1)
        return end > 0 and text[end + 1 : end + 2] == ":"
    key, sep, rest = text.partition(":")
    return bool(sep) and (not rest or rest.startswith(" ")) and "[" not in key


def _scalar(text: str, number: int) -> Any:
    if text.startswith("["):
        try:
            return json.loads(text)  # flow sequences are written as JSON arrays
        except json.JSONDecodeError as exc:
            raise YamlSubsetError(f"line {number}: a flow sequence that is not JSON") from exc
    if text.startswith('"'):
        return json.loads(text)
    if text.startswith("'") and text.endswith("'"):
        return text[1:-1].replace("''", "'")
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text
