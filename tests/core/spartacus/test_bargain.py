"""The heuristic bot deals by value (issue 16): it proposes trades that help it, accepts a clearly
good offer, declines a clearly bad one, counters in between, sells to the Bank what costs more
than it earns, and never sends an offer it would refuse in the other's seat."""

from __future__ import annotations

from harena.core.bots import bot_seed
from harena.core.spartacus.bargain import Terms, gain
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.content import default_content
from harena.core.spartacus.rules import Spartacus
from tests.core.spartacus.helpers import at_the_market, give, kinds, new_game, offer_price


def _bot(seat: int) -> HeuristicBot:
    return HeuristicBot(bot_seed(7, seat))


def _offer(game: Spartacus, proposer: int, recipient: int, cards: list[int], price: int) -> None:
    game.act(proposer, f"offer:{recipient}")
    for card in cards:
        game.act(proposer, f"offer-card:{card}")
    offer_price(game, proposer, price)
    game.act(proposer, "offer-send")


def _answer(game: Spartacus, seat: int, bot: HeuristicBot) -> str:
    choice = bot.choose(game.view(seat))
    game.act(seat, choice)
    return choice


def test_a_clearly_good_offer_is_accepted() -> None:
    game = at_the_market()
    give(game, 1, "thracian-recruit")
    crixus = give(game, 0, "crixus")
    give(game, 0, "veteran")
    _offer(game, 0, 1, [crixus], 2)  # Crixus and 2 denarii, for nothing
    assert _answer(game, 1, _bot(1)) == "accept:0"
    assert any(a.card == crixus for a in game.state.players[1].assets)


def test_a_clearly_bad_offer_is_declined() -> None:
    game = at_the_market()
    crixus = give(game, 1, "crixus")
    give(game, 1, "veteran")
    s = game.state
    s.bank += s.players[0].denarii - 3
    s.players[0].denarii = 3  # cannot pay what Crixus is worth, whatever the counter
    game.state_changed()
    _offer(game, 0, 1, [crixus], 1)  # Crixus for 1 denarius
    assert _answer(game, 1, _bot(1)) == "decline:0"
    assert any(a.card == crixus for a in game.state.players[1].assets)


def test_an_offer_in_between_is_countered_at_a_fair_price() -> None:
    game = at_the_market()
    veteran = give(game, 1, "veteran")
    give(game, 1, "crixus")  # the Veteran is a spare to seat 1, the only fighter to seat 0
    _offer(game, 0, 1, [veteran], 1)
    bot = _bot(1)
    assert _answer(game, 1, bot) == "counter:0"
    while kinds(game).get(1) == "compose_offer":
        _answer(game, 1, bot)
    offer = game.view(2)["board"]["market"]["offers"][0]
    assert offer["want"] == [veteran] and offer["price"] > 1 and offer["answer"] == 0
    content = default_content()
    view = game.view(1)
    terms = Terms(0, 1, offer["give"], offer["want"], offer["price"])
    assert gain(content, view, 1, terms) >= 0 and gain(content, view, 0, terms) >= 0
    assert _answer(game, 0, _bot(0)) == "accept:0"  # fair to the other side too
    assert any(a.card == veteran for a in game.state.players[0].assets)


def test_it_proposes_a_trade_that_helps_it_and_the_other_accepts() -> None:
    game = at_the_market()
    give(game, 1, "crixus")
    spare = give(game, 1, "veteran")
    give(game, 2, "crixus")
    give(game, 2, "theokeles")
    give(game, 3, "crixus")
    give(game, 3, "spartacus")  # seat 0 has no fighter: every other House has a spare
    bots = [_bot(s) for s in range(4)]
    first = bots[0].choose(game.view(0))
    assert first.startswith("offer:")
    game.act(0, first)
    while kinds(game).get(0) == "compose_offer":
        game.act(0, bots[0].choose(game.view(0)))
    recipient = int(first.split(":")[1])
    offer = game.view(recipient)["board"]["market"]["offers"][0]
    assert offer["want"] and offer["price"] > 0  # it buys a fighter
    assert spare in offer["want"] or recipient != 1
    assert _answer(game, recipient, bots[recipient]) == f"accept:{offer['id']}"


def test_it_sells_to_the_bank_what_costs_more_than_it_earns() -> None:
    """rules: Open Market - sell Resources to the Bank; a wounded spare Gladiator costs upkeep
    and may die of its wounds."""
    game = at_the_market()
    give(game, 0, "crixus")
    recruit = give(game, 0, "murmillo-recruit", wounded=True)
    assert _bot(0).choose(game.view(0)) == f"bank:{recruit}"
    lone = at_the_market()
    only = give(lone, 0, "murmillo-recruit", wounded=True)  # its only fighter: kept
    assert _bot(0).choose(lone.view(0)) != f"bank:{only}"


def test_every_offer_a_bot_sends_is_one_it_would_accept_in_the_others_seat() -> None:
    """issue 16: "never an offer it would refuse itself", checked on every offer of whole
    heuristic games: its value to both sides, as the recipient's bot reckons it, is >= 0."""
    content = default_content()
    sent = 0
    for seed in range(3):
        game = new_game(4, seed, round_limit="10")
        bots = [HeuristicBot(bot_seed(seed, s)) for s in range(4)]
        while game.result() is None:
            seat = game.awaited()[0]
            choice = bots[seat].choose(game.view(seat))
            if choice == "offer-send":
                draft = game.view(seat)["board"]["market"]["my_draft"]
                t = Terms(
                    draft["proposer"],
                    draft["recipient"],
                    draft["give"],
                    draft["want"],
                    draft["price"],
                )
                other = t.recipient if seat == t.proposer else t.proposer
                assert gain(content, game.view(other), other, t) >= 0
                assert gain(content, game.view(seat), seat, t) >= 0
                sent += 1
            game.act(seat, choice)
    assert sent >= 3
