"""A Lobby kept secret stays secret (issue 12): the Theater discard pile and the next Lobby
menu read the same whichever card was lobbied (docs/rulings.md, a secret Lobby)."""

from __future__ import annotations

from harena.core.carthage.rules import Carthage
from tests.core.carthage.test_rules_favor import favor_phase


def _two_distinct(game: Carthage) -> tuple[str, str]:
    pile = list(dict.fromkeys(game.state.theater_discard))
    assert len(pile) >= 2, "the burned Theater cards should differ"
    return pile[0], pile[1]


def _lobbied_in_secret(card: str) -> Carthage:
    game = favor_phase([2, 2])
    game.act(0, f"lobby:{card}")
    game.act(0, "hide")
    return game


def test_a_secret_lobby_leaves_the_pile_and_the_lobby_menu_as_the_others_saw_them() -> None:
    """rulebook: Favor Options, Lobby - the lobbier chooses whether to reveal the card."""
    first, second = _two_distinct(favor_phase([2, 2]))
    before = list(favor_phase([2, 2]).state.theater_discard)
    one, other = _lobbied_in_secret(first), _lobbied_in_secret(second)
    for seat in (1, None):
        assert one.view(seat) == other.view(seat)
    assert one.view(1)["board"]["theater"]["discard"] == before
    assert f"lobby:{first}" in [c for c, _ in one.view(1)["prompts"][0]["choices"]]
    # the lobbier knows where the card went
    assert one.view(0)["board"]["theater"]["discard"].count(first) == before.count(first) - 1
    assert one.view(0)["board"]["theater"]["top_known"] == first


def test_a_lobby_after_a_lobby_returns_the_first_card_to_where_it_was_and_plays_the_second() -> (
    None
):
    """rulebook: "the card which was most recently Lobbied will be the next and only card
    played"; ruling: the one lobbied before goes back to the discard pile (docs/rulings.md)."""
    probe = favor_phase([2, 2])
    first, second = _two_distinct(probe)
    before = list(probe.state.theater_discard)
    game = _lobbied_in_secret(first)
    game.act(1, f"lobby:{second}")
    assert game.view(0)["board"]["theater"]["top_known"] is None  # no longer the first card
    game.act(1, "reveal")  # nobody has Favor left: the next round flips the Theater card
    s = game.state
    expected = list(before)
    del expected[len(expected) - 1 - expected[::-1].index(second)]
    assert s.round == 2 and s.theater_card == second
    assert s.theater_discard == expected + [second]
