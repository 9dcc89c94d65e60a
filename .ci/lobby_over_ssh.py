"""CI: connect to a running `harena serve` as a player would (asyncssh with a PTY, read through
pyte) and require its lobby, with both games offered in the new-table dialog.

Usage: python .ci/lobby_over_ssh.py SERVE_LOG (the server's stdout, which names its port)."""

from __future__ import annotations

import asyncio
import re
import sys
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="DSA is deprecated")  # asyncssh on cryptography 51

import asyncssh  # noqa: E402

from tests.sshscreen import ScreenClient  # noqa: E402


async def main(log_path: Path) -> None:
    deadline = time.monotonic() + 30
    port = None
    while port is None:
        found = re.search(
            r"listening on \S+:(\d+)", log_path.read_text() if log_path.exists() else ""
        )
        if found:
            port = int(found.group(1))
        elif time.monotonic() > deadline:
            raise SystemExit(f"harena serve did not start:\n{log_path.read_text()}")
        else:
            await asyncio.sleep(0.1)
    client = await ScreenClient.connect(
        port,
        username="ci",
        client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        agent_path=None,
    )
    await client.wait_for_text("you are ci", timeout=15)
    client.send("n")
    await client.wait_for_text("New table", timeout=10)
    await client.wait_for_text("Carthage", timeout=10)
    for _ in range(4):  # the dialog shows one game at a time; right arrow for the next
        client.send("\x1b[C")
        try:
            await client.wait_for_text("Spartacus", timeout=2)
            break
        except TimeoutError:
            continue
    else:
        raise SystemExit("the new-table dialog never offered Spartacus")
    await client.close()
    print(f"lobby over SSH on port {port}: ok")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
