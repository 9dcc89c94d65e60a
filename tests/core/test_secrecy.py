"""Nothing a seat may not know reaches it (issue 12), proved by the secrecy checker on random
games of each game, and the checker shown to catch leaks planted on purpose."""

from __future__ import annotations

from typing import Any

import pytest

from harena.core.carthage import view as carthage_view
from harena.core.engine import Game
from harena.core.spartacus import auction, schemes
from harena.core.spartacus.rules import Spartacus
from tests.core.carthage.test_rules_favor import favor_phase
from tests.core.secrecy import SecrecyChecker, Tally, check_games, first_difference, fork
from tests.core.secrecy_models import CARTHAGE, SPARTACUS
from tests.core.spartacus.helpers import at_the_market, choose_houses, give, new_game

GAMES = 240  # of each game; bench/secrecy.py plays thousands, every alternative
SPARTACUS_GAMES = 120  # longer games: 120 still check some 18,000 views and 80,000 alternatives
SAMPLED = {"scramble_rate": 0.02, "decision_rate": 0.3, "alternatives": 1, "follow": 8,
           "max_followed": 3}  # fmt: skip
SPARTACUS_OPTIONS = ({"round_limit": "10", "length": "quick"}, {"round_limit": "10"})


def _leaks(tally: Tally) -> list[str]:
    return [str(leak) for leak in tally.leaks[:10]]


def test_random_games_of_carthage_leak_nothing() -> None:
    tally = check_games("carthage", CARTHAGE, games=GAMES, seed=12, players=(2, 3, 4), **SAMPLED)
    assert tally.games == GAMES and tally.views > 5_000 and tally.alternatives > 5_000
    assert _leaks(tally) == []


def test_team_games_of_carthage_leak_nothing() -> None:
    # rulebook: Player Modes; a teammate's hand is as secret as anyone's
    modes = ({"teams": "2v2"}, {"teams": "2v2_chained"}, {"teams": "2v3"})
    tally = check_games(
        "carthage", CARTHAGE, games=24, seed=14, players=(4, 4, 5), options=modes,
        bots=("random", "heuristic"), **SAMPLED,
    )  # fmt: skip
    assert tally.games == 24 and tally.views > 500


@pytest.mark.parametrize(("mode", "players"), [("solo", (1,)), ("coop", (2, 3))])
def test_essedari_games_leak_nothing(mode: str, players: tuple[int, ...]) -> None:
    """Solo keeps his deck hidden; co-op shows his next Action and nothing more."""
    tally = check_games(
        "carthage", CARTHAGE, games=30, seed=14, players=players, options=({"essedari": mode},),
        bots=("random", "heuristic"), **{**SAMPLED, "scramble_rate": 0.2},
    )  # fmt: skip
    assert tally.games == 30 and tally.views > 500
    assert _leaks(tally) == []


def test_random_games_of_spartacus_leak_nothing() -> None:
    tally = check_games(
        "spartacus", SPARTACUS, games=SPARTACUS_GAMES, seed=12, players=(2, 3, 4),
        options=SPARTACUS_OPTIONS, gift_rate=0.02, **SAMPLED,
    )  # fmt: skip
    assert tally.games == SPARTACUS_GAMES and tally.views > 5_000 and tally.alternatives > 5_000
    assert _leaks(tally) == []


def test_heuristic_games_of_spartacus_with_asks_and_bribes_leak_nothing() -> None:
    """Asks and bribes (the bots' and random ones) reveal no hidden treasury: asking is open to
    anyone for any sum, paying follows the gift's rules (docs/rulings.md, "Asks")."""
    tally = check_games(
        "spartacus", SPARTACUS, games=4, seed=16, players=(4, 3), options=SPARTACUS_OPTIONS,
        bots=("heuristic",), gift_rate=0.03, **SAMPLED,
    )  # fmt: skip
    assert tally.games == 4 and tally.deals > 20 and tally.views > 100
    assert _leaks(tally) == []


