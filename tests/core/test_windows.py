"""Reaction windows at a table (core/windows.py): every person asked answers alike, the window
closes when all have answered or its time is up, and it is the same to everyone else whether
anyone holds a Reaction or not (rules: Intrigue Phase - Reactions "in response to other
events"; issue 24: a window must not tell who holds a card; issue 36: nor keep a table waiting
once everyone has answered)."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from harena.core.clocks import ClockPolicy
from harena.core.lobby import Lobby
from harena.core.spartacus import intrigue, market
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from harena.core.table import Table
from harena.core.windows import window_prompts
from tests.core.secrecy import first_difference
from tests.core.spartacus.helpers import clear_table, give

IDS = ("id-ann", "id-bob", "id-cat")
START = 1000.0


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def _table(
    bots: int = 0, window: float = 10.0, store: Any = None, auto_pass: tuple[str, ...] = ()
) -> tuple[Table, Clock]:
    """ann, bob and cat (the last `bots` seats bots), Houses chosen, at the Open Market;
    the players in `auto_pass` pass reaction windows automatically (their player setting)."""
    clock = Clock()
    lobby = Lobby(store, clock=clock, new_seed=lambda: 3)
    for identity in auto_pass:
        lobby.settings.set(identity, "auto_pass", True)
    policy = ClockPolicy(window=window)
    table = lobby.create_table(IDS[0], "ann", "spartacus", 3, bots=0, policy=policy)
    for seat in (1, 2):
        if seat >= 3 - bots:
            table.set_bot(seat, "heuristic")
        else:
            table.sit(IDS[seat], IDS[seat][3:])
    game = table.game
    assert isinstance(game, Spartacus)
    while game.state.phase is Phase.HOUSES:
        seat = game.awaited()[0]
        if table.seats[seat].bot:
            table.play_bot(seat)
        else:
            table.act(IDS[seat], game.prompts_for(seat)[0].choices[0].id)
    game.state.intrigue = None
    for seat, p in enumerate(game.state.players):
        clear_table(game, seat)
        p.denarii, p.influence = 10, 4
    return table, clock


def _lot_won(table: Table, hands: dict[int, str]) -> dict[int, int]:
    """`hands[seat]` in that seat's hand; everyone closes; ann wins the first lot for 3."""
    game = table.game
    refs = {seat: give(game, seat, card, hand=True) for seat, card in hands.items()}
    market.start(game)
    game.state_changed()
    for seat in range(3):
        _play(table, seat, "close")
    for seat in range(3):
        _play(table, seat, f"bid:{3 if seat == 0 else 0}")
    return refs


def _play(table: Table, seat: int, choice: str) -> None:
    if table.seats[seat].bot:
        table.play_bot(seat)
    else:
        table.act(IDS[seat], choice)


def _bytes(table: Table, identity: str | None) -> bytes:
    """A seat's whole table view as it goes on the wire."""
    return msgpack.packb(table.view_for(identity), use_bin_type=True)


def test_every_person_asked_answers_alike_and_the_last_answer_closes_the_window() -> None:
    """cat holds a Slander (no answer to a lot won): its prompt offers only "Let it be", yet
    the table waits for cat's key as for bob's, and closes the window the moment the last of
    them answers, with the clock standing still."""
    table, clock = _table()
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    game = table.game
    prompt = next(p for p in game.prompts_for(2) if p.kind == "event_reaction")
    assert [c.id for c in prompt.choices] == ["pass"] and prompt.default == "pass"
    assert table.next_deadline() == START + 10
    assert table.awaiting(IDS[1]) is not None and table.awaiting(IDS[2]) is not None
    table.act(IDS[1], "pass")
    assert game.state.window is not None  # cat has not answered yet
    assert table.awaiting(IDS[1]) is None and table.awaiting(IDS[2]) is not None
    table.act(IDS[2], "pass")
    assert game.state.window is None and game.state.market.auction.card is not None
    assert table.next_deadline() is None and clock.now == START


def test_a_window_nobody_answers_closes_at_its_time_with_let_it_be() -> None:
    table, clock = _table()
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    game = table.game
    table.act(IDS[1], "pass")
    clock.now += 9.9
    table.expire()
    assert game.state.window is not None  # cat's answer is still awaited
    clock.now += 0.1
    table.expire()
    assert game.state.window is None and game.state.market.auction.card is not None
    assert table.next_deadline() is None
    assert not any("plays Envy" in line for line in game.log_for(None))


