"""Essedari Maximo set up and player counts (rulebook: Essedari Maximo - APP DRIVEN, "How to
Set Up Essedari Maximo"; Co-op Rules; Solo Rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.core.carthage.content import ContentError
from harena.core.carthage.essedari.actions import Mode, default_essedari, load_essedari
from harena.core.carthage.essedari.track import track
from harena.core.carthage.hexgrid import distance
from harena.core.engine import GameConfigError, make_config
from tests.core.carthage.essedari_helpers import TEST_ACTIONS
from tests.core.carthage.table_helpers import new_carthage


def placed(players: int, mode: str, seed: int = 3):
    """A new game of the mode, up to its first round: every gladiator placed by its first choice."""
    game = new_carthage(players, seed, essedari=mode)
    while game.state.round == 0:
        prompt = game.prompts()[0]
        game.act(prompt.seat, prompt.choices[0].id)
    return game


def test_no_theater_cards() -> None:
    """ "Remove the Theater Cards from the game.\""""
    game = placed(2, "coop")
    s = game.state
    assert s.theater_deck == [] and s.theater_discard == [] and s.theater_card is None
    assert not any(e.text.startswith("Theater:") for e in game.events)


@pytest.mark.parametrize(
    ("mode", "players", "count"), [("solo", 1, 3), ("coop", 2, 4), ("coop", 3, 4), ("coop", 4, 5)]
)
def test_random_tokens_on_the_inside_edge_of_the_inner_circle(
    mode: str, players: int, count: int
) -> None:
    """ "The number of Arena Tokens is determined by the number of Carthage players plus one,
    with a minimum of 4 Arena Tokens on the board in Co-op Mode and 3 Arena Tokens in Solo
    Mode. Pillar Tokens are not permitted.\""""
    layouts = set()
    for seed in range(6):
        game = new_carthage(players, seed, essedari=mode)
        tokens = game.state.tokens
        assert len(tokens) == count
        assert all(distance(game.arena.centre, h) == 2 for h in tokens)  # the Inner Circle's edge
        assert not any(game.token_defs[t.token].kind.blocks for t in tokens.values())
        layouts.add(tuple(sorted((h, t.token) for h, t in tokens.items())))
    assert len(layouts) > 1  # "Choose at random"


def test_the_chariot_starts_on_the_outside_edge_of_the_inner_circle() -> None:
    """ "place anywhere along the outside edge of the Inner Circle\""""
    spots = set()
    for seed in range(8):
        game = new_carthage(2, seed, essedari="coop")
        at = game.essedari_mode.chariot_hex()
        assert at is not None and distance(game.arena.centre, at) == 3 and at in track(game.arena)
        spots.add(at)
    assert len(spots) > 1


def test_armor_15_solo_and_15_per_player_in_coop() -> None:
    """ "In Solo Mode the Essedari Maximo has a starting Armor of 15." / "the starting Armor
    ... is 15 x the number of players (e.g. 3 players = 45 Armor)\""""
    assert new_carthage(1, 1, essedari="solo").state.essedari.armor == 15
    assert new_carthage(3, 1, essedari="coop").state.essedari.armor == 45


def test_player_counts_solo_1_coop_2_to_4() -> None:
    """Solo is one player; co-op is 2 to 4 (harena's maximum, docs/essedari.md)."""
    assert make_config("carthage", 1, 1, {"essedari": "solo"}).players == 1
    for players in (2, 3, 4):
        assert make_config("carthage", players, 1, {"essedari": "coop"}).players == players
    for players, mode in ((2, "solo"), (1, "coop"), (5, "coop")):
        with pytest.raises(GameConfigError, match=f"essedari={mode} takes"):
            make_config("carthage", players, 1, {"essedari": mode})


def test_the_free_for_all_is_untouched() -> None:
    game = new_carthage(2, 1)
    assert game.state.essedari is None and game.board_view(0)["essedari"] is None
    assert len(game.state.theater_discard) == 3


def test_coop_actions_move_1_to_6_and_use_no_solo_action() -> None:
    """ "The Essedari Maximo moves between 1-6 spaces per turn." and "Below are some Actions
    that are not found in Co-op Mode" (Cross, Net, Javelin's Favor loss, Trample, Crushed)."""
    content = default_essedari()
    for action_id in content.modes[Mode.COOP].deck:
        action = content.action(action_id)
        assert 1 <= action.move <= 6 and not action.cross
        assert (
            not (action.trample or action.crush or action.favor_loss)
            and action.attack.value != "net"
        )


def _broken(tmp_path: Path, old: str, new: str) -> str:
    (tmp_path / "essedari.toml").write_text(TEST_ACTIONS.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_essedari(tmp_path)
    return str(err.value)


def test_data_refuses_a_135_degree_cross(tmp_path: Path) -> None:
    """ "Cross - ... in a 45° or 90° angle (but never a 135° angle)\""""
    message = _broken(tmp_path, "cross = 90", "cross = 135")
    assert "essedari.toml: action 'cross-90'" in message and "never 135" in message


def test_data_refuses_a_solo_action_in_coop(tmp_path: Path) -> None:
    message = _broken(
        tmp_path,
        'modes = ["solo"]\nmove = 1\ndamage = 0\nattack = "net"',
        'modes = ["coop"]\nmove = 1\ndamage = 0\nattack = "net"',
    )
    assert "action 'net'" in message and "not found in Co-op Mode" in message


def test_data_refuses_a_coop_move_over_6(tmp_path: Path) -> None:
    message = _broken(tmp_path, "move = 6", "move = 7")
    assert "action 'chase': field 'move' must be at most 6" in message


def test_data_needs_one_bonus_per_round(tmp_path: Path) -> None:
    message = _broken(tmp_path, "damage_bonus = [0, 1, 2, 3, 4, 5, 6, 7]", "damage_bonus = [0, 1]")
    assert "[solo]: field 'damage_bonus' must list 8" in message


def test_the_lobby_offers_carthage_from_2_players_and_solo_from_1() -> None:
    """The create-table form starts at the fewest players the default options allow (2), and
    cycles down to 1 for essedari=solo (Carthage's range is 1-5)."""
    from harena.core.engine import default_players
    from harena.core.lobby import Lobby

    carthage = next(g for g in Lobby().view()["games"] if g["name"] == "carthage")
    assert (carthage["min_players"], carthage["default_players"], carthage["max_players"]) == (
        1,
        2,
        5,
    )
    assert default_players("carthage", {"essedari": "solo"}) == 1
    assert default_players("carthage", {"essedari": "coop"}) == 2