# --- the checker itself ---------------------------------------------------------------------------


def test_first_difference_names_the_place() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) is None
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "view.a[1].b: 2 != 3"
    assert first_difference([1], [1, 2]).startswith("view: 1 items != 2 items")


def test_a_fork_is_independent_of_its_game() -> None:
    game = at_the_market()
    before = game.view(None)
    twin = fork(game)
    twin.act(0, "close")
    assert game.view(None) == before and twin.view(None) != before


def _caught(game_name: str, games: int = 30, **extra: Any) -> list[str]:
    model = CARTHAGE if game_name == "carthage" else SPARTACUS
    options = ({},) if game_name == "carthage" else SPARTACUS_OPTIONS
    tally = check_games(game_name, model, games=games, seed=5, players=(3, 4), options=options,
                        scramble_rate=0.1, alternatives=2, follow=15, max_followed=6, **extra)  # fmt: skip
    return [leak.check for leak in tally.leaks]


def test_a_planted_hidden_count_in_the_board_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """How many Schemes the other Dominus hold: no card is named, and it is still a leak."""
    real = Spartacus.board_view

    def leaky(game: Spartacus, seat: int | None) -> dict[str, Any]:
        board = real(game, seat)
        board["their_schemes"] = sum(
            game.card(c).kind.value == "scheme"
            for s, p in enumerate(game.state.players) if s != seat for c in p.hand
        )  # fmt: skip
        return board

    monkeypatch.setattr(Spartacus, "board_view", leaky)
    assert any(check.startswith("scramble:") for check in _caught("spartacus", games=3))


def test_a_planted_bid_in_a_redacted_log_line_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game.emit

    def leaky(game: Game, text: str, **kw: Any) -> None:
        if kw.get("redacted", "") and kw["redacted"].endswith("has bid"):
            kw["redacted"] += f" ({len(text)})"  # "You bid 12" is longer than "You bid 3"
        real(game, text, **kw)

    monkeypatch.setattr(Game, "emit", leaky)
    assert any(check.startswith("decision:bid:") for check in _caught("spartacus", games=3))


def test_the_support_shortfall_counting_the_answers_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's first leak, put back: the shortfall read while answers come in counts them."""
    real = schemes._missing
    monkeypatch.setattr(schemes, "_missing", lambda game, scheme, **kw: real(game, scheme))
    game = new_game(4, 1, length="advanced", round_limit="10")
    choose_houses(game, ("solonius", "glaber", "batiatus", "tullius"))
    letters = give(game, 0, "forged-letters", hand=True)  # needs 4 Influence: Solonius has 1
    for seat, choice in ((0, f"scheme:{letters}"), (0, "target:1"), (0, "ask:show")):
        game.act(seat, choice)
    checker = SecrecyChecker(SPARTACUS, 1)
    checker.before(game, 1, "support")
    game.act(1, "support")
    checker.after(game, 1, "support", fresh=1)
    assert {(leak.check, leak.viewer) for leak in checker.tally.leaks} >= {
        ("decision:refuse instead of support", 2),
        ("decision:refuse instead of support", 3),
    }
    checker.scramble(game)
    assert any(leak.check == "scramble:support answers" for leak in checker.tally.leaks)


