"""What a client sends reaches a log line escaped (server/common/log_safe.py)."""

from __future__ import annotations

import logging

from harena.server.common.log_safe import SafeFormatter, printable
from harena.server.service.ssh_server import MAX_ENV_VALUE, accepts_env


def test_control_characters_are_escaped_and_long_strings_cut():
    assert printable("xterm\n\x1b]0;owned\x07") == "xterm\\n\\x1b]0;owned\\x07"
    assert printable("ann\u202e") == "ann\\u202e"  # a right-to-left override
    assert printable("a\\n") == "a\\\\n"  # a literal backslash cannot fake an escape
    assert printable("x" * 100, limit=10) == "x" * 10 + "..."
    assert printable("Zoë 世界") == "Zoë 世界"


def test_the_formatter_escapes_any_message_but_keeps_a_traceback_readable():
    formatter = SafeFormatter("%(levelname)s %(message)s")
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "t", logging.ERROR, __file__, 1, "user %s", ("a\nFAKE\x1b[2J",), sys.exc_info()
        )
    text = formatter.format(record)
    first, *rest = text.splitlines()
    assert first == "ERROR user a\\nFAKE\\x1b[2J"
    assert rest[0].startswith("Traceback")


def test_the_environment_kept_is_what_the_server_reads():
    assert accepts_env(b"LANG", b"en_US.UTF-8", 0)
    assert accepts_env(b"LC_CTYPE", b"C.UTF-8", 0) and accepts_env(b"COLORTERM", b"truecolor", 0)
    assert not accepts_env(b"LD_PRELOAD", b"x", 0)
    assert not accepts_env(b"LANG", b"x" * (MAX_ENV_VALUE + 1), 0)
    assert not accepts_env(b"LANG", b"C", 16)  # already full
