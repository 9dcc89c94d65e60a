"""The prompt bar's numbers within one decision (issue 36, "choices renumber under a finger"):
a choice keeps its number while it stays offered, a gone one's number is never given to
another, and a new decision numbers afresh."""

from __future__ import annotations

from textual.app import App, ComposeResult

from harena.tui.widgets.prompt_bar import PromptBar


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PromptBar()


def prompt(*ids: str) -> list[dict]:
    return [{"text": "Choose", "choices": [[cid, cid.upper()] for cid in ids]}]


def numbers(bar: PromptBar) -> dict[str, int]:
    return {cid: n for cid, _ in bar.choices if (n := bar.number_of(cid)) is not None}


async def test_within_a_decision_numbers_stay_and_gone_ones_are_never_reused() -> None:
    async with BarApp().run_test(size=(80, 24)) as pilot:
        bar = pilot.app.query_one(PromptBar)
        bar.show_prompts(prompt("a", "b", "c"), decision=4)
        bar.show_prompts(prompt("a", "c"), decision=4)  # b goes: c keeps 3
        assert numbers(bar) == {"a": 0, "c": 2} and bar.gone_at(1) == "B"
        bar.show_prompts(prompt("a"), decision=4)  # the last one goes too
        bar.show_prompts(prompt("a", "d"), decision=4)  # d comes: after them, not in a gap
        assert numbers(bar) == {"a": 0, "d": 3}
        assert (bar.gone_at(1), bar.gone_at(2)) == ("B", "C")
        bar.show_prompts(prompt("a", "b", "d"), decision=4)  # b back: at its own number
        assert numbers(bar) == {"a": 0, "b": 1, "d": 3}
        await pilot.pause()
        assert "gone: C" in bar.text and " 2  B" in bar.text


async def test_a_new_decision_or_a_list_with_nothing_left_numbers_afresh() -> None:
    async with BarApp().run_test(size=(80, 24)) as pilot:
        bar = pilot.app.query_one(PromptBar)
        bar.show_prompts(prompt("a", "b", "c"), decision=4)
        bar.show_prompts(prompt("b", "c"), decision=5)  # the seat answered: a new list
        assert numbers(bar) == {"b": 0, "c": 1} and bar.gone_at(2) is None
        bar.show_prompts(prompt("x", "y"), decision=5)  # nothing of the old list is left
        assert numbers(bar) == {"x": 0, "y": 1}
        other = [{**prompt("z", "y")[0], "kind": "another_question"}]
        bar.show_prompts(other, decision=5)  # another kind of question: its own numbers
        assert numbers(bar) == {"z": 0, "y": 1} and bar.gone_at(0) is None


async def test_gaps_that_would_cost_a_page_number_afresh() -> None:
    async with BarApp().run_test(size=(80, 24)) as pilot:
        bar = pilot.app.query_one(PromptBar)
        ten = [f"c{n}" for n in range(10)]
        bar.show_prompts(prompt(*ten), decision=1)
        bar.show_prompts(prompt(*ten[1:], "new"), decision=1)  # 11 places would need 2 pages
        assert bar.pages == 1 and numbers(bar)["new"] == 9
