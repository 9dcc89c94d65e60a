"""Ratings (core/ratings.py): Elo per key and game, counted once when a game ends, saved across
restarts; bots fixed, and their games counted only if the server says so; guests not rated."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.core.lobby import Lobby
from harena.core.ratings import BOT_RATINGS, START, K, Ratings, changes, expected
from harena.core.store import Store
from harena.core.table import Table


def play_out(table: Table) -> None:
    """Everyone plays their highest card (bots their random choice) until the game ends."""
    while table.game.result() is None:
        bots = table.bots_to_move()
        if bots:
            table.play_bot(bots[0])
            continue
        seat = table.game.awaited()[0]
        table.act(table.seats[seat].identity, table.game.prompts_for(seat)[0].choices[-1].id)


def test_two_equal_players_move_by_half_of_k():
    assert changes([1500, 1500], winners={0}, fixed=set()) == [K / 2, -K / 2]
    assert changes([1500, 1500], winners={0, 1}, fixed=set()) == [0.0, 0.0]


def test_several_players_count_as_every_pair_and_bots_do_not_move():
    ratings = [1600.0, 1500.0, 1400.0]
    got = changes(ratings, winners={1}, fixed={2})
    e = expected
    assert got[0] == pytest.approx(K / 2 * ((0 - e(1600, 1500)) + (0.5 - e(1600, 1400))))
    assert got[1] == pytest.approx(K / 2 * ((1 - e(1500, 1600)) + (1 - e(1500, 1400))))
    assert got[2] == 0.0


def test_a_finished_game_is_rated_once_and_the_ratings_persist_across_a_restart(tmp_path: Path):
    store = Store(tmp_path)
    lobby = Lobby(store, new_seed=lambda: 1)  # a game with a winner (some seeds tie)
    table = lobby.create_table("key-a", "ann", "highcard", 2, {"rounds": "1"})
    table.sit("key-b", "bob")
    play_out(table)
    winners = table.game.result().winners
    assert len(winners) == 1
    winner, loser = ("key-a", "key-b") if winners == (0,) else ("key-b", "key-a")
    assert lobby.ratings.of(winner, "highcard").value == START + K / 2
    assert lobby.ratings.of(loser, "highcard").value == START - K / 2
    assert lobby.ratings.of(winner, "highcard").games == 1
    lobby.close()
    again = Lobby.open(Store(tmp_path))
    assert again.ratings.of(winner, "highcard").value == START + K / 2  # kept, not rated twice
    assert again.ratings.of(loser, "highcard").games == 1
    assert [name for name, _ in again.ratings.board("highcard")] == [winner, loser]
    again.connect("key-a", "ann")
    online = dict(again.view()["online_ratings"])
    assert online["ann"] == {"highcard": round(again.ratings.of("key-a", "highcard").value)}


@pytest.mark.parametrize("count_bots", [False, True])
def test_games_with_bots_count_only_if_the_server_says_so_and_bots_keep_their_rating(
    count_bots: bool,
):
    lobby = Lobby()
    lobby.ratings.count_bots = count_bots
    table = lobby.create_table("key-a", "ann", "highcard", 2, {"rounds": "1"}, bots=1)
    play_out(table)
    rating = lobby.ratings.of("key-a", "highcard")
    if not count_bots:
        assert rating is None
    else:
        assert rating is not None and rating.games == 1
        bot = BOT_RATINGS["random"]
        score = (
            1.0
            if table.game.result().winners == (0,)
            else (0.5 if 0 in table.game.result().winners else 0.0)
        )
        assert rating.value == pytest.approx(START + K * (score - expected(START, bot)))


def test_guests_are_not_rated_and_closed_games_not_at_all():
    lobby = Lobby()
    table = lobby.create_table("guest:1234", "gus", "highcard", 2, {"rounds": "1"})
    table.sit("key-b", "bob")
    play_out(table)
    assert lobby.ratings.of("guest:1234", "highcard") is None
    assert lobby.ratings.of("key-b", "highcard") is None  # alone among the rated: no pair
    closed = lobby.create_table("key-a", "ann", "highcard", 2)
    closed.sit("key-b", "bob")
    lobby.close_table(closed.id, "op", "test")
    assert lobby.ratings.rate(closed) == {}


def test_a_rating_is_applied_to_the_saved_document_even_if_this_copy_changes_meanwhile(
    tmp_path: Path,
):
    """In a cluster the write runs on the NATS thread while the watched document may replace
    this server's copy on the loop's (CI lost one game of 24 so): each try must work on the
    document it read, whatever happens to this server's copy during it."""
    store = Store(tmp_path)
    saved = {"games": {"highcard": {"key-a": [1600.0, 9, "ann"]}}, "rated": ["old"]}
    store.write_document("ratings.json", saved)
    stale = {"games": {}, "rated": []}  # what the watcher delivers late, mid-try
    ratings: Ratings

    def rated(identity: str) -> bool:
        ratings.replace(stale)  # the loop thread, between reading the document and writing
        return True

    ratings = Ratings(store, rated=rated)
    table = Table.create("highcard", 2, 1, {"rounds": "1"}, table_id="t1")
    table.sit("key-a", "ann")
    table.sit("key-b", "bob")
    play_out(table)
    ratings.rate(table)
    written = store.read_document("ratings.json")
    assert written["games"]["highcard"]["key-a"][1] == 10  # the saved 9 games, plus this one
    assert written["rated"] == ["old", "t1"]
    assert ratings.of("key-a", "highcard").games == 10  # and this server shows what it saved
