"""server/hosting/textual_fixes.py: one regression test per process-wide pitfall."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import weakref

import pytest
from rich.color import ColorSystem
from rich.style import Style
from textual._context import active_app, active_message_pump
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.color import Color
from textual.strip import Strip
from textual.widgets import DataTable

from harena.server.hosting import textual_fixes
from harena.server.hosting.textual_fixes import color_system_for_terminal, install
from harena.server.transport.session import SessionContext, post_from_anywhere
from tests.server.leaks import all_taken_apart, collect_all, garbage_made
from tests.server.session_apps import Note, serve
from tests.sshscreen import ScreenClient

install()


# The internals these fixes rely on, and the versions: tests/server/test_textual_pins.py.


def test_install_is_idempotent():
    render, make_codes = Strip.render, Style._make_ansi_codes
    parse_key, redirect = (
        XTermParser._parse_extended_key,
        sys.modules["textual.app"].redirect_stdout,
    )
    install()
    install()
    assert textual_fixes.is_installed()
    assert Strip.render is render and Style._make_ansi_codes is make_codes
    assert XTermParser._parse_extended_key is parse_key
    assert sys.modules["textual.app"].redirect_stdout is redirect


# ---------------------------------------------------------------- pitfall 3: colour systems


@pytest.mark.parametrize(
    ("term", "colorterm", "expected"),
    [
        ("xterm-256color", None, "256"),
        ("screen-256color", "", "256"),
        ("xterm-256color", "truecolor", "truecolor"),
        ("xterm", "24bit", "truecolor"),
        ("xterm", None, "standard"),
        ("linux", None, "standard"),
        ("vt100", None, "standard"),
        ("", None, "standard"),
    ],
)
def test_color_system_for_terminal(term, colorterm, expected):
    assert color_system_for_terminal(term, colorterm) == expected


def sgr_kinds(raw: bytes) -> set[str]:
    """Which kinds of colour codes appear in SGR sequences: standard, 256, truecolor."""
    kinds: set[str] = set()
    for params in re.findall(rb"\x1b\[([0-9;]*)m", raw):
        codes = [int(code) for code in params.split(b";") if code]
        index = 0
        while index < len(codes):
            code = codes[index]
            if code in (38, 48) and index + 1 < len(codes):
                if codes[index + 1] == 5:
                    kinds.add("256")
                    index += 3
                    continue
                if codes[index + 1] == 2:
                    kinds.add("truecolor")
                    index += 5
                    continue
            if 30 <= code <= 37 or 40 <= code <= 47 or 90 <= code <= 97 or 100 <= code <= 107:
                kinds.add("standard")
            index += 1
    return kinds


def test_sgr_kinds():
    assert sgr_kinds(b"\x1b[1;38;5;12;48;2;1;2;3m\x1b[31m\x1b[0m") == {
        "256",
        "truecolor",
        "standard",
    }


def test_shared_strip_renders_per_color_system():
    """`Strip.blank` is a process-wide cache: its render cache must not leak between systems."""
    style = Style(color="#ff8000", bgcolor="#102030")
    strip = Strip.blank(5, style)
    consoles = {}
    for name in ("truecolor", "256", "standard"):
        app = App()
        textual_fixes.set_app_color_system(app, name)
        consoles[name] = app.console
    for _ in range(2):
        assert sgr_kinds(strip.render(consoles["truecolor"]).encode()) == {"truecolor"}
        assert sgr_kinds(strip.render(consoles["256"]).encode()) == {"256"}
        assert sgr_kinds(strip.render(consoles["standard"]).encode()) == {"standard"}
    # Rich's own path (Style.render) used to cache the first system's codes on the style.
    assert "38;5;" in style.render("x", color_system=ColorSystem.EIGHT_BIT)
    assert "38;2;" in style.render("x", color_system=ColorSystem.TRUECOLOR)
    assert "38;5;" not in style.render("x", color_system=ColorSystem.STANDARD)


async def test_concurrent_sessions_each_get_only_their_own_colour_codes(tmp_path):
    async with serve(tmp_path) as (port, _):
        terminals = [
            ("xterm", {}, "standard"),
            ("xterm-256color", {}, "256"),
            ("xterm-256color", {"COLORTERM": "truecolor"}, "truecolor"),
            ("linux", {}, "standard"),
        ]
        clients = []
        for term, env, _kind in terminals:
            client = await ScreenClient.connect(port, term_type=term, env=env)
            await client.wait_for_text("keys:")
            clients.append(client)
        for round_ in range(3):  # repaint everything in every session, interleaved
            for i, client in enumerate(clients):
                client.resize(80 + round_ + i, 24)
            for i, client in enumerate(clients):
                await client.wait_for_text(f"size: {80 + round_ + i}x24")
                client.send("k")
        for client in clients:
            await client.wait_quiet(0.1)
        for client, (term, env, kind) in zip(clients, terminals, strict=False):
            assert sgr_kinds(bytes(client.raw)) == {kind}, (term, env)
            await client.close()


# ---------------------------------------------------------------- pitfall 4: leaks


def test_extended_key_cache_keeps_no_parser_alive():
    parser = XTermParser()
    events = list(parser.feed("\x1b[27u"))  # a Kitty-protocol Escape
    events += list(parser.feed("\x1b[A"))
    assert [event.key for event in events] == ["escape", "up"]
    ref = weakref.ref(parser)
    del parser
    collect_all()
    assert ref() is None


async def test_cached_key_events_do_not_capture_an_app():
    app = App()
    app_token, pump_token = active_app.set(app), active_message_pump.set(app)
    try:
        parser = XTermParser()
        list(parser.feed("\x1b[1;5Q"))  # a new sequence, parsed while an app is active
    finally:
        active_message_pump.reset(pump_token)
        active_app.reset(app_token)
    ref = weakref.ref(app)
    del app, parser
    collect_all()
    assert ref() is None


def test_styles_cache_inner_outer_keeps_no_instance_alive():
    cache = StylesCache()
    inner, outer = cache.get_inner_outer(Color(10, 20, 30), Color(200, 0, 0, 0.5))
    assert inner != outer
    assert cache.get_inner_outer(Color(10, 20, 30), Color(200, 0, 0, 0.5)) == (inner, outer)
    ref = weakref.ref(cache)
    del cache
    collect_all()
    assert ref() is None


async def test_data_table_style_cache_is_per_instance():
    class TableApp(App[None]):
        def compose(self):
            table: DataTable[str] = DataTable()
            table.add_columns("a", "b")
            table.add_rows([("1", "2"), ("3", "4")])
            yield table

    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(DataTable)
        await pilot.press("down")
        assert "_get_styles_to_render_cell" in vars(table)  # the cache lives on the instance
        table._get_styles_to_render_cell.cache_clear()  # DataTable's own invalidation still works
        await pilot.pause()
    ref = weakref.ref(app)
    del app, table, pilot
    await asyncio.sleep(0.2)  # let run_test's finished tasks go
    collect_all()
    assert ref() is None


def test_an_uncut_strip_is_not_a_reference_cycle():
    # Textual's Strip.divide cached [self] on the strip itself: every rendered line became
    # cyclic garbage that only a full (server-wide) garbage collection could free.
    strip = Strip.blank(10)
    assert strip.divide([10]) == [strip]
    assert [part.cell_length for part in strip.divide([4, 10])] == [4, 6]
    cached = [strip._divide_cache.get(key) for key in strip._divide_cache.keys()]
    assert not any(strip in parts for parts in cached if parts)


async def test_moves_at_a_table_make_no_cyclic_garbage():
    from harena.core.lobby import Lobby
    from tests.tui.harness import session

    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2, {"rounds": "3"})
    table.sit("bob", "bob")
    async with session(lobby, "bob", "bob") as (_app, pilot):
        await pilot.pause()
        with garbage_made(lambda obj: isinstance(obj, Strip)) as strips:
            for _ in range(4):
                table.say("ann", "ann", "hi")
                await pilot.pause()
                await pilot.pause()
        assert strips == []


async def test_a_screen_restyled_leaves_no_cyclic_garbage():
    # Textual makes a virtual node per component class (a screen's "screen--selection") each
    # time a node is restyled, and dropped the last one as a ~40-object cycle: one per lobby
    # screen per table watched and left (bench/hostile.py --floods wEsc), frozen with the
    # long-lived screen, so left for a deep collection.
    from textual.dom import DOMNode

    from harena.core.lobby import Lobby
    from tests.tui.harness import session

    lobby = Lobby()
    async with session(lobby, "ann", "ann") as (app, pilot):
        await pilot.pause()
        with garbage_made(lambda obj: type(obj) is DOMNode) as virtual:
            for _ in range(3):
                app.screen.update_node_styles(animate=False)  # as when it is shown again
                await pilot.pause()
        assert virtual == []
        assert app.screen.get_component_styles("screen--selection").node is not None  # the new one


# ---------------------------------------------------------------- pitfall 6: side effects


async def test_server_apps_have_no_server_side_effects(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url))
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    async with serve(tmp_path) as (port, _recorder):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        client.send("s")  # open_url: the SSH driver's, which opens nothing on the server
        await client.wait_for_text("keys: s")
        await client.close()
    assert opened == []
    assert list(workdir.iterdir()) == []


async def test_non_server_apps_keep_textual_behaviour():
    app = App()
    assert not textual_fixes.is_server_app(app)
    redirect = sys.modules["textual.app"].redirect_stdout(app._capture_stdout)
    assert isinstance(redirect, contextlib.redirect_stdout)


# ---------------------------------------------------------------- pitfall 11: task factory


async def test_run_async_leaves_the_loop_task_factory_alone(monkeypatch):
    def eager_factory(loop, coro, **kwargs):  # what Python 3.12+ would install
        raise AssertionError("eager task factory installed on the server loop")

    monkeypatch.setattr(asyncio, "eager_task_factory", eager_factory, raising=False)
    loop = asyncio.get_running_loop()
    before = loop.get_task_factory()
    app = App()
    task = asyncio.create_task(app.run_async(headless=True, size=(80, 24)))
    await asyncio.sleep(0.2)
    assert app.is_running
    assert loop.get_task_factory() is before
    app.exit()
    await asyncio.wait_for(task, 5)
    assert loop.get_task_factory() is before


# ---------------------------------------------------------------- pitfall 2: active_app context


async def test_post_from_another_apps_context_reaches_only_the_target(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        alice = await ScreenClient.connect(port, username="alice")
        bob = await ScreenClient.connect(port, username="bob")
        await alice.wait_for_text("user=alice")
        await bob.wait_for_text("user=bob")
        app_a, app_b = recorder.live_apps()
        session_a, session_b = recorder.sessions

        # Shared code running inside A's context (e.g. a table notifying its subscribers).
        def notify_from_a(target: App) -> None:
            assert active_app.get() is app_a
            post_from_anywhere(target, lambda: Note("from factory"))
            post_from_anywhere(target, Note("from instance"))  # created in A's context

        assert session_a.context is not None
        session_a.context.call(notify_from_a, app_b)
        await bob.wait_for_text("note: from instance")
        assert [note.text for note in app_b.notes] == ["from factory", "from instance"]
        assert app_b.note_apps == [app_b, app_b]
        assert all(note._sender is app_b for note in app_b.notes)
        assert app_a.notes == []

        # A SessionContext keeps only a weak reference: a gone app is a no-op, not a leak.
        assert session_b.context is not None
        handle = session_b.context
        await bob.close()
        await asyncio.wait_for(session_b.task, 5)
        del app_b
        # Timer handles cancelled as the app shut down keep its context until the loop drops
        # them: let it turn before collecting.
        await asyncio.sleep(0.05)
        await all_taken_apart()
        collect_all()
        assert handle.app is None
        assert handle.post(Note("too late")) is False
        await alice.close()


async def test_session_context_capture_inside_an_app():
    app = App()
    token = active_app.set(app)
    try:
        context = SessionContext.capture()
    finally:
        active_app.reset(token)
    assert context.app is app
    with pytest.raises(RuntimeError):
        SessionContext.capture()


def test_screens_repaint_within_a_few_milliseconds_of_a_change():
    import textual.screen

    from harena.server.hosting.textual_fixes import SCREEN_UPDATE_PERIOD

    install()
    assert textual.screen.UPDATE_PERIOD == SCREEN_UPDATE_PERIOD <= 0.005


def test_css_is_parsed_once_for_every_app_with_the_same_theme() -> None:
    """Connection start-up: apps share parsed rules, keyed also by the theme's variables."""
    from textual.css.stylesheet import Stylesheet

    textual_fixes.install()
    css = "Fixture { color: $accent; }"
    where = ("tests", "Fixture")
    ann, bob = Stylesheet(variables={"accent": "red"}), Stylesheet(variables={"accent": "red"})
    cat = Stylesheet(variables={"accent": "blue"})
    ann_rules, bob_rules, cat_rules = (sheet._parse_rules(css, where) for sheet in (ann, bob, cat))
    assert bob_rules[0] is ann_rules[0]  # parsed once
    assert bob_rules is not ann_rules  # each stylesheet owns its list
    assert cat_rules[0] is not ann_rules[0]
    assert ann_rules[0].styles.color == Color.parse("red")
    assert cat_rules[0].styles.color == Color.parse("blue")
    cat.set_variables({"accent": "red"})  # a theme change parses with the new variables
    assert cat._parse_rules(css, where)[0] is ann_rules[0]


