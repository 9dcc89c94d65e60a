"""Taking over a seat someone left (docs/rulings.md, taking over a seat): the seat's private
log lines from before read as everyone else reads them; the board (the hand) stays whole."""

from __future__ import annotations

from harena.core.store import Store
from harena.core.table import Table


def _left_mid_game(store: Store | None = None) -> Table:
    table = Table.create("highcard", 2, seed=31, store=store)
    table.sit("key-ann", "ann")
    table.sit("key-bob", "bob")
    card = table.game.prompts_for(0)[0].choices[0].id
    table.act("key-ann", card)
    table.leave("key-ann")
    table.sit("key-cat", "cat")
    return table


def test_a_new_occupant_reads_the_last_occupants_private_lines_redacted() -> None:
    table = _left_mid_game()
    mine = table.view_for("key-cat")["game"]
    assert mine["log"] == table.view_for(None)["game"]["log"]  # as a spectator reads it
    assert "seat 0 plays a card" in mine["log"] and "seat 0 drew 3 cards" in mine["log"]
    # what the seat holds now is the occupant's to know
    assert mine["board"]["hand"] == table.game.state.hands[0]
    assert mine["board"]["my_card"] == table.game.state.played[0]


def test_lines_after_the_takeover_are_the_new_occupants_own() -> None:
    table = _left_mid_game()
    table.act("key-bob", table.game.prompts_for(1)[0].choices[0].id)
    card = table.game.prompts_for(0)[0].choices[0].id
    table.act("key-cat", card)
    log = table.view_for("key-cat")["game"]["log"]
    assert f"you play {card.removeprefix('card:')} face down" in log
    assert log.count("seat 0 plays a card") == 1  # the one before the takeover


def test_the_first_occupant_reads_the_whole_log_from_the_setup() -> None:
    """Nobody played the seat before the start: the setup's private lines are the occupant's."""
    table = Table.create("highcard", 2, seed=31)
    table.sit("key-ann", "ann")
    table.leave("key-ann")
    table.sit("key-cat", "cat")
    table.sit("key-bob", "bob")
    assert table.view_for("key-cat")["game"]["log"][0].startswith("you drew")


def test_where_the_new_occupants_log_begins_survives_a_restart(tmp_path) -> None:
    store = Store(tmp_path)
    table = _left_mid_game(store)
    before = table.view_for("key-cat")["game"]["log"]
    table.save_snapshot()
    again = Table.load(store.load(table.id), store)
    assert again.view_for("key-cat")["game"]["log"] == before
