"""The Favor Actions (rulebook: Modular Rulesets - Favor Actions), one test or more each."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rulesets.favor_actions import _PICK_PROMPTS, _PICK_RULES, SECOND_CHOICE
from harena.core.carthage.state import Phase
from tests.core.carthage.ruleset_helpers import favor_phase, put_in_row, to_discard
from tests.core.carthage.table_helpers import choices, kind


def labels(game) -> dict[str, str]:
    return {c.id: c.label for c in game.prompts()[0].choices}


def test_a_ruleset_not_chosen_is_never_offered() -> None:
    game = favor_phase("", [15, 15])
    assert not [c for c in choices(game, 0) if c.split(":")[0] in ("ordinance", "taunt", "retain")]


def test_actuate_costs_1_plus_the_initiates_and_actuates_bought_this_round() -> None:
    # rulebook: Actuate - "The red player purchases Initiate (1F), then the blue player
    # purchases Actuate (2F), and then the red player purchases Actuate again. The red player
    # will now own the Starting Player Token next Round, but Actuate will cost 3 Favor (1F + 2F)."
    game = favor_phase("actuate", [10, 10])
    s = game.state
    assert "actuate" not in choices(game, 0)  # "If Initiate has been purchased"
    game.act(0, "initiate")
    assert s.players[0].favor == 9
    assert "Actuate (2)" in labels(game)["actuate"]
    s.turn = 0
    game.state_changed()
    assert "actuate" not in choices(game, 0)  # ruling: not to the player who holds the token
    s.turn = 1
    game.state_changed()
    game.act(1, "actuate")
    assert s.players[1].favor == 8 and s.initiator == 1
    assert "Actuate (3)" in labels(game)["actuate"]
    game.act(0, "actuate")
    assert s.players[0].favor == 6 and s.initiator == 0
    game.act(1, "pass")
    game.act(0, "pass")
    assert s.round == 2 and s.starting == 0  # red owns the Starting Player Token next round


def test_actuate_counts_again_from_1_the_next_round() -> None:
    game = favor_phase("actuate", [5, 5])
    game.act(0, "initiate")
    game.act(1, "actuate")
    s = game.state
    s.round += 1
    s.initiator = 0
    assert game.favor_actions.actuate_cost() == 1


def test_campaign_burns_the_top_4_theater_cards_then_lobbies_for_free() -> None:
    # rulebook: Campaign (4 Favor) - "Place the top 4 cards of the Theater Deck into the Theater
    # Discard Pile, then immediately take the Lobby Action at no cost."
    game = favor_phase("campaign", [6, 0])
    s = game.state
    top4 = s.theater_deck[-4:]
    discard_before = list(s.theater_discard)
    game.act(0, "campaign")
    assert s.theater_discard == discard_before + top4[::-1]
    assert s.players[0].favor == 2 and kind(game) == "campaign_lobby"
    pick = top4[0]
    game.act(0, f"lobby:{pick}")
    assert s.theater_deck[-1] == pick and s.players[0].favor == 2  # the Lobby was free
    assert kind(game) == "lobby_reveal"


def test_campaign_never_reveals_a_secret_lobby() -> None:
    # the existing secrecy fix (docs/rulings.md, a secret Lobby): the lobbied card goes back
    # where everyone saw it in the pile, and the 4 burned are the real deck's
    game = favor_phase("campaign", [6, 6])
    s = game.state
    secret = s.theater_discard[0]
    game.act(0, f"lobby:{secret}")
    game.act(0, "hide")
    seen_by_1 = game.view(1)["board"]["theater"]["discard"]
    under = s.theater_deck[-5:-1]
    game.act(1, "campaign")
    assert s.theater_discard == seen_by_1 + under[::-1]
    assert game.view(1)["board"]["theater"]["top_known"] is None


def test_outbreak_is_one_step_now() -> None:
    # rulebook: Outbreak (3 Favor) - "Immediately gain 1 Movement."
    game = favor_phase("outbreak", [3, 0])
    game.act(0, "outbreak")
    assert kind(game) == "move_step" and game.state.players[0].favor == 0
    game.act(0, "dir:E")
    assert game.state.players[0].at == Hex(1, 0)


def test_concentrate_shuffles_the_discard_pile_into_the_deck() -> None:
    # rulebook: Concentrate (3 Favor) - "Shuffle your Discard Pile into your Player Deck."
    game = favor_phase("concentrate", [6, 0])  # Favor left: the round does not end yet
    p = game.state.players[0]
    p.discard, p.deck = p.deck[:4], p.deck[4:]
    everything = sorted(p.deck + p.discard)
    game.act(0, "concentrate")
    assert p.discard == [] and sorted(p.deck) == everything


def test_discipline_focuses_for_1_favor_and_1_armor() -> None:
    # rulebook: Discipline (1 Favor -1 Armor) - "Take the Focus Action free from the 3 Favor
    # cost, but immediately lose 1 Armor."
    game = favor_phase("discipline", [1, 0])
    p = game.state.players[0]
    p.discard, p.deck = p.deck[:2], p.deck[2:]
    game.act(0, "discipline")
    card = p.discard[0]
    game.act(0, f"focus:{card}")
    assert card in p.focus and p.favor == 0 and p.armor == 14


def test_intimidate_costs_2_plus_the_card_and_never_takes_a_starting_card() -> None:
    # rulebook: Intimidate (2 Favor + X) - "Focus a card from an opponent's Discard Pile. Cost is
    # 2 Favor + Favor cost listed on the card. (NOTE: Intimidate is not permitted to be used on
    # any of the 10 cards from the initial Starting Player Decks)."
    game = favor_phase("intimidate", [10, 0])
    s = game.state
    foe = s.players[1]
    foe.discard, foe.deck = foe.deck[:3], foe.deck[3:]  # Starting cards only
    assert "intimidate" not in choices(game, 0)
    slash = to_discard(game, 1, "slash")  # cost 3
    game.act(0, "intimidate")
    assert choices(game, 0) == ["take:1:slash", "back"]
    game.act(0, "take:1:slash")
    assert slash in foe.focus and slash not in foe.discard
    assert s.players[0].favor == 10 - 5


def test_ordinance_gains_1_armor() -> None:
    # rulebook: Ordinance (3 Favor) - "Immediately gain 1 Armor."
    game = favor_phase("ordinance", [3, 0])
    game.act(0, "ordinance")
    assert game.state.players[0].armor == 16


def test_renovate_moves_a_token_to_an_adjacent_unoccupied_hex() -> None:
    # rulebook: Renovate (2 Favor) - "Move an Arena Token to one adjacent unoccupied space."
    game = favor_phase("renovate", [2, 0], [Hex(0, 0), Hex(3, 0)])
    s = game.state
    from harena.core.carthage.state import BoardToken

    s.tokens = {Hex(1, 0): BoardToken("damage-2")}
    game.state_changed()
    game.act(0, "renovate")
    assert choices(game, 0) == ["hex:1,0", "back"]
    game.act(0, "hex:1,0")
    targets = choices(game, 0)
    assert "hex:0,0" not in targets  # a gladiator stands there
    assert "hex:2,0" in targets and "hex:3,-1" not in targets  # not adjacent
    assert "hex:2,-1" in targets
    game.act(0, "hex:2,-1")
    assert list(s.tokens) == [Hex(2, -1)] and s.players[0].favor == 0


def test_a_favor_action_with_a_second_choice_can_go_back_unpaid() -> None:
    game = favor_phase("repair", [5, 0])
    p = game.state.players[0]
    p.discard, p.deck = p.deck[:2], p.deck[2:]
    game.act(0, "repair")
    game.act(0, "back")
    assert kind(game) == "favor" and p.favor == 5


def test_repair_puts_a_discarded_card_on_top_of_the_deck() -> None:
    # rulebook: Repair (5 Favor) - "Return a face up card in your Discard Pile to the top of your
    # Player Deck."
    game = favor_phase("repair", [7, 0])
    p = game.state.players[0]
    p.discard, p.deck = p.deck[:2], p.deck[2:]
    card = p.discard[1]
    game.act(0, "repair")
    game.act(0, f"repair:{card}")
    assert p.deck[-1] == card and card not in p.discard and p.favor == 2


def test_retain_blue_and_two_red_cubes_are_paid_to_their_owners() -> None:
    # rulebook: Retain - "Player has purchased a card containing 1 blue Player Cube and 2 red
    # Player Cubes. The player must pay 1 Favor to Retairius (blue), and 2 Favor to Dimachaeri
    # (red) in addition to the cost of the card."
    game = favor_phase("retain", [4, 4, 15])  # seat 0 Blue, 1 Red, 2 Green
    s = game.state
    slash = put_in_row(game, 0, "slash")  # cost 3
    game.act(0, "retain")
    game.act(0, "retain:0")  # blue cube
    game.act(1, "retain")  # red turn: seat 1 after seat 0
    game.act(1, "retain:0")
    assert s.turn == 2
    # Green is next: put it back to Red for the second red cube (a test shortcut)
    s.turn = 1
    game.state_changed()
    game.act(1, "retain")
    game.act(1, "retain:0")
    assert game.state.rulesets.cubes[slash] == [0, 1, 1]
    assert (
        game.favor_actions.row_cost(2, slash) == 3 + 3
        and game.favor_actions.row_cost(1, slash) == 3 + 1
    )
    blue, red = s.players[0].favor, s.players[1].favor
    s.turn = 2
    game.state_changed()
    game.act(2, "buy:0")
    assert s.players[2].favor == 15 - 6
    assert s.players[0].favor == blue + 1 and s.players[1].favor == red + 2
    assert (
        slash not in game.state.rulesets.cubes and game.favor_actions.cubes_left(1) == 3
    )  # the cubes went home


def test_retain_cubes_on_your_own_card_cost_you_nothing_extra() -> None:
    # rulebook: Retain - "the card does not cost you anything extra ... unless an opponent has
    # placed a Player Cube on the card"
    game = favor_phase("retain", [5, 0])
    slash = put_in_row(game, 0, "slash")
    game.act(0, "retain")
    game.act(0, "retain:0")
    assert game.favor_actions.row_cost(0, slash) == 3 and game.favor_actions.row_cost(1, slash) == 4


def test_retain_cubes_evaluated_return_with_no_reward() -> None:
    # rulebook: Retain - "When a card is purchased or Evaluated, cubes are immediately returned to
    # the player(s), and no reward (Favor) is granted ... (NOTE: Evaluated Retain Cubes do not
    # gain players additional Favor)."
    game = favor_phase("retain", [3, 5])
    s = game.state
    game.act(0, "retain")
    game.act(0, "retain:2")
    owner_favor = s.players[0].favor
    game.act(1, "evaluate")
    assert game.state.rulesets.cubes == {} and s.players[0].favor == owner_favor


def test_retain_has_three_cubes() -> None:
    # rulebook: Retain - "Place one of your 3 extra colored Player Cubes"
    game = favor_phase("retain", [15, 0])
    s = game.state
    for _ in range(3):
        s.turn = 0
        game.state_changed()
        game.act(0, "retain")
        game.act(0, "retain:1")
    s.turn = 0
    game.state_changed()
    assert "retain" not in choices(game, 0) and game.favor_actions.cubes_left(0) == 0


def test_taunt_makes_an_opponent_lose_1_favor() -> None:
    # rulebook: Taunt (2 Favor) - "Choose an opponent who immediately loses 1 Favor."
    game = favor_phase("taunt", [2, 4])
    game.act(0, "taunt:1")
    assert game.state.players[1].favor == 3 and game.state.players[0].favor == 0


def test_nothing_is_offered_that_cannot_be_paid() -> None:
    game = favor_phase("ordinance,taunt,outbreak", [2, 4])
    assert "ordinance" not in choices(game, 0) and "outbreak" not in choices(game, 0)
    assert game.state.phase is Phase.FAVOR


def test_every_second_choice_has_its_question_and_its_rule() -> None:
    """A Favor Action that asks a second question (rulebook: Modular Rulesets - Favor Actions)
    finds both its prompt and what applies the answer, Campaign's Lobby and Renovate's hex too."""
    picks = {*SECOND_CHOICE.values(), "campaign_lobby", "renovate_to"}
    assert set(_PICK_PROMPTS) == set(_PICK_RULES) == picks
