"""Driving any table screen by keys, as a player would: read the prompt bar, press its keys."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from harena.tui.app import HarenaApp
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.prompt_bar import PAGE_SIZE, SLOT_KEYS, PromptBar
from harena.tui.widgets.status_line import StatusLine
from tests.tui.harness import until


def table_screen(app: HarenaApp) -> TableScreen:
    assert isinstance(app.screen, TableScreen), app.screen
    return app.screen


def status(app: HarenaApp) -> str:
    return table_screen(app).query_one(StatusLine).text


def prompt_bar(app: HarenaApp) -> PromptBar:
    return table_screen(app).query_one(PromptBar)


def decisions(app: HarenaApp) -> list[dict[str, Any]]:
    """The seat's open decisions as its screen has them (standing choices left out)."""
    return [p for p in table_screen(app).view["game"]["prompts"] if not p.get("standing")]


def prompt_kind(app: HarenaApp) -> str | None:
    prompts = decisions(app)
    return prompts[0]["kind"] if prompts else None


async def until_prompt(app: HarenaApp, kind: str | None = None) -> None:
    """Wait until the screen shows a prompt for this seat (of `kind`, if given)."""
    await until(lambda: prompt_kind(app) is not None and (kind is None or prompt_kind(app) == kind))


def slot_of(app: HarenaApp, choice_id: str) -> int:
    """Where the prompt bar numbers `choice_id` (page * PAGE_SIZE + slot)."""
    number = prompt_bar(app).number_of(choice_id)
    assert number is not None, (choice_id, prompt_bar(app).choices)
    return number


async def until_unguarded(app: HarenaApp) -> None:
    """Wait while the prompt bar refuses number keys (its choices were just replaced under the
    player by someone else's move): a player reads the new choices before pressing."""
    await until(lambda: prompt_bar(app).guarded() == 0)


async def press_choice(
    pilot: Pilot[Any], app: HarenaApp, choice_id: str, *, confirm: bool = False
) -> None:
    """Press the number key of `choice_id`, turning pages first if needed (`confirm`: and Enter
    when the board asks for it to be confirmed)."""
    await until_unguarded(app)
    index = slot_of(app, choice_id)
    bar = prompt_bar(app)
    while bar.page != index // PAGE_SIZE:
        await pilot.press(
            "right_square_bracket" if bar.page < index // PAGE_SIZE else "left_square_bracket"
        )
    await pilot.press(SLOT_KEYS[index % PAGE_SIZE])
    if confirm and getattr(app.screen, "_confirming", None) == choice_id:
        await pilot.press("enter")