def test_a_person_with_a_reaction_is_asked_and_the_answer_waits_for_the_window() -> None:
    """bob answers with Envy of the Forum: the table holds it (bob sees it, the game does not
    have it yet, and may be changed), then gives it when cat's answer closes the window."""
    table, clock = _table()
    refs = _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    game = table.game
    table.act(IDS[1], "pass")
    assert table.awaiting(IDS[1]) is None  # answered: no "your move" alert
    table.act(IDS[1], f"react:{refs[1]}")  # changed its mind: the last answer counts
    assert table.view_for(IDS[1])["table"]["window"]["answer"] == f"react:{refs[1]}"
    assert "answer" not in table.view_for(IDS[2])["table"]["window"]
    assert game.state.window.answers[1] is None
    clock.now += 4
    table.act(IDS[2], "pass")
    assert game.state.window is None
    assert game.state.players[0].influence == 3  # ann won the lot and is envied
    assert any("plays Envy of the Forum" in line for line in game.log_for(None))


def test_a_window_of_bots_alone_never_waits() -> None:
    """Bots answer at once; with no person asked (ann holds no card) the game's window opens
    and closes with the clock standing still."""
    table, clock = _table(bots=2)
    game = table.game
    for seat in (1, 2):
        give(game, seat, "envy-of-the-forum", hand=True)
    market.start(game)
    game.state_changed()
    windows_seen = 0
    for _ in range(200):
        if game.state.window is not None:
            windows_seen += 1
            assert table.held.open is None and table.next_deadline() is None
        if game.state.phase is not Phase.MARKET:
            break
        if 0 in game.awaited():
            choice = "close" if game.state.market.auction is None else "bid:0"
            table.act(IDS[0], choice)
        elif not table.play_bot_step():
            break
    assert windows_seen and clock.now == START


def test_a_table_may_turn_the_window_off_and_wait_for_every_key() -> None:
    table, _ = _table(window=0)
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    assert table.next_deadline() is None and "window" not in table.view_for(IDS[1])["table"]
    table.act(IDS[1], "pass")
    assert table.game.state.window.answers[1] == "pass"  # given to the game at once


@pytest.mark.parametrize("snapshot", [False, True], ids=["from records", "from a snapshot"])
def test_a_window_open_at_a_restart_opens_afresh_with_its_answers_held(
    tmp_path, snapshot: bool
) -> None:
    """A held answer is acknowledged to its player (their screen shows it): it is saved and
    held again after a restart or a move to another node, where the window opens again for
    its full time (the server's downtime costs nobody). Issue 26: no acknowledged action lost."""
    from harena.core.store import Store
    from harena.core.table import load_tables

    store = Store(tmp_path)
    table, clock = _table(store=store)
    refs = _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    table.save_snapshot()  # (the fixture set the hands up outside the records)
    table.act(IDS[1], "pass")
    table.act(IDS[1], f"react:{refs[1]}")  # changed its mind: the last answer is the one kept
    if snapshot:
        table.save_snapshot()
    table.close()
    clock.now += 100
    (loaded,) = load_tables(store, clock=clock)
    assert loaded.game.state.window is not None
    assert loaded.next_deadline() == clock.now + 10
    assert loaded.view_for(IDS[1])["table"]["window"]["answer"] == f"react:{refs[1]}"
    assert "answer" not in loaded.view_for(IDS[2])["table"]["window"]
    clock.now += 10
    loaded.expire()
    assert loaded.game.state.players[0].influence == 3  # ann won the lot and is envied
    assert any("plays Envy of the Forum" in line for line in loaded.game.log_for(None))


def test_an_answer_given_by_the_window_is_not_held_again_at_the_next_window(tmp_path) -> None:
    """Rebuilt from a snapshot and the records after it (a cluster's failover): an answer of
    a window that has closed is not held in the next one."""
    from harena.core.table import Table as TableClass

    table, clock = _table()
    refs = _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    snap = table.snapshot_data()
    records: list[dict[str, Any]] = []
    table.records.log = type("Log", (), {"append": lambda self, r: records.append(dict(r))})()
    table.act(IDS[1], f"react:{refs[1]}")
    clock.now += 10
    table.expire()
    assert table.game.state.window is None
    rebuilt = TableClass.rebuild(table.id, snap, records, clock=clock)
    assert [r["t"] for r in records].count("hold") == 1
    assert rebuilt.held.open is None and rebuilt.held.saved == {}
    assert rebuilt.game.state.players[0].influence == 3


