"""Play again (core/table/rematch.py, docs/server.md): once every player of a finished game has
answered, a new table with the same game, options, clocks and table options, the same people
one seat further on (seat i to seat i+1, the last to the first); a decliner's seat goes to a bot
or waits free, as the creator chose; bots stay bots."""

from __future__ import annotations

import pytest

from harena.core.bots import decide
from harena.core.clocks import ClockPolicy
from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.table import Table
from harena.core.table.options import TableOptions

KEYS = {"key-ann": "ann", "key-bob": "bob", "key-cat": "cat"}


def play_out(table: Table) -> None:
    """Every decision to the end: bots by the table, people by a random bot's choice."""
    pickers = {}
    while table.game.result() is None:
        if table.play_bot_step():
            continue
        seat = table.game.awaited()[0]
        picker = pickers.setdefault(seat, table.game.bots["random"](seat))
        table.act(table.seats[seat].identity, decide(table.game, seat, picker))


def finished(
    game: str = "highcard",
    options: dict[str, str] | None = None,
    *,
    store: Store | None = None,
    declined: str = "bot",
    bot: bool = True,
) -> tuple[Lobby, Table]:
    """ann (creator), bob, then cat or a random bot, at a game played to its end."""
    lobby = Lobby(store)
    policy = ClockPolicy(per_decision=300, window=0)
    table = lobby.create_table(
        "key-ann", "ann", game, 3, options, policy=policy,
        table_options=TableOptions(declined=declined),
    )  # fmt: skip
    table.sit("key-bob", "bob", 1)
    if bot:
        table.set_bot(2, "random")
    else:
        table.sit("key-cat", "cat", 2)
    play_out(table)
    return lobby, table


def test_everyone_says_yes_and_the_rematch_carries_every_setting_in_turned_seats() -> None:
    lobby, old = finished(options={"rounds": "1"})
    old.answer_rematch("key-ann", True)
    assert old.rematch.next_table is None  # bob has not answered
    assert old.view_for("key-ann")["table"]["rematch"]["waiting"] == ["bob"]
    old.answer_rematch("key-bob", True)
    new = lobby.run_here[old.rematch.next_table or ""]
    assert new.id != old.id and new.status == "playing"
    assert new.game.name == old.game.name and new.game.config.options == {"rounds": "1"}
    assert new.policy == old.policy and new.table_options == old.table_options
    # seat i -> seat i+1: ann 0 -> 1, bob 1 -> 2, the bot 2 -> 0, still a random bot
    assert [s.identity for s in new.seats] == [None, "key-ann", "key-bob"]
    assert new.seats[0].bot == "random"
    assert new.creator == "key-ann"
    assert old.view_for("key-bob")["table"]["rematch"]["table"] == new.id


def test_a_decliners_seat_goes_to_a_bot_when_the_creator_chose_bots() -> None:
    lobby, old = finished(bot=False)
    old.answer_rematch("key-ann", True)
    old.answer_rematch("key-bob", False)
    old.answer_rematch("key-cat", True)
    new = lobby.run_here[old.rematch.next_table or ""]
    assert [s.identity for s in new.seats] == ["key-cat", "key-ann", None]
    assert new.seats[2].bot == new.stand_in_kind and new.status == "playing"


def test_a_decliners_seat_waits_free_when_the_creator_chose_so() -> None:
    lobby, old = finished(bot=False, declined="free")
    for key, yes in (("key-ann", False), ("key-bob", True), ("key-cat", True)):
        old.answer_rematch(key, yes)
    new = lobby.run_here[old.rematch.next_table or ""]
    assert [s.identity for s in new.seats] == ["key-cat", None, "key-bob"]
    assert new.seats[1].free and new.status == "waiting"
    assert new.creator == "key-cat"  # ann declined: the first player in the new seats
    new.sit("key-dan", "dan")
    assert new.status == "playing"


def test_nobody_plays_again_opens_no_table() -> None:
    lobby, old = finished()
    old.answer_rematch("key-ann", False)
    old.answer_rematch("key-bob", False)
    assert len(lobby.tables) == 1 and old.rematch.next_table == ""


