"""Shared fixtures: the High Card fixture game is registered for every test."""

from __future__ import annotations

import pytest

from harena.core import engine
from tests import fixture_game


@pytest.fixture(autouse=True, scope="session")
def _register_fixture_game() -> None:
    fixture_game.install()
    yield
    engine.unregister(fixture_game.HighCard.name)
