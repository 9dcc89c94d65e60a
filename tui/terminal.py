"""What the player's terminal can show, from the environment its SSH client sent.

Only the character set is decided here: colour depth is the server's (TERM/COLORTERM). A
terminal is taken to be UTF-8 unless its locale says otherwise: the first of LC_ALL, LC_CTYPE
and LANG that is set decides (as the C library does), and a terminal type that never speaks
UTF-8 (a real VT100, a dumb terminal) stays ASCII. Most clients send no locale at all (OpenSSH
forwards LANG only with SendEnv) and almost every terminal today is UTF-8.
"""

from __future__ import annotations

from collections.abc import Mapping

ASCII_TERMS = ("dumb", "vt52", "vt100", "vt102", "vt220", "ansi")


def utf8_terminal(env: Mapping[str, str], term: str = "") -> bool:
    """True if the terminal can be sent UTF-8 text beyond ASCII."""
    if term.lower() in ASCII_TERMS:
        return False
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value:
            normalized = value.lower().replace("-", "")
            return "utf8" in normalized
    return True
