"""Small Textual apps and a server helper for the driver/session tests."""

from __future__ import annotations

import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Label

from harena.server.transport.session import AppSession, SessionInfo
from tests.sshscreen import open_test_server


class Note(Message):
    """A message another session (or shared code) sends to a KeyApp."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class KeyApp(App[None]):
    """Shows who is connected, the last keys, pastes, the size and notes from elsewhere.

    Keys with a meaning: `x` crashes the app, `p` prints, `s` tries every server-side side
    effect, `q` exits.
    """

    CSS = """
    Label { width: 100%; height: 1; }
    #right { dock: right; width: 3; }
    """

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info
        self.keys: list[str] = []
        self.notes: list[Note] = []
        self.note_apps: list[Any] = []

    def compose(self) -> ComposeResult:
        info = self.info
        yield Label(
            f"user={info.username} id={info.identity} term={info.term_type} "
            f"colorterm={info.colorterm} size={info.size[0]}x{info.size[1]}",
            id="who",
        )
        yield Label("keys:", id="keys")
        yield Label("last:", id="last")
        yield Label("paste:", id="paste")
        yield Label("size:", id="size")
        yield Label("note:", id="note")
        yield Label("R>|", id="right")

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)
        self.query_one("#keys", Label).update("keys: " + " ".join(self.keys[-8:]))
        self.query_one("#last", Label).update(f"last: {event.key}")
        if event.key == "x":
            raise RuntimeError("boom (test crash)")
        if event.key == "p":
            print("printed by an app")
        if event.key == "s":
            self.open_url("https://example.com")
        if event.key == "q":
            self.exit()

    def on_paste(self, event: events.Paste) -> None:
        self.query_one("#paste", Label).update(f"paste: {event.text}")

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#size", Label).update(f"size: {event.size.width}x{event.size.height}")

    def on_note(self, message: Note) -> None:
        from textual._context import active_app

        self.notes.append(message)
        self.note_apps.append(active_app.get())
        self.query_one("#note", Label).update(f"note: {message.text}")

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        self.query_one("#note", Label).update(f"note: delivery failed {event.name}")


class AppRecorder:
    """An app factory that remembers (weakly) every app and (strongly) every session it made."""

    def __init__(self, app_class: Callable[[SessionInfo], App[Any]] = KeyApp) -> None:
        self.app_class = app_class
        self.apps: list[weakref.ref[App[Any]]] = []
        self.sessions: list[AppSession] = []

    def __call__(self, info: SessionInfo) -> App[Any]:
        app = self.app_class(info)
        self.apps.append(weakref.ref(app))
        return app

    def live_apps(self) -> list[App[Any]]:
        return [app for ref in self.apps if (app := ref()) is not None]


@asynccontextmanager
async def serve(
    tmp_path: Path,
    recorder: AppRecorder | None = None,
    *,
    identity: str | None = "SHA256:test",
    keep_sessions: bool = True,
    **session_options: Any,
) -> AsyncIterator[tuple[int, AppRecorder]]:
    """An SSH server whose sessions run `recorder`'s apps; yields (port, recorder)."""
    recorder = recorder or AppRecorder()

    def make_session() -> AppSession:
        session = AppSession(recorder, identity=identity, **session_options)
        if keep_sessions:
            recorder.sessions.append(session)
        return session

    async with open_test_server(make_session, tmp_path) as port:
        yield port, recorder
