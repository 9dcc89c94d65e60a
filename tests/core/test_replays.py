"""Replays (core/replays.py): a finished seeded game steps to every decision and its board there
is the game replayed to there; steps by turn and round; a review during play shows exactly what
the reviewer's own seat saw at each past decision, never another seat's secret."""

from __future__ import annotations

import pytest

from harena.core.bots import RandomBot
from harena.core.engine import game_class, new_game
from harena.core.replays import CHECKPOINT, Replay
from harena.core.simulate import play_to_the_end
from harena.core.table import Table


def finished(name: str, players: int, seed: int):
    cls = game_class(name)
    game = new_game(name, players, seed, dict(cls.simulation_options))
    return play_to_the_end(game, [RandomBot(seed + i) for i in range(players)])


@pytest.mark.parametrize("name, players", [("carthage", 2), ("spartacus", 3)])
def test_a_finished_games_positions_show_the_board_of_the_game_replayed_to_them(
    name: str, players: int
):
    game = finished(name, players, seed=11)
    assert game.result() is not None and len(game.actions) > CHECKPOINT
    replay = Replay(game.config, game.actions, reveal=True)
    fresh = game_class(name)(game.config)  # the game replayed move by move, independently
    # Every position of the first and last checkpoints and every 5th between (a Spartacus game
    # runs to thousands of moves): each rebuild from a snapshot and each crossing is met.
    edge = 3 * CHECKPOINT
    checked = {
        p for p in range(replay.last + 1) if p < edge or p > replay.last - edge or p % 5 == 0
    }
    boards = {}
    for position in range(replay.last + 1):
        if position:
            action = game.actions[position - 1]
            fresh.act(action.seat, action.choice)
        if position not in checked:
            continue
        seat = position % players  # each seat's board in turn
        assert replay.view_at(position, seat)["board"] == fresh.board_view(seat), position
        boards[position] = fresh.board_view(0)
    for position in sorted(checked, reverse=True):  # and stepping back, across checkpoints
        assert replay.view_at(position, 0)["board"] == boards[position], position
    end = replay.view_at(replay.last, 0)
    assert end["result"] is not None and end["prompts"] == []


def test_a_finished_game_reveals_every_private_line_and_says_whose():
    game = finished("highcard", 2, seed=3)
    replay = Replay(game.config, game.actions, reveal=True, names=["ann", "bob"])
    log = replay.view_at(replay.last, 0)["log"]
    hands = [e.text for e in game.events if e.seats == (1,) and e.text.startswith("you drew")]
    assert hands and f"[bob] {hands[0]}" in log


def test_turn_and_round_steps_stop_where_the_seat_or_the_round_changes():
    game = finished("carthage", 2, seed=5)
    replay = Replay(game.config, game.actions, reveal=True)
    position = 0
    while position < replay.last:
        after = replay.next_turn(position)
        assert after > position
        seats = {s.seat for s in replay.steps[position:after]}
        assert len(seats) == 1
        assert after == replay.last or replay.steps[after].seat not in seats
        assert replay.previous_turn(after) == position
        position = after
    rounds, position = [], 0
    while position < replay.last:
        position = replay.next_round(position)
        rounds.append(replay.round_at(position))
    if rounds[-1] == replay.round_at(replay.last) and len(rounds) > 1 and rounds[-1] == rounds[-2]:
        rounds.pop()  # the end, in the last round
    assert rounds == list(range(rounds[0], rounds[0] + len(rounds))) and len(rounds) >= 2
    assert replay.previous_round(replay.next_round(0)) == 0


def test_a_review_during_play_is_what_the_seat_saw_at_each_decision_and_nothing_more():
    table = Table.create("highcard", 3, seed=8)
    for seat in range(3):
        table.sit(f"key-{seat}", f"p{seat}")
    seen = [table.game.view(0, log_from=0)]
    logs = [table.game.log_for(0)]
    while table.game.result() is None and len(table.game.actions) < 6:
        seat = table.game.awaited()[0]
        table.act(f"key-{seat}", table.game.prompts_for(seat)[0].choices[-1].id)
        seen.append(table.game.view(0))
        logs.append(table.game.log_for(0))
    review = Replay(table.game.config, table.game.actions, seat=0, log_from=table.seats[0].log_from)
    mine = set(table.game.log_for(0))
    # what only others read (their hands: "you drew [...]"), where seat 0 never reads the same
    secrets = {e.text for e in table.game.events if e.seats is not None and 0 not in e.seats} - mine
    assert secrets
    for position in range(review.last + 1):
        view = review.view_at(position, board_seat=2)  # asking for another board changes nothing
        assert view["board"] == seen[position]["board"]
        assert (
            view["log"] == seen[position]["log"]
            and view["log"] == logs[position][-len(view["log"]) :]
        )
        assert not any(secret in str(view) for secret in secrets)


def test_whoever_took_a_seat_over_reviews_only_from_when_they_sat_down():
    table = Table.create("highcard", 2, seed=9)
    table.sit("key-0", "ann")
    table.sit("key-1", "bob")
    for seat in (0, 1):
        table.act(f"key-{seat}", table.game.prompts_for(seat)[0].choices[0].id)
    table.leave("key-1")
    table.sit("key-2", "cat")
    review = Replay(table.game.config, table.game.actions, seat=1, log_from=table.seats[1].log_from)
    assert review.first == review.last == 2
    assert review.clamp(0) == 2  # the start was the last player's
    private = [e.text for e in table.game.events[: table.seats[1].log_from] if e.seats == (1,)]
    assert private and not any(p in str(review.view_at(0)) for p in private)


@pytest.mark.parametrize("name, players", [("spartacus", 3), ("carthage", 2)])
def test_a_review_of_a_real_game_is_each_past_view_of_the_seat_exactly(name: str, players: int):
    """The review's board and log at every position are the seat's own live view then (which
    tests/core/test_secrecy.py checks holds nothing the seat may not know)."""
    options = dict(game_class(name).simulation_options)
    table = Table.create(name, players, seed=21, options=options)
    table.sit("key-0", "ann")
    for seat in range(1, players):
        table.set_bot(seat, "random")
    bot = RandomBot(4)
    # by the number of actions: one step may make two (a window ann could only let be is
    # answered for her at once, alone with bots: core/windows.py)
    seen = {0: table.game.view(0)}
    logs = {0: table.game.log_for(0)}
    while table.game.result() is None and len(table.game.actions) < 120:
        bots = table.bots_to_move()
        if bots:
            table.play_bot(bots[0])
        else:
            before = len(table.game.actions)
            table.act("key-0", bot.choose(table.game.view(0)))
            if len(table.game.actions) == before:  # a reaction window holds it till its time
                table.expire(table.next_deadline())
        seen[len(table.game.actions)] = table.game.view(0)
        logs[len(table.game.actions)] = table.game.log_for(0)
    review = Replay(table.game.config, table.game.actions, seat=0)
    for position in sorted(seen)[::3]:
        view = review.view_at(position)
        assert view["board"] == seen[position]["board"], position
        assert view["log"] == seen[position]["log"], position
        assert view["waiting"] == seen[position]["waiting"]


def test_a_game_whose_length_is_a_multiple_of_the_checkpoint_steps_to_its_end_and_back():
    # The last position of such a game is where a checkpoint goes: jumping there after a step
    # back must not look one up that was never made.
    game = finished("carthage", 2, seed=11)
    actions = game.actions[: 2 * CHECKPOINT]
    replay = Replay(game.config, actions, reveal=True)
    end = replay.view_at(replay.last, 0)["board"]
    replay.view_at(0, 0)
    assert replay.view_at(replay.last, 0)["board"] == end