def test_only_the_players_of_a_finished_game_are_asked() -> None:
    lobby = Lobby()
    table = lobby.create_table("key-ann", "ann", "highcard", 2, bots=1)
    with pytest.raises(IllegalAction, match="finished game"):
        table.answer_rematch("key-ann", True)  # still playing
    lobby, old = finished()
    with pytest.raises(IllegalAction, match="finished game"):
        old.answer_rematch("key-cat", True)  # not a player there


@pytest.mark.parametrize(
    ("game", "options"),
    [("carthage", {"sudden_death": "10"}), ("spartacus", {"length": "quick", "round_limit": "10"})],
)
def test_both_games_rematch_with_their_options(game: str, options: dict[str, str]) -> None:
    lobby, old = finished(game, options)
    old.answer_rematch("key-ann", True)
    old.answer_rematch("key-bob", True)
    new = lobby.run_here[old.rematch.next_table or ""]
    assert new.game.name == game and new.status == "playing"
    assert {k: new.game.config.options[k] for k in options} == options
    assert new.game.config.options == old.game.config.options
    assert [s.identity for s in new.seats] == [None, "key-ann", "key-bob"]


def test_answers_survive_a_restart_and_the_last_one_then_opens_the_rematch(tmp_path) -> None:
    lobby, old = finished(store=Store(tmp_path))
    old.answer_rematch("key-ann", True)
    lobby.close()
    again = Lobby.open(Store(tmp_path))
    table = again.run_here[old.id]
    assert table.rematch.answers == {0: True}
    table.answer_rematch("key-bob", True)
    assert table.rematch.next_table in again.tables
    again.close()
    # and once opened, a restart opens no second one
    third = Lobby.open(Store(tmp_path))
    assert len(third.tables) == 2


def test_a_rematch_is_rated_as_a_new_game() -> None:
    lobby, old = finished(bot=False)
    for key in ("key-ann", "key-bob", "key-cat"):
        old.answer_rematch(key, True)
    new = lobby.run_here[old.rematch.next_table or ""]

    def games() -> list[int]:
        return [getattr(lobby.ratings.of(key, "highcard"), "games", 0) for key in KEYS]

    assert games() == [1, 1, 1]  # the first game
    play_out(new)
    assert games() == [2, 2, 2]  # the rematch counts as a game of its own


def test_a_player_who_leaves_the_finished_table_is_not_waited_for_and_counts_as_a_no() -> None:
    lobby, old = finished(bot=False, declined="free")
    old.answer_rematch("key-ann", True)
    old.answer_rematch("key-bob", True)
    old.leave("key-cat")  # never answers: gone
    new = lobby.run_here[old.rematch.next_table or ""]
    assert [s.identity for s in new.seats] == [None, "key-ann", "key-bob"] and new.seats[0].free


def test_a_private_table_with_hints_plays_again_private_with_hints_and_no_old_code() -> None:
    """The rematch carries privacy (who may watch, who is invited) and hints, as the table's
    other settings; a share code belongs to the old table alone (docs/server.md)."""
    from harena.core.privacy import Privacy

    lobby = Lobby()
    table = lobby.create_table(
        "key-ann", "ann", "highcard", 2, {"rounds": "1"}, privacy=Privacy("nobody"), hints=True
    )
    table.invite("key-ann", "key-bob", "bob")
    table.invite("key-ann", "key-dan", "dan")  # invited to watch... nobody watches: to sit
    code = table.add_code("key-ann")
    table.sit("key-bob", "bob", 1)
    play_out(table)
    table.answer_rematch("key-ann", True)
    table.answer_rematch("key-bob", True)
    new = lobby.tables[str(table.rematch.next_table)]
    assert new.privacy is not None and new.privacy.watchers == "nobody"
    assert set(new.privacy.invited) >= {"key-bob", "key-dan"}
    assert not new.privacy.holds(code) and table.id != new.id
    assert new.hints is True
    assert lobby.view("key-cat")["tables"] == []  # a stranger knows of neither


def test_a_seat_kept_for_a_friend_at_a_private_table_invites_the_friend() -> None:
    from harena.core.privacy import Privacy

    lobby = Lobby()
    lobby.settings.set("key-bob", "name", "bob")
    table = lobby.create_table(
        "key-ann", "ann", "highcard", 2, privacy=Privacy("invited"), keep_for="bob"
    )
    assert table.knows("key-bob") and not table.knows("key-cat")
    assert table.seats[1].kept_for == "key-bob"
