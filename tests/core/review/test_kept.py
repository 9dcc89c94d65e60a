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
