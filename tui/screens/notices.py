"""Where to be told that a decision is yours while you are away (lobby key `a`).

The form reads and writes the player's settings (core/players.py, kept per key); what a notice
says and when one is due is core/notices.py, delivery is the server's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar
from urllib.parse import urlsplit

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, Static

from harena.core.notices import (
    DEFAULT_AFTER_MINUTES,
    DEFAULT_DAILY,
    MAX_AFTER_MINUTES,
    MAX_DAILY,
    email_problem,
    webhook_problem,
)
from harena.tui.screens.dialog import DialogScreen

FIELDS = ("notice_webhook", "notice_email", "notice_after", "notice_daily")


class NoticeSettingsScreen(DialogScreen[bool]):
    """Dismissed with True once saved, False when closed without saving."""

    DEFAULT_CSS = """
    NoticeSettingsScreen > Vertical {
        width: 76;
    }
    NoticeSettingsScreen Horizontal {
        height: 1;
    }
    NoticeSettingsScreen .label {
        width: 16;
    }
    NoticeSettingsScreen Input {
        width: 1fr;
    }
    NoticeSettingsScreen #notice-status {
        height: 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close without saving", show=False),
        Binding("tab,down", "app.focus_next", "next field", show=False),
        Binding("shift+tab,up", "app.focus_previous", "previous field", show=False),
    ]

    def __init__(
        self,
        get: Callable[[str], Any],
        save: Callable[[dict[str, Any]], None],
        channels: tuple[str, ...],
    ) -> None:
        """
        Args:
            get: the player's setting of a name (`PlayerSettings.get` for their key).
            save: keeps the settings given (name -> value).
            channels: what the server offers ("webhook", "email").
        """
        super().__init__()
        self._get = get
        self._save = save
        self.channels = channels

    def compose(self) -> ComposeResult:
        mail = "email" in self.channels
        with Vertical() as frame:
            frame.border_title = "Notices while you are away"
            yield Static(
                Content(
                    "When a table has waited for your decision and you are not connected, "
                    "harena can tell you: a webhook (a JSON POST: ntfy, Discord, Slack, Matrix) "
                    + ("or an e-mail. " if mail else "(this server sends no e-mail). ")
                    + "It says which table and how long it waited, nothing else. Empty: none."
                )
            )
            # A placeholder never looks like a value: it says what an empty field means.
            yield self._row("Webhook URL", "notice_webhook", "(none: paste an https:// URL)")
            if mail:
                yield self._row("E-mail", "notice_email", "(none: type an address)")
            yield self._row("After minutes", "notice_after", f"(empty: {DEFAULT_AFTER_MINUTES})")
            yield self._row("At most a day", "notice_daily", f"(empty: {DEFAULT_DAILY})")
            yield Static("", id="notice-status")
            yield Static(
                Content.assemble(
                    ("Enter", "bold"),
                    " saves  ",
                    ("Tab/↑↓", "bold"),
                    " field  ",
                    ("Esc", "bold"),
                    " closes without saving",
                )
            )

    def _row(self, label: str, name: str, placeholder: str) -> Horizontal:
        field = Input(
            str(self._get(name)), placeholder=placeholder, compact=True, id=name, max_length=320
        )
        field.cursor_blink = False
        return Horizontal(Static(label, classes="label"), field)

    def on_mount(self) -> None:
        self.query_one("#notice_webhook", Input).focus()

    @property
    def status(self) -> Static:
        return self.query_one("#notice-status", Static)

    def values(self) -> tuple[dict[str, Any], str]:
        """The settings typed, checked: (values, "") or ({}, what is wrong)."""
        typed = {i.id: i.value.strip() for i in self.query(Input) if i.id in FIELDS}
        problem = webhook_problem(typed["notice_webhook"]) or email_problem(
            typed.get("notice_email", "")
        )
        if problem:
            return {}, problem
        after = typed["notice_after"] or str(DEFAULT_AFTER_MINUTES)  # emptied: the default
        daily = typed["notice_daily"] or str(DEFAULT_DAILY)
        if not after.isdigit() or not 1 <= int(after) <= MAX_AFTER_MINUTES:
            return {}, f"after minutes: a whole number from 1 to {MAX_AFTER_MINUTES}"
        if not daily.isdigit() or not 1 <= int(daily) <= MAX_DAILY:
            return {}, f"at most a day: a whole number from 1 to {MAX_DAILY}"
        values: dict[str, Any] = {
            "notice_webhook": typed["notice_webhook"],
            "notice_after": int(after),
            "notice_daily": int(daily),
        }
        if "notice_email" in typed:
            values["notice_email"] = typed["notice_email"]
        return values, ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        values, problem = self.values()
        if problem:
            self.status.update(Content.assemble(("Error:", "bold reverse"), f" {problem}"))
            return
        self._save(values)
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)


def saved_text(get: Callable[[str], Any]) -> str:
    """What the lobby's status line says once the form is saved: every setting as kept, in one
    line of 80 columns (a webhook by its host only: the rest of its URL is often a secret)."""
    where = []
    if get("notice_webhook"):
        where.append(f"webhook {urlsplit(get('notice_webhook')).hostname}")
    if get("notice_email"):
        where.append(f"e-mail {get('notice_email')}")
    if not where:
        return "Saved: no notices while you are away"
    after, daily = get("notice_after"), get("notice_daily")
    return f"Saved: {', '.join(where)}; after {after} min, at most {daily}/day"
