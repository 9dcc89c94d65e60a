"""A table's review is kept beside its records (issue 40): read back as written, and a damaged
or foreign one is weighed again rather than trusted."""

from __future__ import annotations

from pathlib import Path

from harena.core.review.kept import KeptReview
from harena.core.review.verdict import DecisionReview, Estimate
from harena.core.store import Store


def sample() -> KeptReview:
    kept = KeptReview("carthage", 120)
    found = DecisionReview(
        7, 1, 2, Estimate("play:3", "Javelin", 0.25), Estimate("play:9", "Net", 0.5)
    )
    kept.add([5, 7], [found])
    kept.complete = {1}
    return kept


def test_a_review_is_kept_in_the_tables_folder_and_read_back(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.create("4").close()
    store.write_review("4", sample().to_plain())
    back = KeptReview.from_plain(store.read_review("4"), "carthage", 120)
    assert back == sample()
    assert back.missing([5, 7, 9]) == [9] and back.covers([1]) and not back.covers([0, 1])
    assert [d.position for d in back.table_review("4", [1]).decisions] == [7]
    assert back.table_review("4", [0]).decisions == ()


def test_a_damaged_or_foreign_review_is_weighed_again(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.create("4").close()
    store.write_review("4", sample().to_plain())
    assert KeptReview.from_plain(store.read_review("4"), "carthage", 121) == KeptReview(
        "carthage", 121
    )
    assert KeptReview.from_plain(store.read_review("4"), "spartacus", 120).weighed == set()
    path = tmp_path / "tables" / "4" / "review"
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0x24  # two bits: beyond mending
    path.write_bytes(bytes(raw))
    assert store.read_review("4") is None
    assert store.read_review("5") is None  # none kept


def test_a_one_shot_review_weighs_only_what_was_not_kept() -> None:
    from harena.core.review.kept import review_kept
    from harena.core.review.turns import ReviewBudget
    from tests.core.review.test_turns import played

    game = played("carthage", 2, 44)
    kept = KeptReview("carthage", len(game.actions))
    budget = ReviewBudget(worlds=2, depth=8)
    told: list[tuple[int, int]] = []
    first = review_kept(
        kept, game.config, game.actions, table_id="4", seats=[1], budget=budget,
        progress=lambda done, total: told.append((done, total)),
    )  # fmt: skip
    total = told[-1][1]
    assert told[0] == (0, total) and told[-1] == (total, total) and kept.covers([1])
    again: list[tuple[int, int]] = []
    back = KeptReview.from_plain(kept.to_plain(), "carthage", len(game.actions))
    second = review_kept(
        back, game.config, game.actions, table_id="4", seats=[1], budget=budget,
        progress=lambda done, total: again.append((done, total)),
    )  # fmt: skip
    assert second == first and first.decisions and again == [(total, total)]
