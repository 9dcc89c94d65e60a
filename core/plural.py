"""Counted words as a player reads them: "1 wound", "2 wounds", "1 denarius", "3 denarii".

Every text that shows a number before a noun says it through here, so no screen or log line
reads "1 denarii" or "2 game(s)".
"""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`n` and the noun that agrees with it (`plural` defaults to `singular` + "s")."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def denarii(n: int) -> str:
    """Spartacus money: "1 denarius", "0 denarii", "5 denarii"."""
    return counted(n, "denarius", "denarii")
