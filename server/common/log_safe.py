"""Nothing a client sends reaches a log line, or the operator's terminal, raw.

A user name, a TERM, a subsystem name are the client's bytes: with a newline they forge log
lines, with an ESC they drive the terminal the operator reads the log in. `printable()` escapes
them where they are logged; `SafeFormatter` escapes every control character in any message
(asyncssh's own log lines included) as a second net.
"""

from __future__ import annotations

import logging
import unicodedata

MAX_LOGGED = 80
"""Characters of a client's string that reach a log line (the rest is cut, marked `...`)."""


def printable(text: object, limit: int = MAX_LOGGED) -> str:
    """`text` with control and invisible characters escaped (`\\n`, `\\x1b`, `\\u202e`), cut to
    `limit` characters."""
    text = str(text)
    cut = len(text) > limit
    out = []
    for char in text[:limit]:
        if char == "\\":
            out.append("\\\\")
        elif unicodedata.category(char)[0] in "CZ" and char != " ":
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out) + ("..." if cut else "")


class SafeFormatter(logging.Formatter):
    """A formatter whose messages carry no control characters (tracebacks keep their lines)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        formatted = super().formatMessage(record)
        return "".join(
            char
            if char in "\t" or unicodedata.category(char)[0] != "C"
            else char.encode("unicode_escape").decode("ascii")
            for char in formatted
        )