# --- secrecy: the same bytes whether anyone holds a Reaction ------------------------------------


def _twin(
    bob_holds: bool, answer: str, cat_answers: bool = False
) -> tuple[Table, Clock, list[dict[Any, bytes]]]:
    """A lot won with bob holding Envy of the Forum (or a Slander, which cannot answer), bob
    answering `answer` ("play" or "pass") after 3 s, cat "Let it be" after 5 s if
    `cat_answers`; every view the others and a spectator receive, step by step, and the
    table's next deadline, until the window has closed."""
    table, clock = _table()
    refs = _lot_won(table, {1: "envy-of-the-forum" if bob_holds else "slander", 2: "slander"})
    others = (IDS[0], IDS[2], None)

    def seen() -> dict[Any, Any]:
        return {who: _bytes(table, who) for who in others} | {"deadline": table.next_deadline()}

    steps = [seen()]
    clock.now += 3
    table.act(IDS[1], f"react:{refs[1]}" if answer == "play" else "pass")
    steps.append(seen())
    clock.now += 2
    if cat_answers:
        table.act(IDS[2], "pass")
    steps.append(seen())
    clock.now += 5
    table.expire()
    steps.append(seen())
    return table, clock, steps


@pytest.mark.parametrize("cat_answers", [False, True], ids=["cat lets it run out", "cat answers"])
@pytest.mark.parametrize("answer", ["play", "pass"])
def test_what_others_receive_is_the_same_whether_bob_holds_a_reaction(
    answer: str, cat_answers: bool
) -> None:
    """Proven with the secrecy checker's comparison on the bytes of every view: until the
    window closes (when it closes, whether cat's answer closed it) nothing differs; after,
    only a card played shows (it is revealed by the rules)."""
    holder = _twin(True, answer, cat_answers)[2]
    empty = _twin(False, "pass", cat_answers)[2]
    last = 2 if cat_answers else 3  # the step at which the window has closed
    for step in range(last):
        for who in (IDS[0], None, "deadline"):
            _same_step(holder, empty, step, who)
    if answer == "pass":
        assert holder == empty
    else:
        assert holder[last][None] != empty[last][None]


def _same_step(a: list[dict[Any, Any]], b: list[dict[Any, Any]], step: int, who: Any) -> None:
    x, y = a[step][who], b[step][who]
    assert x == y, (
        step,
        who,
        first_difference(msgpack.unpackb(x), msgpack.unpackb(y)) if isinstance(x, bytes) else None,
    )


def test_the_window_closes_when_the_last_person_answers_whatever_they_hold() -> None:
    """The close depends on who has answered, never on what: bob and cat both answering close
    the window at cat's answer, 5 s in, whether bob played a card or held nothing."""
    for bob_holds, answer in ((True, "play"), (True, "pass"), (False, "pass")):
        table, _clock, steps = _twin(bob_holds, answer, cat_answers=True)
        assert steps[1]["deadline"] == START + 10  # bob alone has answered: still open
        assert steps[2]["deadline"] is None and table.game.state.window is None
        assert table.game.state.market.auction.card is not None  # the next lot, at once


def test_the_twin_test_catches_a_window_that_waits_only_for_those_who_hold_a_reaction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tempting shortcut, planted: the window waits only for the persons who have more
    than "Let it be" to choose. Closing at bob's answer then tells everyone cat holds
    nothing; with nobody holding a card it would not close at bob's answer."""
    from harena.core import windows
    from harena.core.table.held import HeldWindows

    def holders_only(self: HeldWindows) -> list[int]:
        asked = windows.window_prompts(self.table.game)
        return [s for s, p in asked.items() if self.plays_for_themselves(s) and len(p.choices) > 1]

    monkeypatch.setattr(HeldWindows, "persons_asked", holders_only)
    holder = _twin(True, "pass")[2]
    empty = _twin(False, "pass")[2]
    assert holder[1]["deadline"] != empty[1]["deadline"]
    assert holder[1][None] != empty[1][None]


