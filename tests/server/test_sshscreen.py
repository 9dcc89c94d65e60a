"""The test client's screen text: kept row by row from pyte's dirty rows, it must always equal
what `pyte.Screen.display` shows (every end-to-end test reads the screen through it)."""

from __future__ import annotations

import random

from tests.sshscreen import ScreenClient

CHUNKS = [
    b"hello\r\nworld",
    b"\x1b[2J\x1b[H",
    "wide 世界 chars\r\n".encode(),
    b"\x1b[5;10Hmiddle\x1b[K",
    b"\x1b[3;20r\x1b[20;1H\n\n\nscrolled",  # a scroll region, scrolled
    b"\x1b[r\x1b[10;1H\x1b[2L\x1b[3M",  # insert and delete lines
    b"\x1b[1;1H\x1b[4P\x1b[3@",  # delete and insert characters
    b"\x1b[12;5H\x1b[1J\x1b[15;5H\x1b[0J",  # erase above and below
    b"\x1b[?1049h\x1b[Halternate\x1b[?1049l",
    b"\x1bM\x1bD\x1bE",  # reverse index, index, next line
    "\x1b[24;79Hé\u0301x".encode(),  # a combining mark, then autowrap at the corner
]


def display(client: ScreenClient) -> list[str]:
    return [line.rstrip() for line in client.screen.display]


def test_lines_follow_every_kind_of_change_including_resizes() -> None:
    client = ScreenClient(30, 24)
    rng = random.Random(7)
    for step in range(300):
        client._received(rng.choice(CHUNKS) + b"x" * rng.randrange(40), stderr=False)
        if step % 50 == 49:
            client.screen.resize(rng.choice([20, 24, 30]), rng.choice([30, 40, 80]))
        if rng.random() < 0.7:  # not after every chunk: dirty rows pile up between reads
            assert client.lines() == display(client), step
    assert client.lines() == display(client)
