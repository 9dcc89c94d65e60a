"""Players' terminals for the SSH end-to-end tests: a real asyncssh client with a PTY whose
screen is read through pyte (tests/sshscreen.py)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import asyncssh

from harena.server.service.ssh_server import HarenaServer
from harena.tui.widgets.prompt_bar import CHANGE_GUARD
from tests.sshscreen import ScreenClient


async def player(
    server: HarenaServer, name: str, key: asyncssh.SSHKey | None = None, **options
) -> ScreenClient:
    """A player's terminal: xterm-256color, 80x24, logged in with `key`, or as a guest without
    one (asyncssh's client only tries keyboard-interactive when it has a password to offer)."""
    # client_keys=None, not []: asyncssh reads ~/.ssh when given no keys (a developer's own key
    # would log the "guest" in as that key).
    auth = {"client_keys": [key]} if key else {"client_keys": None, "password": "-"}
    return await ScreenClient.connect(
        server.port, username=name, agent_path=None, **auth, **options
    )


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


# --- the prompt bar, as a player reads it at 80x24 -----------------------------------------------

PROMPT_TITLE_ROW = 15  # the prompt's text, and "page n/m  [ ]" when the choices need pages
PROMPT_ROWS = range(16, 21)  # its choice rows: keys 1-5 down the left column, 6-0 down the right
STATUS_ROW = 22
_COLUMNS = (1, 40)  # where a choice's key starts, left and right column (two columns of 39)
_KEY = re.compile(r" ([0-9]) $")


def has_choices(client: ScreenClient) -> bool:
    lines = client.lines()
    return any(lines[row].startswith("  1  ") for row in PROMPT_ROWS if row < len(lines))


def choices_shown(client: ScreenClient) -> dict[str, str]:
    """The choices on the prompt bar's page shown: key -> label (cut with "…" if long)."""
    lines = client.lines()
    rows = [lines[row] if row < len(lines) else "" for row in PROMPT_ROWS]
    # two columns only when more than five choices: the left one full, the right one begun
    left, right = _COLUMNS
    two = all(_KEY.match(row[left : left + 3]) for row in rows) and bool(
        _KEY.match(rows[0][right : right + 3])
    )
    shown: dict[str, str] = {}
    for row in rows:
        for x, end in ((left, right), (right, len(row))) if two else ((left, len(row)),):
            key = _KEY.match(row[x : x + 3])
            if key:
                shown[key.group(1)] = row[x + 4 : end].strip()
    return shown


def page_of(client: ScreenClient) -> tuple[int, int]:
    """(page shown, pages) of the prompt bar's choices."""
    found = re.search(r"page (\d+)/(\d+)  \[ \]", client.lines()[PROMPT_TITLE_ROW])
    return (int(found.group(1)), int(found.group(2))) if found else (1, 1)


async def press_choice(client: ScreenClient, label: str, timeout: float = 5.0) -> str:
    """Press the number key of the choice whose label starts with `label`, turning pages with
    `]` until it shows; returns the key pressed."""

    def find() -> str | None:
        return next(
            (k for k, text in choices_shown(client).items() if text.startswith(label)), None
        )

    await client.wait_until(
        lambda: bool(choices_shown(client)), timeout, f"choices (for {label!r})"
    )
    page, pages = page_of(client)
    while (key := find()) is None:
        if page == pages:
            raise AssertionError(f"no choice {label!r} on the prompt bar:\n{client.screen_text()}")
        client.send("]")
        await client.wait_until(lambda p=page: page_of(client)[0] != p, timeout, "the next page")
        page, pages = page_of(client)
    await send_choice_key(client, key)
    return key


CHANGED = "the choices just changed"
"""The prompt bar's answer to a key that may have been meant for choices just replaced."""


async def send_choice_key(client: ScreenClient, key: str, attempts: int = 3) -> None:
    """Press a number key; if the choices had just changed under the player (someone else's
    move), read them (wait out the guard) and press it again, as a player would."""
    for _ in range(attempts):
        before = client.bytes_received
        client.send(key)
        try:
            await client.wait_until(lambda b=before: client.bytes_received != b, 2, "an answer")
        except TimeoutError:
            return
        await client.wait_quiet(0.05)
        if CHANGED not in client.lines()[STATUS_ROW]:
            return
        await asyncio.sleep(CHANGE_GUARD)


async def play_by_screen(
    client: ScreenClient, key_for: Callable[[ScreenClient], str], limit: int = 3000
) -> int:
    """Play to the end by reading the screen only: `key_for(client)` is the key to press when
    choices are shown, Enter again when a choice asks to be confirmed. Returns the keys pressed."""
    pressed = 0
    for _ in range(limit):
        if "GAME OVER" in client.screen_text():
            return pressed
        if CHANGED in client.lines()[STATUS_ROW]:
            await asyncio.sleep(CHANGE_GUARD)  # refused: read the new choices, then press again
        if "Press again or Enter to confirm" in client.lines()[STATUS_ROW]:
            key = "\r"
        elif has_choices(client):
            key = key_for(client)
        else:
            await client.wait_until(
                lambda: has_choices(client) or "GAME OVER" in client.screen_text(), 20, "my turn"
            )
            continue
        before = client.bytes_received
        client.send(key)
        pressed += 1
        try:
            await client.wait_until(lambda b=before: client.bytes_received != b, 5, "an answer")
        except TimeoutError:
            if CHANGED not in client.lines()[STATUS_ROW]:
                raise
            continue  # refused again, with the same message: the choices changed once more
        await client.wait_quiet(0.05)
    raise AssertionError("the game did not end")