def test_a_roll_off_decided_by_hidden_treasuries_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's auction leak, put back: tied leaders who cannot add anything roll off at
    once. A hidden treasury scrambled before the last bid, played on, must then show."""
    real = auction._reveal

    def by_treasury(game: Spartacus, a: Any) -> None:
        totals = {s: a.totals[s] + (a.bids[s] or 0) for s in a.bidders}
        best = max(totals.values())
        leaders = [s for s in a.bidders if totals[s] == best]
        broke = all(game.state.players[s].denarii <= totals[s] for s in leaders)
        if best > 0 and len(leaders) > 1 and broke and not any(a.totals):
            for s in a.bidders:
                a.totals[s] = totals[s]
            winner = auction._roll_off(game, leaders)
            auction._award(game, a, winner, a.totals[winner])
            return
        real(game, a)

    monkeypatch.setattr(auction, "_reveal", by_treasury)
    game = at_the_market()
    for seat in range(4):
        game.act(seat, "close")
    checker = SecrecyChecker(SPARTACUS, 3, follow=5)
    game.act(0, "bid:10")  # all 0 and 1 have: the tie below leaves them broke
    game.act(1, "bid:10")
    game.act(2, "bid:0")
    for _ in range(20):  # each scramble moves the hidden treasuries at random
        checker.scramble(game)
        twin = fork(game)
        checker._followed = [
            f for f in checker._followed if f.check == "scramble:hidden treasuries"
        ]
        twin.act(3, "bid:0")
        checker.after(twin, 3, "bid:0")
        if any(leak.check == "scramble:hidden treasuries" for leak in checker.tally.leaks):
            break
    assert any(leak.check == "scramble:hidden treasuries" and "auction" in leak.where
               for leak in checker.tally.leaks)  # fmt: skip


def test_a_secret_lobby_named_by_the_discard_pile_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's Carthage leak, put back: the others see the real discard pile."""

    def real_pile(game: Any, seat: int | None) -> dict[str, Any]:
        board = real(game, seat)
        board["theater"]["discard"] = list(game.state.theater_discard)
        return board

    real = carthage_view.board_view
    from harena.core.carthage import rules as carthage_rules

    monkeypatch.setattr(carthage_rules, "board_view", real_pile)
    game = favor_phase([2, 2])
    checker = SecrecyChecker(CARTHAGE, 2)
    choice = f"lobby:{game.state.theater_discard[0]}"
    checker.before(game, 0, choice)
    game.act(0, choice)
    checker.after(game, 0, choice, fresh=len(checker._followed))
    assert any(leak.check.startswith("decision:lobby:") and leak.viewer == 1
               for leak in checker.tally.leaks)  # fmt: skip
    game.act(0, "hide")
    for _ in range(10):  # a scramble may choose the lobbied card itself again
        checker.scramble(game)
    assert any(leak.check == "scramble:all" and leak.viewer == 1 for leak in checker.tally.leaks)


# --- the view's action counter and two-step gifts (both gone) -----------------------------------------


def test_how_many_steps_a_hidden_scheme_took_is_not_told() -> None:
    """A Scheme at yourself skips choosing a target: counting moves told the table which kind
    of Scheme is being asked for in secret."""
    game = new_game(4, 1, length="advanced", round_limit="10")
    choose_houses(game, ("solonius", "glaber", "batiatus", "tullius"))
    letters = next(c for c in game.state.players[0].hand if game.card(c).name == "Forged Letters")
    senate = give(game, 0, "favour-of-the-senate", hand=True)  # at yourself, Influence 5
    game.state.players[0].denarii = 10  # the same for both: the Scheme's cost is affordable
    game.state_changed()
    aimed, at_self = fork(game), fork(game)
    for choice in (f"scheme:{letters}", "target:1", "ask:hide"):
        aimed.act(0, choice)
    for choice in (f"scheme:{senate}", "ask:hide"):
        at_self.act(0, choice)
    for seat in (1, 2, 3, None):
        assert first_difference(aimed.view(seat), at_self.view(seat)) is None


def test_a_seat_choosing_a_gift_is_not_shown_as_waited_for() -> None:
    """Whether a Dominus is in the middle of giving denarii is theirs to know."""
    game = at_the_market()
    standing = next(p for p in game.prompts_for(0) if p.standing)
    game.act(0, standing.choices[0].id)
    assert [seat for seat, _ in game.view(1)["waiting"]] == [0, 1, 2, 3]
    assert {kind for _, kind in game.view(1)["waiting"]} == {"open_market"}
