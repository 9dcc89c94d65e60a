"""server/hosting/shared_styles.py: a node's rules are matched once for every app, and are the
rules Textual's own matching finds."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from harena.core.lobby import Lobby
from harena.server.hosting import shared_styles
from harena.server.hosting.textual_fixes import install
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.chat import ChatInput, ChatInputRow
from tests.tui.harness import session, until

install()


def css_rules(node: DOMNode) -> dict[str, Any]:
    return dict(node._css_styles._rules)


@contextmanager
def textual_matches() -> Iterator[list[DOMNode]]:
    """The nodes Textual's own apply styles meanwhile (the others had their rules shared)."""
    matched: list[DOMNode] = []
    textual_apply = shared_styles.textual_apply
    shared_styles.textual_apply = lambda self, node, **kw: (  # type: ignore[assignment]
        matched.append(node),
        textual_apply(self, node, **kw),
    )
    try:
        yield matched
    finally:
        shared_styles.textual_apply = textual_apply


def assert_styled_as_textual_styles(app: Any) -> None:
    """Every node's rules are those Textual's own apply finds for it now."""
    nodes = [app, *app.screen.walk_children(with_self=True)]
    for node in nodes:
        ours = css_rules(node)
        flags = (node._has_hover_style, node._has_order_style)
        shared_styles.textual_apply(app.stylesheet, node)
        assert css_rules(node) == ours, node
        assert (node._has_hover_style, node._has_order_style) == flags, node


async def test_nodes_get_the_rules_textual_finds_and_a_second_app_matches_none(monkeypatch):
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2)
    table.sit("bob", "bob")
    async with session(lobby, "ann", "ann") as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert_styled_as_textual_styles(app)
        await pilot.press("c")  # the chat input has focus: `Input:focus` rules
        await until(lambda: isinstance(app.focused, ChatInput))
        await pilot.pause()
        assert_styled_as_textual_styles(app)
        await pilot.press("escape")
        await until(lambda: app.focused is None)
        await pilot.pause()
        assert_styled_as_textual_styles(app)

    matched: list[str] = []
    textual_apply = shared_styles.textual_apply

    def counted(self: Stylesheet, node: DOMNode, **kwargs: Any) -> None:
        matched.append(type(node).__name__)
        textual_apply(self, node, **kwargs)

    monkeypatch.setattr(shared_styles, "textual_apply", counted)
    async with session(lobby, "bob", "bob") as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert matched == []  # every node like one of ann's: matched once, for both
        assert len(list(app.screen.walk_children())) > 15
        assert css_rules(app.screen.query_one(ChatInputRow))  # its input is made on `c`


@pytest.mark.parametrize("pseudo", ["first-child", "odd", "focus-within", "empty"])
def test_nodes_whose_rules_depend_on_their_siblings_are_matched_by_textual(pseudo: str) -> None:
    """Such a node's rules change when a sibling comes or goes, without its own kind or path
    changing: it is left to Textual (whose own cache leaves them out too)."""
    sheet = Stylesheet()
    sheet.add_source(f"Leaf:{pseudo} {{ color: red; }}", read_from=("tests", pseudo))
    sheet.parse()

    class Leaf(DOMNode):
        pass

    root, leaf = DOMNode(), Leaf()
    leaf._attach(root)
    with textual_matches() as matched:
        sheet.apply(leaf)
        sheet.apply(leaf)
    assert matched == [leaf, leaf]


def test_a_node_like_one_styled_before_is_not_matched_again() -> None:
    """Same rules, same type, id, classes and path: Textual matches the first node only; both
    get its rules. Another class on the second is another kind: matched again."""
    css = "Leaf { color: red; } Root > .big { width: 10; } Leaf:hover { color: blue; }"
    sheets = []
    for _ in range(2):  # two apps' stylesheets of the same CSS
        sheet = Stylesheet()
        sheet.add_source(css, read_from=("tests", "leaf"))
        sheet.parse()
        sheets.append(sheet)

    class Root(DOMNode):
        pass

    class Leaf(DOMNode):
        pass

    roots, leaves = [], []  # (a node holds its parent weakly: the roots are kept here)
    for _ in range(3):
        root, leaf = Root(), Leaf(classes="big")
        leaf._attach(root)
        roots.append(root)
        leaves.append(leaf)
    with textual_matches() as matched:
        sheets[0].apply(leaves[0])
        sheets[1].apply(leaves[1])
        leaves[2].remove_class("big")
        sheets[1].apply(leaves[2])
    assert matched == [leaves[0], leaves[2]]
    assert css_rules(leaves[1]) == css_rules(leaves[0])
    assert leaves[1]._has_hover_style
    assert "width" in css_rules(leaves[0]) and "width" not in css_rules(leaves[2])
