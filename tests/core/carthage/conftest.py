"""Carthage is registered only while its own tests run.

Importing `core.carthage.rules` registers the game for the whole process, and tests elsewhere
(tests/tui) still expect High Card to be the first game in the lobby until the lead adds
Carthage to `engine.BUILTIN_GAMES`; so the registration is undone at import and redone here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core import engine
from core.carthage.rules import Carthage

engine.unregister(Carthage.name)


@pytest.fixture(autouse=True, scope="package")
def _register_carthage() -> Iterator[None]:
    engine.register(Carthage)
    yield
    engine.unregister(Carthage.name)
