"""The course of a finished game agrees with its log and its replay, round by round."""

from __future__ import annotations

import re
from functools import cache

import pytest

from harena.core.bots import bot_seed
from harena.core.engine import Event, Game, game_class, make_config
from harena.core.replays import Replay
from harena.core.review.course import Course, Mark, NotOver, course_of, round_ends
from harena.core.simulate import play_to_the_end


@cache
def finished(name: str, seed: int, players: int = 3) -> Game:
    cls = game_class(name)
    game = cls(make_config(name, players, seed, {}))
    return play_to_the_end(game, [cls.bots["heuristic"](bot_seed(seed, s)) for s in range(players)])


def replay_of(game: Game) -> Replay:
    return Replay(game.config, game.actions, reveal=True)


def armor_in_log(events: list[Event], name: str) -> int | None:
    """The last Armor figure the log printed for `name` ("gains 1 Armor (16)", "takes 2:
    Armor 13")."""
    figure = None
    pattern = re.compile(
        rf"{re.escape(name)} (?:gains \d+ Armor \((-?\d+)\)|\w+ \d+: Armor (-?\d+))$"
    )
    for event in events:
        match = pattern.match(event.text)
        if match:
            figure = int(match[1] or match[2])
    return figure


@pytest.mark.parametrize("seed", [5, 11, 23])
def test_carthage_armor_each_round_is_the_last_armor_the_log_printed(seed: int) -> None:
    game = finished("carthage", seed)
    replay = replay_of(game)
    course = course_of(replay)
    events = game.events
    for index, (round_, position) in enumerate(round_ends(replay)):
        upto = events[: replay.steps[position - 1].events] if position else []
        for player in course.players:
            armor = player.measure("Armor").values[index]
            if armor is None:
                continue  # after the round of its elimination
            printed = armor_in_log(upto, player.piece)
            assert armor == (15 if printed is None else printed), (round_, player.piece)


@pytest.mark.parametrize("seed", [5, 11, 23])
def test_carthage_eliminations_are_marked_in_the_round_the_log_says(seed: int) -> None:
    game = finished("carthage", seed)
    replay = replay_of(game)
    course = course_of(replay)
    fallen = {}
    begin = 0
    for step in replay.steps:
        for event in game.events[begin : step.events]:
            if event.text.endswith(" is eliminated!"):
                fallen[event.text.removesuffix(" is eliminated!")] = step.round
        begin = step.events
    assert fallen  # a last gladiator standing: the others fell
    for player in course.players:
        marked = [r for r, marks in player.marks.items() if Mark.ELIMINATED in marks]
        assert marked == ([fallen[player.piece]] if player.piece in fallen else [])
        after = [
            v
            for r, v in zip(course.rounds, player.measure("Armor").values, strict=True)
            if player.piece in fallen and r > fallen[player.piece]
        ]
        assert all(v is None for v in after)  # nothing drawn once out


@pytest.mark.parametrize("seed", [5, 17])
def test_spartacus_influence_and_denarii_each_round_are_what_each_house_saw(seed: int) -> None:
    game = finished("spartacus", seed)
    replay = replay_of(game)
    course = course_of(replay)
    for index, (_, position) in enumerate(round_ends(replay)):
        for player in course.players:
            own = replay.view_at(position, board_seat=player.seat)["board"]["players"][player.seat]
            assert player.measure("Influence").values[index] == own["influence"]
            assert player.measure("denarii").values[index] == own["denarii"]
    best = max(p.measure("Influence").values[-1] or 0 for p in course.players)
    assert all(course.players[w].measure("Influence").values[-1] == best for w in course.winners)


@pytest.mark.parametrize("seed", [5, 17])
def test_spartacus_auctions_won_are_marked_in_their_round(seed: int) -> None:
    game = finished("spartacus", seed)
    replay = replay_of(game)
    course = course_of(replay)
    houses = [p.piece for p in course.players]
    bought = set()
    begin = 0
    for step in replay.steps:
        for event in game.events[begin : step.events]:
            for seat, house in enumerate(houses):
                if event.text.startswith(f"{house} buys "):
                    bought.add((seat, step.round))
        begin = step.events
    marked = {(p.seat, r) for p in course.players for r, m in p.marks.items() if Mark.AUCTION in m}
    assert bought and bought <= marked


def test_a_cancelled_or_unpaid_scheme_did_not_land_and_a_resolved_one_did() -> None:
    from harena.core.review.course import _spartacus_marks

    game = finished("spartacus", 5)
    glaber, batiatus = (p["name"] for p in game.board_view(None)["players"][:2])
    lines = [
        f"{glaber} launches Slander against {batiatus}: The target loses 1 Influence.",
        f"{glaber}'s Slander is cancelled by {batiatus}'s Refuse",
        f"{batiatus} launches Political Alliance for themselves: Pay 4 denarii: gain 2.",
        f"{batiatus} cannot pay for Political Alliance: it fails",
        f"{batiatus} launches Gift from Rome for themselves: Gain 6 denarii.",
        f"{batiatus} gains 6 denarii",
        f"{glaber} launches Favour of the Senate for themselves: Gain 1 Influence.",
    ]
    marks = _spartacus_marks(game, {3: [Event(text) for text in lines]})
    assert marks == {1: {3: (Mark.SCHEME,)}, 0: {3: (Mark.SCHEME,)}}


def test_a_game_in_play_has_no_course_yet() -> None:
    cls = game_class("carthage")
    game = cls(make_config("carthage", 3, 5, {}))
    with pytest.raises(NotOver):
        course_of(Replay(game.config, game.actions, reveal=True))


def test_the_course_starts_once_setup_is_done() -> None:
    course: Course = course_of(replay_of(finished("spartacus", 5)))
    assert course.rounds[0] == 0 and list(course.rounds[1:]) == sorted(set(course.rounds[1:]))
    assert all(p.measure("Influence").values[0] == 4 for p in course.players)  # rules: Setup
