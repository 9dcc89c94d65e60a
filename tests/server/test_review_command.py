"""`ssh host review N` over real SSH: a finished table's course as text, then where it turned
for the player asking; an unknown or unfinished table is named in one line on stderr."""

from __future__ import annotations

import pytest

from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import TableReview
from harena.core.table_like import TableLike
from harena.server.transport.hostkey import fingerprint
from harena.tui import review_calls
from harena.tui.review_calls import Unanswered
from tests.server.players import new_key
from tests.server.test_ssh_commands import run
from tests.tui.review_tables import finished_table, review_of


async def test_review_prints_the_course_and_your_turning_points(make_server, monkeypatch) -> None:
    server = await make_server()
    key = new_key()
    table = finished_table(server.lobby, "carthage", 2, identity=fingerprint(key))
    review = review_of(table, [0.0, 0.25, 0.1])
    asked: list[int] = []

    async def ask(
        _reviewer: Reviewer | None, t: TableLike, seat: int, progress: review_calls.Progress
    ) -> TableReview:
        asked.append(seat)
        return review

    monkeypatch.setattr(review_calls, "ask_review", ask)
    status, out, err = await run(server, key, f"review {table.id}")
    assert status == 0 and not err
    lines = out.splitlines()
    assert lines[0] == f"Table {table.id} · Carthage · how it went"
    assert any(line.startswith("Armor, from the start to round") for line in lines)
    assert any("(ann)" in line for line in lines)  # as Carthage names a player
    assert "Where it turned for you · " in out
    assert "about 25% less chance to win" in out.split("about 10% less")[0]  # worst first
    assert all(len(line) <= 80 for line in lines)
    assert "\x1b" not in out and not server.sessions
    assert asked == [0]  # only ann's own seat: the table did not allow every seat's


async def test_a_player_of_another_seat_or_a_passer_by_sees_only_the_course(
    make_server, monkeypatch
) -> None:
    server = await make_server()
    table = finished_table(server.lobby, "carthage", 2, identity="someone-else")
    monkeypatch.setattr(review_calls, "ask_review", pytest.fail)  # nobody's review is asked for
    status, out, err = await run(server, new_key(), f"review {table.id}")
    assert status == 0 and not err
    assert "Armor, from the start" in out and "Favor, from the start" in out
    assert "Only the players of this table see where it turned for them." in out


async def test_the_reviewer_unavailable_is_said_politely(make_server, monkeypatch) -> None:
    server = await make_server()
    key = new_key()
    table = finished_table(server.lobby, "carthage", 2, identity=fingerprint(key))

    async def busy(
        _reviewer: Reviewer | None, t: TableLike, seat: int, progress: review_calls.Progress
    ) -> Unanswered:
        return Unanswered(review_calls.BUSY, retry=True)

    monkeypatch.setattr(review_calls, "ask_review", busy)
    status, out, err = await run(server, key, f"review {table.id}")
    assert status == 0 and not err
    assert "Where it turned for you" in out and review_calls.BUSY in out


async def test_an_unknown_or_unfinished_table_is_named(make_server) -> None:
    server = await make_server()
    key = new_key()
    status, out, err = await run(server, key, "review 99")
    assert status == 1 and not out.strip()
    assert (
        f"harena: there is no table 99 (ssh -p {server.port} 127.0.0.1 status lists yours)" in err
    )
    playing = server.lobby.create_table(fingerprint(key), "ann", "carthage", 2, bots=1)
    status, out, err = await run(server, key, f"review {playing.id}")
    assert status == 1
    assert f"table {playing.id}: a review is for a finished game: this one is not over" in err
    assert f"ssh -t -p {server.port} 127.0.0.1 table {playing.id}" in err


async def test_a_terminal_that_is_not_utf8_gets_plain_ascii(make_server, monkeypatch) -> None:
    server = await make_server()
    key = new_key()
    table = finished_table(server.lobby, "carthage", 2, identity=fingerprint(key))
    monkeypatch.setattr(review_calls, "ask_review", answering_with(review_of(table, [0.2])))
    status, out, err = await run(server, key, f"review {table.id}", env={"LANG": "C"})
    assert status == 0 and not err
    assert out.isascii() and "Table 1 - Carthage - how it went" in out
    assert "about 20% less chance to win" in out


def answering_with(review: TableReview):  # type: ignore[no-untyped-def]
    async def ask(
        _reviewer: Reviewer | None, t: TableLike, seat: int, progress: review_calls.Progress
    ) -> TableReview:
        return review

    return ask


async def test_the_servers_bot_workers_weigh_the_review_and_keep_it(make_server) -> None:
    """Nothing stands in for the reviewer: the server's own workers weigh ann's decisions
    (a small budget, so the test is quick), and the review is kept beside the table's records."""
    from harena.core.review.turns import ReviewBudget

    server = await make_server()
    server.reviews.budget = ReviewBudget(worlds=2, depth=4)
    key = new_key()
    table = finished_table(server.lobby, "carthage", 2, identity=fingerprint(key))
    assert await server.reviews.kept(table, 0) is None
    status, out, err = await run(server, key, f"review {table.id}")
    assert status == 0 and "Where it turned for you" in out
    assert review_calls.NOT_CONNECTED not in out and "busy" not in out
    assert err.endswith("the search bot is weighing the decisions: 100%\r\n")  # as it goes
    kept = await server.reviews.kept(table, 0)
    assert kept is not None and kept.decisions  # weighed, and kept: asked again, no work
    assert all(d.seat == 0 for d in kept.decisions)
    assert (server.config.data_dir / "tables" / table.id / "review").exists()
