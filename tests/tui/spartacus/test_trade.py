"""Building a trade by keys at 80x24 (Pilot, issue 16): pick cards each way and the denarii,
send; the other side counters by changing any part; accept."""

from __future__ import annotations

from harena.core.spartacus import market
from tests.core.spartacus.helpers import give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import decisions, press_choice, prompt_bar, status, until_prompt
from tests.tui.spartacus.helpers import PLAYERS, bare_market, game_of

ANN, BOB, CAT = (identity for identity, _ in PLAYERS)


def _at_the_market() -> tuple:
    lobby, table, game = bare_market()
    market.start(game)
    game.state_changed()
    return lobby, table


def _labels(app) -> list[str]:
    return [label for _, label in prompt_bar(app).choices]


async def test_an_offer_is_built_by_keys_countered_and_accepted() -> None:
    lobby, table = _at_the_market()
    game = game_of(table)
    net = give(game, 0, "net")
    veteran = give(game, 1, "veteran")
    scutum = give(game, 1, "scutum")
    async with (
        session(lobby, ANN, "ann") as (ann, ann_keys),
        session(lobby, BOB, "bob") as (bob, bob_keys),
    ):
        await until_prompt(ann, "open_market")
        await press_choice(ann_keys, ann, "offer:1")
        await until_prompt(ann, "compose_offer")
        await press_choice(ann_keys, ann, f"offer-card:{net}")
        await until(lambda: "[x] Give Net" in _labels(ann))
        await until(lambda: status(ann) == "Ticked: Give Net")  # what the press did, not "[ ]"
        await press_choice(ann_keys, ann, f"offer-card:{veteran}")
        await until(lambda: any(label.startswith("[x] Ask for Veteran") for label in _labels(ann)))
        await press_choice(ann_keys, ann, "offer-price:1")  # one step: I pay 1
        await press_choice(ann_keys, ann, "offer-price:2")
        await until(lambda: "you pay 2" in prompt_bar(ann).text)
        assert "Drafting:" in screen_text(ann)
        assert "Drafting:" not in screen_text(bob)  # a draft is ann's until sent
        await press_choice(ann_keys, ann, "offer-send")
        # While bob thinks, ann may still offer cat a trade (a separate offer), sell or close.
        await until(lambda: "offer:2" in [cid for cid, _ in prompt_bar(ann).choices])
        assert "offer:1" not in [cid for cid, _ in prompt_bar(ann).choices]

        await until_prompt(bob, "answer_offer")
        terms = decisions(bob)[0]["text"]  # the bar shows what fits; the whole is in the prompt
        assert "gives Net" in terms and "gives Veteran Gladiator (3/3/2) and 2 denarii" in terms
        assert prompt_bar(bob).text.startswith(
            "Trade: ann/Batiatus gives Net, bob/Glaber gives Veteran"
        )
        assert "offers bob/Glaber" in screen_text(bob)  # sent: in the Market panel
        await press_choice(bob_keys, bob, "counter:0")
        await until_prompt(bob, "compose_offer")
        await press_choice(bob_keys, bob, f"offer-card:{scutum}")  # and my Scutum, for 5 more
        await until(lambda: any(label.startswith("[x] Give Scutum") for label in _labels(bob)))
        await press_choice(bob_keys, bob, "offer-price:7")
        await until(lambda: "pays you 7" in decisions(bob)[0]["text"])
        assert "Counter to ann/Batiatus" in prompt_bar(bob).text
        await press_choice(bob_keys, bob, "offer-send")

        await until_prompt(ann, "answer_offer")
        assert "gives Veteran Gladiator (3/3/2), Scutum and 7 denarii" in decisions(ann)[0]["text"]
        await press_choice(ann_keys, ann, "accept:0")
        await until(lambda: any(a.card == scutum for a in game.state.players[0].assets))
        assert sorted(a.card for a in game.state.players[0].assets) == sorted([veteran, scutum])
        assert [a.card for a in game.state.players[1].assets] == [net]
        assert game.state.players[0].denarii == 3 and game.state.players[1].denarii == 17


BIG_GIVE = ("net", "gladius", "scutum", "galea", "trident", "veteran")
BIG_WANT = ("crixus", "spartacus", "doctore", "house-slave", "secutor", "spiked-flail")


async def test_every_term_of_a_big_offer_reads_in_full_at_80x24() -> None:
    """A trade of six cards each way and denarii: the offer row, the answer prompt and the log
    cut it at 80 columns; `o` shows every term, wrapped, down to the last one."""
    lobby, table = _at_the_market()
    game = game_of(table)
    gives = [give(game, 0, c) for c in BIG_GIVE]
    wants = [give(game, 1, c) for c in BIG_WANT]
    game.act(0, "offer:1")
    for card in gives + wants:
        game.act(0, f"offer-card:{card}")
    game.act(0, "offer-price:1")
    game.act(0, "offer-price:2")
    game.act(0, "offer-send")
    last_term = "and ann/Batiatus pays 2 denarii"
    async with session(lobby, BOB, "bob", size=(80, 24)) as (bob, bob_keys):
        await until_prompt(bob, "answer_offer")
        assert "Spiked Flail" in decisions(bob)[0]["text"]  # the whole is in the prompt...
        await until(lambda: "o: all terms in full" in screen_text(bob))
        assert last_term not in screen_text(bob)  # ...but the screen cuts it
        await bob_keys.press("o")
        await until(lambda: "Trade terms" in screen_text(bob))
        screen = screen_text(bob)
        assert "bob/Glaber gives: Crixus (4/3/2), Spartacus (4/3/3)" in screen
        assert "Spiked Flail" in screen and last_term in screen
        await bob_keys.press("escape")
        await until(lambda: "Trade terms" not in screen_text(bob))
        await press_choice(bob_keys, bob, "accept:0")
        await until(lambda: sorted(a.card for a in game.state.players[1].assets) == sorted(gives))
