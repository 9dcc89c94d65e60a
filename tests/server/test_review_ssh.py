"""The review as a player uses it over real SSH at 80x24 (pyte): `ssh -t host review N` prints
the course and the turning points within 80 columns; at a finished table `i` opens the review
screen, the turning points are scrolled to and a number jumps the replay to that moment."""

from __future__ import annotations

from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import TableReview
from harena.core.table_like import TableLike
from harena.server.transport.hostkey import fingerprint
from harena.tui import review_calls
from tests.server.players import new_key, player
from tests.tui.review_tables import finished_table, review_of


def answering(review: TableReview):  # type: ignore[no-untyped-def]
    async def ask(
        _reviewer: Reviewer | None, table: TableLike, seat: int, progress: review_calls.Progress
    ) -> TableReview:
        progress(0.5)
        return review

    return ask


async def test_review_n_prints_the_course_and_turning_points_in_80_columns(
    make_server, monkeypatch
) -> None:
    server = await make_server()
    key = new_key()
    table = finished_table(server.lobby, "carthage", 2, identity=fingerprint(key))
    monkeypatch.setattr(review_calls, "ask_review", answering(review_of(table, [0.0, 0.4])))
    ann = await player(server, "ann", key, command=f"review {table.id}")  # with a terminal
    try:
        await ann.wait_closed()
        assert ann.exit_status == 0
        text = ann.screen_text()
        assert "Armor, from the start to round" in text and "Favor, from the start" in text
        assert "Where it turned for you · " in text
        assert "the search bot would choose best 2: about 40% less chance to win" in text
        assert all(len(line.rstrip()) <= 80 for line in text.splitlines())
    finally:
        await ann.close()


async def test_i_at_the_end_of_a_game_opens_the_review_and_a_number_jumps_the_replay(
    make_server, monkeypatch
) -> None:
    server = await make_server()
    key = new_key()
    table = finished_table(server.lobby, "carthage", 2, identity=fingerprint(key))
    review = review_of(table, [0.05, 0.3, 0.1])
    worst = review.turning_points(0)[0]
    monkeypatch.setattr(review_calls, "ask_review", answering(review))
    ann = await player(server, "ann", key, command=f"table {table.id}")
    try:
        await ann.wait_for_text("i how it went")
        ann.send("i")
        await ann.wait_for_text("how it went · Carthage")
        await ann.wait_for_text("1-5: the replay at that moment")
        await ann.wait_for_text("Armor, from the start")  # drawn off the loop
        for _ in range(10):
            ann.send("\x1b[B")  # Down: the turning points below the course
        await ann.wait_for_text("about 30% less chance to win")
        assert "Where it turned for you" in ann.screen_text()
        ann.send("1")
        last = len(table.game.actions)
        await ann.wait_for_text(f"move {worst.position}/{last}")
        assert "Table 1 · replay" in ann.screen_text()
        ann.send("\x1b")  # Esc: back to the review
        await ann.wait_for_text("1-5: the replay at that moment")
    finally:
        await ann.close()
