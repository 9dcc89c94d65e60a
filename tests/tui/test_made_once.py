"""What a screen makes of a view is made once for every session shown that very view (issue 39):
a table's spectators share it; two seats of a table, and the spectators of two tables, never
share anything made from a view (tui/widgets/made_once.py)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from harena.core.lobby import Lobby
from harena.tui.app import HarenaApp
from harena.tui.boards.generic import GenericBoard
from harena.tui.widgets.lines_panel import LogPanel
from harena.tui.widgets.made_once import KEPT, MadeOnce
from harena.tui.widgets.rows import RowsWidget
from harena.tui.widgets.seats import SeatsPanel
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import table_screen

PANELS: tuple[type[RowsWidget], ...] = (SeatsPanel, GenericBoard, LogPanel)


def test_a_result_is_given_again_only_for_the_very_objects_it_was_made_from() -> None:
    made: MadeOnce[str] = MadeOnce()
    view, equal_view = {"hand": [1, 2]}, {"hand": [1, 2]}
    calls: list[str] = []

    def make(text: str) -> str:
        calls.append(text)
        return text

    assert made.get((view,), 80, lambda: make("first")) == "first"
    assert made.get((view,), 80, lambda: make("again")) == "first"  # the same view: kept
    assert made.get((equal_view,), 80, lambda: make("equal")) == "equal"  # another object
    assert made.get((view,), 40, lambda: make("narrower")) == "narrower"  # another width
    assert calls == ["first", "equal", "narrower"]
    for n in range(KEPT):  # the oldest results go first
        made.get(({"n": n},), 80, lambda: make("other"))
    assert made.get((view,), 80, lambda: make("made anew")) == "made anew"


def panels(app: HarenaApp) -> dict[type[RowsWidget], Any]:
    """What each panel made of the last view: its lines and its rows."""
    screen = table_screen(app)
    found = {}
    for kind in PANELS:
        widget = screen.query_one(kind)
        found[kind] = (getattr(widget, "_lines", None), widget._rows)
    return found


def shared(a: HarenaApp, b: HarenaApp) -> list[str]:
    """The panels whose lines or rows are the very same objects in both apps."""
    mine, theirs = panels(a), panels(b)
    return [
        f"{kind.__name__}.{part}"
        for kind in PANELS
        for part, x, y in zip(("lines", "rows"), mine[kind], theirs[kind], strict=True)
        if x is y and x is not None
    ]


async def test_spectators_share_what_is_made_of_a_view_and_seats_share_nothing() -> None:
    lobby = Lobby(new_seed=lambda: 3)
    table = lobby.create_table("id-ann", "ann", "highcard", 2)
    table.sit("id-bob", "bob")
    other = lobby.create_table("id-fay", "fay", "highcard", 2)
    other.sit("id-gus", "gus")
    people = [
        ("id-ann", "ann", table),
        ("id-bob", "bob", table),
        ("id-cat", "cat", table),
        ("id-dan", "dan", table),
        ("id-eve", "eve", other),
    ]
    async with AsyncExitStack() as stack:
        apps = {}
        for identity, name, at in people:
            app, _ = await stack.enter_async_context(
                session(lobby, identity, name, start_table=at.id)
            )
            apps[name] = app
        await until(
            lambda: all(a.screen.__class__.__name__ == "TableScreen" for a in apps.values())
        )
        hand = table.game.view(0)["board"]["hand"]
        assert hand != table.game.view(1)["board"]["hand"]
        table.act("id-ann", f"card:{hand[0]}")  # everyone at the table is shown the change
        other.act("id-fay", f"card:{other.game.view(0)['board']['hand'][0]}")
        await until(lambda: all("you play" in screen_text(apps[n]) for n in ("ann",)))
        await until(lambda: "seat 0 plays a card" in screen_text(apps["dan"]))
        await until(lambda: "seat 0 plays a card" in screen_text(apps["eve"]))

        # the table's two spectators: everything made of the view, made once
        assert sorted(shared(apps["cat"], apps["dan"])) == sorted(
            f"{kind.__name__}.{part}" for kind in PANELS for part in ("lines", "rows")
        )
        # two seats of the same table, a seat and a spectator, two tables' spectators: nothing
        for a, b in [("ann", "bob"), ("ann", "cat"), ("bob", "dan"), ("cat", "eve")]:
            assert shared(apps[a], apps[b]) == [], (a, b)
        # and what ann alone may see reaches no other screen
        secrets = [f"you play {hand[0]} face down", f"you drew {hand}"]
        assert all(secret in screen_text(apps["ann"]) for secret in secrets)
        for name in ("bob", "cat", "dan", "eve"):
            text = screen_text(apps[name])
            assert not any(secret in text for secret in secrets), name