def test_the_twin_test_catches_a_window_that_spares_those_with_nothing_to_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tempting shortcut, planted: a window where no person asked has anything to play
    closes at once. It tells everyone that nobody asked holds a card."""
    from harena.core import windows
    from harena.core.table.held import HeldWindows

    real = HeldWindows.track

    def shortcut(self: HeldWindows, now: float, **kwargs: Any) -> None:
        real(self, now, **kwargs)
        asked = windows.window_prompts(self.table.game)
        if self.open is not None and all(len(p.choices) == 1 for p in asked.values()):
            self.open.closes = now

    monkeypatch.setattr(HeldWindows, "track", shortcut)
    holder = _twin(True, "pass")[2]
    empty = _twin(False, "pass")[2]
    assert holder[0]["deadline"] != empty[0]["deadline"]
    assert holder[0][None] != empty[0][None]


# --- "pass automatically": a player setting (core/players.py) -----------------------------------


def test_a_player_who_passes_automatically_is_answered_at_once_and_may_change_it() -> None:
    """bob (auto-pass on) holds Envy of the Forum: the window's "Let it be" is held for him
    the moment it opens (his view shows it, no "your move"), the game has no answer yet, and
    his key still changes it until the window closes."""
    table, clock = _table(auto_pass=(IDS[1],))
    refs = _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    game = table.game
    assert table.view_for(IDS[1])["table"]["window"]["answer"] == "pass"
    assert table.awaiting(IDS[1]) is None and game.state.window.answers[1] is None
    assert "answer" not in table.view_for(IDS[2])["table"]["window"]  # cat did not ask for it
    table.act(IDS[1], f"react:{refs[1]}")
    clock.now += 10
    table.expire()
    assert game.state.players[0].influence == 3  # the Envy was played after all
    assert any("plays Envy of the Forum" in line for line in game.log_for(None))


def test_a_player_who_passes_automatically_lets_it_be_without_a_key() -> None:
    table, clock = _table(auto_pass=(IDS[1],))
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    clock.now += 10
    table.expire()
    assert table.game.state.players[0].influence == 4  # nobody envied ann
    assert not any("plays Envy" in line for line in table.game.log_for(None))


def _views(bob_holds: bool, auto: bool, key: str | None, cat: str = "none") -> list[dict[Any, Any]]:
    """A lot won with bob holding Envy of the Forum or a Slander, passing automatically or
    not, pressing `key` ("pass", "play" or None) after 3 s; cat (a Slander) passing by a key
    after 5 s (`cat="key"`), automatically (`"auto"`) or not at all (`"none"`): every view
    ann and a spectator receive, and the table's next deadline, until the window has closed."""
    passing = ((IDS[1],) if auto else ()) + ((IDS[2],) if cat == "auto" else ())
    table, clock = _table(auto_pass=passing)
    refs = _lot_won(table, {1: "envy-of-the-forum" if bob_holds else "slander", 2: "slander"})
    others = (IDS[0], None)

    def seen() -> dict[Any, Any]:
        return {who: _bytes(table, who) for who in others} | {"deadline": table.next_deadline()}

    steps = [seen()]
    clock.now += 3
    if key is not None and table.game.state.window is not None:
        table.act(IDS[1], f"react:{refs[1]}" if key == "play" else "pass")
    steps.append(seen())
    clock.now += 2
    if cat == "key" and table.game.state.window is not None:
        table.act(IDS[2], "pass")
    steps.append(seen())
    clock.now += 5
    table.expire()
    steps.append(seen())
    return steps


def _same(a: list[dict[Any, Any]], b: list[dict[Any, Any]]) -> None:
    for step, (x, y) in enumerate(zip(a, b, strict=True)):
        for who in x:
            assert x[who] == y[who], (
                step,
                who,
                first_difference(msgpack.unpackb(x[who]), msgpack.unpackb(y[who]))
                if isinstance(x[who], bytes)
                else None,
            )


@pytest.mark.parametrize("cat", ["none", "key", "auto"])
@pytest.mark.parametrize(
    ("auto", "key"), [(True, None), (False, "pass"), (True, "pass"), (False, None)]
)
def test_what_others_receive_is_the_same_whether_bob_holds_a_reaction_however_he_passes(
    auto: bool, key: str | None, cat: str
) -> None:
    """Proven with the secrecy checker's comparison on the bytes of every view, step by step:
    however bob and cat pass (automatically, by a key, or by letting the window run out), ann
    and a spectator receive the same whether bob holds a Reaction or nothing."""
    _same(_views(True, auto, key, cat), _views(False, auto, key, cat))


