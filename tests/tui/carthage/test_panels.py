"""The side panels and the keys of the Carthage board, as pure functions of a real table's
views (a 4-seat table scripted through the public API, see script.py)."""

from __future__ import annotations

from harena.tui.boards.carthage import keys, panels
from harena.tui.boards.carthage.arena import plain
from harena.tui.terminal import utf8_terminal
from tests.tui.carthage import script


def scripted_view(identity: str = script.ALICE, steps: int = 2) -> dict:
    """The table after alice's first `steps` choices (placement, then a card)."""
    _lobby, table = script.new_table()
    for _ in range(steps):
        script.run_others(table)
        table.act(script.ALICE, script.alice_plan(table))
    script.run_others(table)
    return table.view_for(identity)


def texts(lines) -> list[str]:
    return plain(lines)


def test_a_hand_longer_than_its_panel_says_how_many_cards_more() -> None:
    # issue 36: a list is never cut without a word
    view = scripted_view()
    whole = texts(panels.hand_lines(view, 40, False))
    assert len(whole) >= 3
    cut = texts(panels.hand_lines(view, 40, False, height=2))
    assert cut == [whole[0], f"+{len(whole) - 1} more (a taller terminal shows them)"]
    assert texts(panels.hand_lines(view, 40, False, height=len(whole))) == whole


def test_players_show_armor_favor_cards_start_and_turn() -> None:
    view = scripted_view()
    lines = texts(panels.player_lines(view, 42))
    assert len(lines) == 4 and all(len(line) == 42 for line in lines)
    assert lines[3].startswith("Y alice (you)")
    assert "A15" in lines[3] and "H" in lines[3] and "D 5/" in lines[3]
    starting = view["game"]["board"]["starting_player"]
    assert lines[starting][-3:].strip().startswith("S") or " S" in lines[starting]
    waiting = view["game"]["waiting"][0][0]
    assert "▶" in lines[waiting]
    wide = texts(panels.player_lines(view, 70))
    assert "Thracian" in wide[3]  # the class, when there is room


def test_an_offline_player_and_a_fallen_gladiator_are_marked() -> None:
    view = scripted_view()
    view["table"]["seats"][1]["connected"] = False
    view["game"]["board"]["players"][2]["alive"] = False
    lines = texts(panels.player_lines(view, 42))
    assert lines[1].endswith("offline") and lines[2].endswith("OUT")


def test_the_hand_is_shown_only_to_its_owner() -> None:
    alice = scripted_view()
    hand = texts(panels.hand_lines(alice, 40, False))
    assert hand and not any("no hand" in line for line in hand)
    spectator = scripted_view(identity="id-nobody")
    assert spectator["game"]["board"]["hand"] is None
    assert texts(panels.hand_lines(spectator, 40, False)) == ["(watching: no hand)"]
    other = scripted_view(identity=script.OTHERS[0])
    mine = {instance for instance, _ in alice["game"]["board"]["hand"]}
    theirs = {instance for instance, _ in other["game"]["board"]["hand"]}
    assert mine and theirs and not mine & theirs  # each view holds its own seat's cards only


def test_a_card_line_has_cost_name_icons_and_words() -> None:
    line = "".join(plain([panels.card_line("fitted-laminar", 70, False)]))
    assert line.startswith("5 Fitted Laminar ♦†/»♦  Armor +2, Damage 3 / Move 3, Armor +2")
    assert "".join(plain([panels.card_line("fitted-laminar", 60, True)])).startswith(
        "5 Fitted Laminar +!/>+"
    )
    narrow = "".join(plain([panels.card_line("fitted-laminar", 20, False)]))
    assert len(narrow) <= 20 and "♦†/»♦" in narrow


def test_the_theater_line_wraps_and_cuts() -> None:
    view = scripted_view()
    one = texts(panels.theater_lines(view, 40, 1))
    assert len(one) == 1 and one[0].startswith("Round 1 · Theater:") and len(one[0]) <= 40
    assert len(texts(panels.theater_lines(view, 40, 3))) <= 3


def test_waiting_and_result_lines_name_gladiators() -> None:
    view = scripted_view(identity=script.OTHERS[0])
    assert panels.waiting_text(view) == "Waiting for Y Yellow Thracian (alice) to play a card."
    view["game"]["result"] = {"winners": [3], "reason": "last gladiator standing"}
    view["game"]["board"]["eliminated"] = [1, 0, 2]
    lines = panels.result_lines(view)
    assert lines[0] == "Winner: Y Yellow Thracian (alice): last gladiator standing, round 1"
    assert lines[1] == "You did not win this time."
    assert lines[2].startswith("Fell, in order: R Red Dimachaerus (s1), B Blue")
    assert lines[3].startswith("Final: B Armor")


def test_direction_keys_and_the_cursor_answer_only_with_legal_choices() -> None:
    _lobby, table = script.new_table()
    script.run_others(table)
    game = table.view_for(script.ALICE)["game"]
    assert keys.hex_choice(game, (4, -2)) == ("hex:4,-2", "")
    assert keys.hex_choice(game, (0, 0))[0] is None  # not on the edge
    assert keys.direction_choice(game, "NE") is None  # no move to make
    assert keys.hints(game)[(4, -2)] == "o"
    assert keys.cursor_home(game, (0, 0)) in keys.hints(game)


def test_spending_favor_asks_twice_but_declining_does_not() -> None:
    game = {"prompts": [{"kind": "favor", "choices": [["buy:0", "Buy"], ["pass", "Pass"]]}]}
    assert keys.needs_confirm(game, "buy:0") and keys.needs_confirm(game, "pass")
    game = {"prompts": [{"kind": "evaluate_buy", "choices": [["decline", "No"]]}]}
    assert not keys.needs_confirm(game, "decline")
    game = {"prompts": [{"kind": "play_card", "choices": [["play:1", "Jab"]]}]}
    assert not keys.needs_confirm(game, "play:1")


def test_direction_labels_carry_their_keys() -> None:
    prompts = [{"kind": "move_step", "choices": [["dir:NE", "NE"], ["dir:W", "W"]]}]
    assert keys.decorate(prompts)[0]["choices"] == [
        ["dir:NE", "NE (e)"],
        ["dir:W", "W (a)"],
    ]


def test_utf8_comes_from_the_locale_the_client_sent() -> None:
    assert utf8_terminal({}, "xterm-256color")
    assert utf8_terminal({"LANG": "en_US.UTF-8"}, "xterm")
    assert utf8_terminal({"LC_ALL": "de_DE.utf8", "LANG": "C"}, "xterm")
    assert not utf8_terminal({"LANG": "C"}, "xterm")
    assert not utf8_terminal({"LC_CTYPE": "en_US.ISO-8859-1", "LANG": "en_US.UTF-8"}, "xterm")
    assert not utf8_terminal({}, "vt100")


async def test_the_log_names_players_never_seats() -> None:
    """Before gladiators are chosen the game writes "Seat 2 is the Starting Player": the log
    panel names the player instead (one name per player, never a seat number)."""
    from harena.core.lobby import Lobby
    from tests.tui.harness import screen_text, session

    lobby = Lobby(new_seed=lambda: 1)
    table = lobby.create_table("id-ann", "ann", "carthage", 2, {"gladiators": "choose"})
    table.sit("id-bob", "bob")
    assert any("Seat " in line for line in table.game.log_for(None))
    async with session(lobby, "id-ann", "ann") as (app, _pilot):
        text = screen_text(app)
        assert "Seat " not in text
        assert "is the Starting Player" in text and ("ann is the" in text or "bob is the" in text)
