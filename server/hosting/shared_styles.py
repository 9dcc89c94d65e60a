"""CSS rules matched once for every app: a node's styles found by the nodes like it (server
apps and any other).

`Stylesheet.apply(node)` looks through the stylesheet's rules for those whose selectors match
the node and the path of nodes above it, and works out the node's rules from them, most
specific first: every session did it again for each of its ~35 nodes (~15% of a connection's
CPU, `bench/ssh_load.py --scenario connect50`), yet every session builds the same screens from
the same widget classes and the same CSS (`textual_fixes` shares the parsed rules).

What matches a node depends only on the stylesheet's rules, on the type, id and classes of the
node and of each node above it, and on which of the pseudo-classes of its candidate rules (the
rules its type, id and classes could select: `App:ansi *`, `Input:focus`, ...) each of them
has: that is the key under which the rules found are kept (for those rules, whatever app they
are in) and handed to Textual's own `replace_rules` for every node with the same key. Nodes
with a candidate pseudo-class that depends on siblings or descendants (`:first-child`,
`:odd`, `:focus-within`, `:empty`, ...: Textual's own cache leaves them out too) are styled by
Textual as before. The rules found are a dict Textual itself shares between nodes
(its own cache in `update_nodes`) and never writes to.

Relies on (pinned in textual_pins): `Stylesheet.apply(node, *, animate, cache)`,
`Stylesheet.replace_rules`, `Stylesheet.rules`, `Stylesheet.rules_map`,
`Stylesheet._process_component_classes`, `RuleSet.pseudo_classes`, `DOMNode._classes`,
`DOMNode._id`, `DOMNode._selector_names`, `DOMNode._has_hover_style` and its three siblings,
`Stylesheet._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE`, `MessagePump._parent`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from harena.server.hosting.textual_pins import patch

if TYPE_CHECKING:
    from textual.css.stylesheet import Stylesheet
    from textual.dom import DOMNode

MAX_RULE_LISTS = 64
"""Stylesheets' rule lists whose matches are kept: a theme and a set of CSS sources, each
source added as an app first mounts a widget of a class (so one per step of a start-up)."""
MAX_NODE_KINDS = 2048
"""Node kinds (type, id, classes) kept per rule list."""
MAX_PATHS = 64
"""Paths above one node kind kept (a widget class used in many places)."""

_PSEUDO = object()
"""A node kind some of whose candidate rules have a pseudo-class that depends on the node's
siblings or descendants (`:first-child`, `:focus-within`, ...): Textual styles it."""
_NO_RULES = object()
"""No rule matched: Textual leaves the node's rules as they are."""


class _Matched:
    """What one list of rules matched, by node kind, then by the path above the node."""

    __slots__ = ("kinds", "rules")

    def __init__(self, rules: list[Any]) -> None:
        self.rules = rules  # held: the ids in its key are not reused while it lives
        self.kinds: dict[tuple[Any, ...], Any] = {}


def _bounded_set(cache: dict[Any, Any], key: Any, value: Any, most: int) -> None:
    """`cache[key] = value`, the oldest entry dropped first beyond `most`. Plain dicts of
    tuples: an entry dropped is freed at once (Textual's `LRUCache` is a ring of links, which
    dropped whole would be cyclic garbage)."""
    if len(cache) >= most:
        del cache[next(iter(cache))]
    cache[key] = value


_matched: dict[tuple[int, ...], _Matched] = {}
_captured: list[Any] = []
"""The rules Textual's own apply handed to `replace_rules` for the node being styled:
[node, rules] while a miss is being styled."""


def _matched_for(stylesheet: Stylesheet) -> _Matched:
    rules = stylesheet.rules  # (parses first if sources changed)
    known = getattr(stylesheet, "_harena_matched", None)
    if known is not None and known[0] is rules:
        matched: _Matched = known[1]
        return matched
    key = tuple(map(id, rules))
    found = _matched.get(key)
    if found is None:
        found = _Matched(list(rules))
        _bounded_set(_matched, key, found, MAX_RULE_LISTS)
    stylesheet._harena_matched = (rules, found)  # type: ignore[attr-defined]
    return found