def test_apps_of_one_theme_share_its_css_variables_and_their_tokens() -> None:
    """Connection start-up: the theme's variables, their key and their tokens are made once for
    every app (tui/app.py, textual_fixes), not per session."""
    from textual.css.stylesheet import Stylesheet

    from harena.core.lobby import Lobby
    from harena.tui.app import HarenaApp

    ann, bob = (HarenaApp(Lobby(), name, name) for name in ("ann", "bob"))
    assert ann.get_css_variables() is bob.get_css_variables()
    assert ann.stylesheet._variables is bob.stylesheet._variables
    assert ann.stylesheet._variable_tokens is bob.stylesheet._variable_tokens
    assert ann.stylesheet._variable_tokens["primary"]  # tokens of the ansi theme's variables
    # Equal variables in distinct dicts share one key and one set of tokens too.
    cat = Stylesheet(variables=dict(ann.stylesheet._variables))
    assert textual_fixes.variables_key(cat) is textual_fixes.variables_key(ann.stylesheet)
    assert cat._variable_tokens is ann.stylesheet._variable_tokens
    dan = Stylesheet(variables={**ann.stylesheet._variables, "primary": "red"})
    assert dan._variable_tokens is not ann.stylesheet._variable_tokens
    assert dan._variable_tokens["primary"][0].value == "red"