def test_a_window_everyone_asked_passes_automatically_closes_at_once() -> None:
    """bob and cat pass automatically: both are answered the moment the window opens, so it
    closes then (whatever they hold: bob's Envy of the Forum is not played)."""
    table, clock = _table(auto_pass=(IDS[1], IDS[2]))
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    assert table.game.state.window is None and table.next_deadline() is None
    assert table.game.state.players[0].influence == 4 and clock.now == START


def test_the_twin_test_catches_an_auto_pass_given_to_the_game_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tempting shortcut, planted: an automatic pass goes to the game at once instead of
    being held. Others would see bob answered, and so that he passes automatically."""
    from harena.core import windows
    from harena.core.table.held import HeldWindows

    def at_once(self: HeldWindows) -> None:
        for seat, prompt in windows.window_prompts(self.table.game).items():
            identity = self.table.seats[seat].identity
            if identity is not None and self.passes(identity) and prompt.default:
                self.table.game.act(seat, prompt.default)

    monkeypatch.setattr(HeldWindows, "_pass_for_who_asked", at_once)
    with pytest.raises(AssertionError):
        _same(_views(True, True, None), _views(False, False, None))


def test_whether_a_person_answered_does_not_show_in_what_other_nodes_are_told() -> None:
    """A held answer is saved, but what the table tells every node of a cluster (its public
    state, `touched` included) and everyone's view are the same whether bob pressed "Let it
    be" or let the window answer for him."""
    from harena.server.cluster.host import public_state

    def run(answers: bool) -> list[bytes]:
        table, clock = _table()
        _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
        clock.now += 3
        if answers:
            table.act(IDS[1], "pass")
        seen = [msgpack.packb(public_state(table, "a"), use_bin_type=True)]
        seen += [_bytes(table, who) for who in (IDS[0], IDS[2], None)]
        clock.now += 7
        table.expire()
        seen += [msgpack.packb(public_state(table, "a"), use_bin_type=True)]
        return seen

    assert run(True) == run(False)


# --- a person alone with bots (a guided game, `harena play`) -------------------------------------


def _market_with_ann_alone(
    window: float, card: str, watcher: str | None = None
) -> tuple[Table, Clock, int]:
    """ann (holding `card`) and two heuristic bots at the Market (`watcher` watching); ann lets
    the bots win: each lot won opens a window that asks ann. Returns how many windows asked
    ann (-1: the table stopped on one)."""
    table, clock = _table(bots=2, window=window)
    if watcher is not None:
        table.watch(watcher, watcher)
    game = table.game
    give(game, 0, card, hand=True)
    market.start(game)
    game.state_changed()
    for _ in range(300):
        if game.state.phase is not Phase.MARKET:
            break
        if 0 in game.awaited():
            prompt = game.prompts_for(0)[0]
            if prompt.kind == "event_reaction":
                return table, clock, -1  # the table stopped on ann's window
            table.act(IDS[0], "close" if game.state.market.auction is None else "bid:0")
        elif not table.play_bot_step():
            break
    asked = sum("You let it be" in line for line in game.log_for(0))
    return table, clock, asked


@pytest.mark.parametrize("window", [0, 10], ids=["window off (a guided game)", "window 10 s"])
def test_a_person_alone_with_bots_is_never_stopped_by_a_window_with_only_let_it_be(
    window: float,
) -> None:
    """Issue 36: a guided table turns the window's time off, yet a window whose only choice
    for the learner was "Let it be" waited for a key. Alone with bots, nobody can learn from
    the window's timing, so the table lets it be for the person at once."""
    table, clock, asked = _market_with_ann_alone(window, "slander")
    assert asked > 0  # ann was asked (a Slander in hand), and was never stopped
    assert clock.now == START and table.next_deadline() is None


def test_a_person_alone_with_bots_is_asked_alike_while_someone_watches() -> None:
    """A spectator would read from an instant "Let it be" that the hand holds nothing that
    answers: while anyone watches, the lone person is asked as at any table."""
    _table, _clock, asked = _market_with_ann_alone(10, "slander", watcher="id-spectator")
    assert asked == -1  # the table waits for ann's key, as it would with a Reaction in hand


