"""`harena play GAME`: the same screens in a local terminal (a real PTY read through pyte)."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pyte

REPO = Path(__file__).resolve().parents[2]

PLAY = textwrap.dedent(
    """
    from tests.fixture_game import install
    install()
    from harena.server.commands.cli import main
    raise SystemExit(main(["play", "highcard", "--bots", "1", "--bot-delay", "0.05", "--data", DATA]))
    """
)


class LocalTerminal:
    """A pseudo-terminal running a command, rendered on a pyte screen."""

    def __init__(self, argv: list[str], cols: int = 80, rows: int = 24) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, cwd=REPO, env=env, start_new_session=True
        )
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def pump(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the child closed the terminal
                return
            if not data:
                return
            self.raw.extend(data)
            self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, text: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{text!r} never showed; screen:\n{self.text()}")
            self.pump(0.05)

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        os.close(self.master)


def test_a_whole_game_against_a_bot_in_the_local_terminal(tmp_path: Path) -> None:
    """The log goes to a file under the data folder, never over the game (issue 36)."""
    term = LocalTerminal([sys.executable, "-c", PLAY.replace("DATA", repr(str(tmp_path)))])
    try:
        term.wait_for("Table 1 · High Card")  # straight to the table, not the lobby
        term.wait_for("you: ")
        term.wait_for("random bot")
        for _ in range(3):  # three rounds: play the lowest card each time
            term.wait_for("1  play")
            term.send("1")
            term.pump(0.3)
        term.wait_for("Reason: most rounds won")
        term.send("\x1b")  # back to the lobby
        term.wait_for("you are")
        term.send("q")
        term.wait_for("Quit")
        term.send("y")
        assert term.proc.wait(15) == 0
        term.pump(0.2)
        assert b"\x1b[?1049l" in term.raw  # the alternate screen was left: the shell is back
        assert b" INFO " not in term.raw  # no log line was written over the screen
        assert "sits in seat 0" in (tmp_path / "logs" / "terminal.log").read_text()
    finally:
        term.close()


def test_harena_play_learn_opens_the_guided_first_game(tmp_path: Path) -> None:
    learn = f'from harena.server.commands.cli import main\nraise SystemExit(main(["play", "carthage", "--learn", "--bot-delay", "0.05", "--data", {str(tmp_path)!r}]))'
    term = LocalTerminal([sys.executable, "-c", learn])
    try:
        term.wait_for("Guide 1/18 ◀ the arena")
        term.wait_for("Welcome to the arena of Carthage")
        term.wait_for("5  Purple Gaul")  # the choices show beside the panel
        term.send("\x1b")
        term.wait_for("Guide 2/18 ▼ your choices")
        term.wait_for("Choose your gladiator")
        term.send("\x1b")
        deadline = time.monotonic() + 15
        while "Guide 2/18" in term.text() and time.monotonic() < deadline:
            term.pump(0.05)  # the panel closes: then the key is a key, not Alt+5
        term.send("5")  # the guide's advice: the Purple Gaul
        term.wait_for("Guide 3/18 ◀ the arena")
        term.wait_for("Enter the arena: placement")
        term.send("\x11")  # ctrl+q
        term.proc.wait(10)
    finally:
        term.close()