def _kind(node: DOMNode) -> tuple[Any, ...]:
    classes = node._classes
    return (type(node), node._id, frozenset(classes) if classes else None)


def _path(node: DOMNode, pseudo_classes: tuple[str, ...]) -> tuple[Any, ...]:
    """What matching `node` depends on besides its kind: the kinds of the nodes above it,
    parent first, and which of `pseudo_classes` the node and each of them has."""
    if not pseudo_classes:
        kinds = []
        parent = node._parent
        while parent is not None:
            kinds.append(_kind(parent))  # type: ignore[arg-type]
            parent = parent._parent
        return tuple(kinds)
    states: list[Any] = [tuple([node.has_pseudo_class(name) for name in pseudo_classes])]
    parent = node._parent
    while parent is not None:
        states.append(_kind(parent))  # type: ignore[arg-type]
        states.append(tuple([parent.has_pseudo_class(name) for name in pseudo_classes]))  # type: ignore[attr-defined]
        parent = parent._parent
    return tuple(states)


_installed = False
textual_apply: Callable[..., None] = lambda *args, **kwargs: None  # noqa: E731
"""Textual's own `Stylesheet.apply`, what a node not matched before goes through (tests count
it)."""


def install() -> None:
    """Patch `Stylesheet.apply` and `replace_rules` (once)."""
    global _installed, textual_apply
    if _installed:
        return
    from textual.css.stylesheet import Stylesheet

    textual_apply = Stylesheet.apply
    replace_rules = Stylesheet.replace_rules.__func__  # type: ignore[attr-defined]

    def _replace_rules(cls: Any, node: DOMNode, rules: Any, animate: bool = False) -> None:
        if _captured and _captured[-1][0] is node:
            _captured[-1][1] = rules
        replace_rules(cls, node, rules, animate)

    def _apply(
        self: Stylesheet,
        node: DOMNode,
        *,
        animate: bool = False,
        cache: dict[tuple[Any, ...], Any] | None = None,
    ) -> None:
        matched = _matched_for(self)
        kind = _kind(node)
        known: Any = matched.kinds.get(kind)
        if known is None:
            rules_map = self.rules_map
            pseudo_classes: set[str] = set()
            for name in rules_map.keys() & node._selector_names:
                for rule in rules_map[name]:
                    pseudo_classes.update(rule.pseudo_classes)
            known = (
                _PSEUDO
                if not pseudo_classes.isdisjoint(self._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE)
                else (tuple(sorted(pseudo_classes)), {})
            )
            _bounded_set(matched.kinds, kind, known, MAX_NODE_KINDS)
        if known is _PSEUDO:
            textual_apply(self, node, animate=animate, cache=cache)
            return
        pseudo: tuple[str, ...]
        paths: dict[tuple[Any, ...], Any]
        pseudo, paths = known
        path = _path(node, pseudo)
        rules = paths.get(path)
        if rules is None:
            _captured.append([node, _NO_RULES])
            try:
                textual_apply(self, node, animate=animate, cache=cache)
            finally:
                found = _captured.pop()[1]
            _bounded_set(paths, path, found, MAX_PATHS)  # (not when Textual's apply failed)
            return
        # As Textual's apply sets them when no pseudo-class that depends on the node's
        # siblings or descendants is among its candidate rules'.
        node._has_hover_style = "hover" in pseudo
        node._has_focus_within = False
        node._has_order_style = False
        node._has_odd_or_even = False
        if rules is not _NO_RULES:
            self.replace_rules(node, rules, animate=animate)
        self._process_component_classes(node)

    patch(Stylesheet, "replace_rules", classmethod(_replace_rules))
    patch(Stylesheet, "apply", _apply)
    _installed = True