def test_a_person_alone_with_a_reaction_is_still_asked() -> None:
    table, _clock, asked = _market_with_ann_alone(10, "envy-of-the-forum")
    assert asked == -1  # the window waits for ann's key: she may play her card
    assert table.awaiting(IDS[0]) is not None
    table.act(IDS[0], "pass")  # and her answer closes it at once
    assert table.game.state.window is None


def test_a_window_every_person_had_answered_at_a_restart_closes_at_once(tmp_path) -> None:
    """Answers held before a restart still count: when every person asked had answered, the
    window is due the moment the table is loaded (the clock closes it)."""
    from harena.core.store import Store
    from harena.core.table import load_tables

    store = Store(tmp_path)
    table, clock = _table(store=store)
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    table.save_snapshot()
    table.act(IDS[1], "pass")
    held = table.held.open
    assert held is not None
    held.held[2] = "pass"  # cat's answer was saved, then the server stopped before the close
    table._save({"t": "hold", "seat": 2, "choice": "pass"}, touch=False)
    table.close()
    clock.now += 100
    (loaded,) = load_tables(store, clock=clock)
    assert loaded.game.state.window is not None and loaded.next_deadline() == clock.now
    loaded.expire()
    assert loaded.game.state.window is None


def test_a_guided_spartacus_game_never_stops_the_learner_on_let_it_be_alone() -> None:
    """The guided game itself (core/guide.py: window off, the learner and easy bots): played
    for a few rounds, every window the learner is left to answer offers a card to play;
    those where "Let it be" was all were answered for them (the log says "You let it be")."""
    from harena.core.bots import decide
    from harena.core.guide import create_guided_table

    lobby = Lobby()
    table = create_guided_table(lobby, IDS[0], "ann", "spartacus")
    game = table.game
    assert isinstance(game, Spartacus)
    learner = game.bots["heuristic"](7)  # chooses for the learner, from the learner's view
    for _ in range(3000):
        if game.result() is not None or game.state.round > 3:
            break
        if 0 in game.awaited():
            prompt = next(p for p in game.prompts_for(0) if not p.standing)
            assert not (prompt.default and len(prompt.choices) == 1), prompt.text
            table.act(IDS[0], decide(game, 0, learner))
        elif not table.play_bot_step():
            break
    assert sum("You let it be" in line for line in game.log_for(0)) > 0
    assert game.state.round > 2


def test_an_answer_sends_the_others_nothing_before_the_close() -> None:
    """Ruling (docs/rulings.md): who has answered is not shown before the close. Bob's key
    changes no byte of what ann, cat or a spectator receive, nor the table's deadline."""
    table, _clock = _table()
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    others = (IDS[0], IDS[2], None)
    before = [_bytes(table, who) for who in others] + [table.next_deadline()]
    table.act(IDS[1], "pass")
    assert table.game.state.window is not None
    assert [_bytes(table, who) for who in others] + [table.next_deadline()] == before


def test_a_schemes_window_asks_everyone_but_the_schemer_and_closes_at_the_last_answer() -> None:
    """rules: Canceling a Scheme. Ann launches a Slander at bob while holding a Counter-Plot
    herself: bob and cat are asked (the same prompt, "Let it be" first), ann is not; the
    window closes the moment both have answered."""
    table, clock = _table()
    game = table.game
    assert isinstance(game, Spartacus)
    intrigue.start(game)
    game.state.intrigue.turn = 0
    for p in game.state.players:
        p.hand.clear()
    slander = give(game, 0, "slander", hand=True)
    give(game, 0, "counter-plot", hand=True)
    give(game, 1, "rumours", hand=True)
    give(game, 2, "counter-plot", hand=True)
    game.state_changed()
    table.act(IDS[0], f"scheme:{slander}")
    table.act(IDS[0], "target:1")
    asked = {s: p.kind for s, p in window_prompts(game).items()}
    assert asked == {1: "reaction", 2: "reaction"}
    assert table.next_deadline() == START + 10
    table.act(IDS[1], "pass")
    table.act(IDS[2], "pass")
    assert game.state.intrigue.scheme is None and table.next_deadline() is None
    assert clock.now == START
    assert game.state.players[1].influence == 3  # the Slander went through
