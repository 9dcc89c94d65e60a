"""Players' terminals for the SSH end-to-end tests: a real asyncssh client with a PTY whose
screen is read through pyte (tests/sshscreen.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

import asyncssh

from harena.server.ssh_server import HarenaServer
from tests.sshscreen import ScreenClient


async def player(
    server: HarenaServer, name: str, key: asyncssh.SSHKey | None = None, **options
) -> ScreenClient:
    """A player's terminal: xterm-256color, 80x24, logged in with `key`, or as a guest without
    one (asyncssh's client only tries keyboard-interactive when it has a password to offer)."""
    auth = {"client_keys": [key]} if key else {"client_keys": [], "password": "-"}
    return await ScreenClient.connect(server.port, username=name, agent_path=None, **auth, **options)


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
    shown: dict[str, str] = {}
    for row in PROMPT_ROWS:
        line = lines[row] if row < len(lines) else ""
        two = len(line) > _COLUMNS[1] + 3 and _KEY.match(line[_COLUMNS[1] : _COLUMNS[1] + 3])
        for x in _COLUMNS if two else _COLUMNS[:1]:
            key = _KEY.match(line[x : x + 3])
            if key:
                end = _COLUMNS[1] if two and x == _COLUMNS[0] else len(line)
                shown[key.group(1)] = line[x + 4 : end].strip()
    return shown


def page_of(client: ScreenClient) -> tuple[int, int]:
    """(page shown, pages) of the prompt bar's choices."""
    found = re.search(r"page (\d+)/(\d+)  \[ \]", client.lines()[PROMPT_TITLE_ROW])
    return (int(found.group(1)), int(found.group(2))) if found else (1, 1)


async def press_choice(client: ScreenClient, label: str, timeout: float = 5.0) -> str:
    """Press the number key of the choice whose label starts with `label`, turning pages with
    `]` until it shows; returns the key pressed."""

    def find() -> str | None:
        return next((k for k, text in choices_shown(client).items() if text.startswith(label)), None)

    await client.wait_until(lambda: bool(choices_shown(client)), timeout, f"choices (for {label!r})")
    page, pages = page_of(client)
    while (key := find()) is None:
        if page == pages:
            raise AssertionError(f"no choice {label!r} on the prompt bar:\n{client.screen_text()}")
        client.send("]")
        await client.wait_until(lambda p=page: page_of(client)[0] != p, timeout, "the next page")
        page, pages = page_of(client)
    client.send(key)
    return key


async def play_by_screen(
    client: ScreenClient, key_for: Callable[[ScreenClient], str], limit: int = 3000
) -> int:
    """Play to the end by reading the screen only: `key_for(client)` is the key to press when
    choices are shown, Enter again when a choice asks to be confirmed. Returns the keys pressed."""
    pressed = 0
    for _ in range(limit):
        if "GAME OVER" in client.screen_text():
            return pressed
        pressed += 1
        if "Press the same key again" in client.lines()[STATUS_ROW]:
            client.send("\r")
        elif has_choices(client):
            client.send(key_for(client))
        else:
            pressed -= 1
            await client.wait_until(lambda: has_choices(client) or "GAME OVER" in client.screen_text(), 20, "my turn")
            continue
        before = client.bytes_received
        await client.wait_until(lambda: client.bytes_received != before, 5, "an answer")
        await client.wait_quiet(0.05)
    raise AssertionError("the game did not end")
