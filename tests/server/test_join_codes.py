"""Guessing share codes (`ssh host join CODE`, server/common/limits.py `CodeGuard`): tries are
counted per key and per address, a try over the limit is not even looked up, and a thousand
guesses from one address are slowed to a trickle and find nothing. The guard's clock is
injected: nothing sleeps."""

from __future__ import annotations

from harena.core.commands import JoinCode
from harena.core.lobby import Lobby
from harena.core.privacy import Privacy, new_code
from harena.server.common.limits import CodeGuard
from harena.server.service.command_replies import TOO_MANY_CODES, WRONG_CODE, check_join


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def lobby_with_a_code() -> tuple[Lobby, str]:
    lobby = Lobby()
    table = lobby.create_table("ann-key", "ann", "highcard", 3, privacy=Privacy())
    return lobby, table.add_code("ann-key")


def test_a_thousand_guesses_from_one_address_are_slowed_and_none_succeeds():
    lobby, code = lobby_with_a_code()
    clock = Clock()
    guard = CodeGuard(burst=5, every=30.0, clock=clock)
    answers = []
    for n in range(1000):
        # a new key for every guess: the address alone holds them back
        answers.append(check_join(lobby, f"key-{n}", JoinCode(new_code()), guard, "203.0.113.9"))
        clock.now += 1.0  # one guess a second, for 1000 s
    looked_up = [a for a in answers if a == WRONG_CODE]
    slowed = [a for a in answers if a is not None and a.startswith("harena: too many codes")]
    assert None not in answers  # none succeeded
    assert len(looked_up) + len(slowed) == 1000
    assert len(looked_up) <= 5 + 1000 // 30 + 1  # the burst, then one per 30 s
    assert len(slowed) >= 950
    # the address is still held back: even the right code from it is not looked up now
    assert check_join(lobby, "key-x", JoinCode(code), guard, "203.0.113.9") != WRONG_CODE
    assert check_join(lobby, "key-x", JoinCode(code), guard, "203.0.113.9") is not None


def test_the_right_code_is_refused_too_while_the_limit_holds_and_works_after():
    lobby, code = lobby_with_a_code()
    clock = Clock()
    guard = CodeGuard(burst=2, every=30.0, clock=clock)
    for _ in range(2):
        assert check_join(lobby, "eve", JoinCode(new_code()), guard, "a") == WRONG_CODE
    assert check_join(lobby, "eve", JoinCode(code), guard, "a") == TOO_MANY_CODES.format(seconds=30)
    clock.now += 30
    assert check_join(lobby, "eve", JoinCode(code), guard, "a") is None


def test_tries_are_counted_per_key_whatever_the_address():
    lobby, _code = lobby_with_a_code()
    guard = CodeGuard(burst=3, every=30.0, clock=Clock())
    answers = [
        check_join(lobby, "eve", JoinCode(new_code()), guard, f"198.51.100.{n}") for n in range(10)
    ]
    assert answers.count(WRONG_CODE) == 3


def test_a_wrong_a_revoked_and_an_expired_code_get_the_same_answer():
    lobby, code = lobby_with_a_code()
    guard = CodeGuard(burst=10, clock=Clock())
    (table,) = lobby.tables.values()
    wrong = check_join(lobby, "eve", JoinCode(new_code()), guard, "a")
    table.revoke_codes("ann-key")
    revoked = check_join(lobby, "eve", JoinCode(code), guard, "a")
    late = table.add_code("ann-key")
    table.close_game("op", "closed")
    expired = check_join(lobby, "eve", JoinCode(late), guard, "a")
    nonsense = check_join(lobby, "eve", JoinCode("hello"), guard, "a")
    assert wrong == revoked == expired == nonsense == WRONG_CODE


def test_the_guard_forgets_rested_keys_rather_than_grow_without_bound():
    clock = Clock()
    guard = CodeGuard(burst=1, every=1.0, clock=clock)
    guard.MAX_KEPT = 10
    for n in range(30):
        guard.admit(f"key-{n}", f"address-{n}")
        clock.now += 5.0
    assert len(guard._buckets) <= 12
