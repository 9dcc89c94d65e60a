"""The heuristic bot's memoized pricing (valuation.Appraiser, bargain.Pricer) gives exactly what
the plain formulas give: the same floats, bit for bit, so its deals are the same. Checked on the
tables of seeded games, for every pair of Houses and trades of up to two cards each way."""

from __future__ import annotations

from itertools import combinations

from harena.core.bots import bot_seed, decide
from harena.core.engine import Rng
from harena.core.spartacus.bargain import Pricer, Terms, assets
from harena.core.spartacus.content import Content
from harena.core.spartacus.valuation import Appraiser, Asset, worth
from tests.core.spartacus.helpers import new_game


def reference_trade_gain(
    content: Content,
    house: str,
    holding: list[Asset],
    gets: list[Asset],
    gives: list[Asset],
    denarii_in: int,
) -> float:
    """valuation.trade_gain as first written: each card valued against a scan of the others."""
    give_refs = {a["ref"] for a in gives}
    after = [a for a in holding if a["ref"] not in give_refs] + gets
    got = sum(worth(content, a, [b for b in after if b["ref"] != a["ref"]], house) for a in gets)
    lost = sum(
        worth(content, a, [b for b in holding if b["ref"] != a["ref"]], house) for a in gives
    )
    return got - lost + denarii_in


def subsets(cards: list[Asset], most: int = 2) -> list[list[Asset]]:
    return [list(c) for n in range(most + 1) for c in combinations(cards, n)]


def test_memoized_prices_are_the_plain_formulas_bit_for_bit() -> None:
    game = new_game(players=4, seed=5)
    bots = [game.bots["heuristic"](bot_seed(5, s)) for s in range(4)]
    rng = Rng.from_seed(3)
    checked = 0
    for step in range(900):
        if game.result() is not None:
            break
        if step % 40 == 0:
            view = game.view(0)
            pricer = Pricer(bots[0].content, view)
            appraiser = Appraiser(bots[0].content)
            players = view["board"]["players"]
            for me in range(4):
                for other in range(4):
                    if me == other:
                        continue
                    mine = assets(view, me)
                    theirs = assets(view, other)
                    holding = appraiser.holding(mine)
                    for gives in subsets(mine):
                        for gets in subsets(theirs):
                            price = rng.below(7) - 3
                            plain = reference_trade_gain(
                                bots[0].content, players[me]["house"], mine, gets, gives, price
                            )
                            fast = appraiser.trade_gain(
                                players[me]["house"], holding, gets, gives, price
                            )
                            assert repr(fast) == repr(plain)
                            t = Terms(
                                me,
                                other,
                                [a["ref"] for a in gives],
                                [a["ref"] for a in gets],
                                -price,
                            )
                            assert repr(pricer.gain(me, t)) == repr(plain)
                            checked += 1
        seat = game.awaited()[0]
        game.act(seat, decide(game, seat, bots[seat]))
    assert checked > 1000
