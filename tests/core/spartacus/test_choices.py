"""Typed choices (issue 38, as Carthage's since issue 25): every choice a Spartacus prompt offers
carries what it picks, the rules apply that value and never parse its id, and the id is the one
clients send and saved action logs hold (rebuilt here from the typed fields, in the format the
`rules` docstring lists)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harena.core.engine import Choice, Rng
from harena.core.spartacus import choices as typed
from tests.core.spartacus.helpers import new_game

SPARTACUS = Path(typed.__file__).parent


def _ids(c: Any) -> str:
    return {
        typed.Say: lambda: c.word.value,
        typed.OnCard: lambda: f"{c.act.value}:{c.card}",
        typed.OnSeat: lambda: f"{c.act.value}:{c.seat}",
        typed.OnSum: lambda: f"{c.act.value}:{c.amount}",
        typed.ChooseHouse: lambda: f"house:{c.house}",
        typed.GiveDenarii: lambda: f"give:{c.to}:{c.amount}",
        typed.AskDenarii: lambda: f"ask:{c.asked}:{c.amount}:{c.favour.value}",
        typed.AnswerAsk: lambda: f"{'payask' if c.pay else 'refuseask'}:{c.index}",
        typed.UseAbility: lambda: (
            f"power:{c.ability}:{'-' if c.asset is None else c.asset}"
            + ("" if c.cycled is None else f":{c.cycled}")
        ),
        typed.ExhaustAsset: lambda: (
            f"exhaust:{c.asset}" + ("" if c.cycled is None else f":{c.cycled}")
        ),
        typed.PlaceBet: lambda: (
            f"bet:{c.on.value}:" + (f"{c.seat}:" if c.on is typed.BetOn.WIN else "") + str(c.amount)
        ),
        typed.StepTo: lambda: f"step:{c.direction}",
        typed.LoseDie: lambda: f"lose:{c.pool}",
        typed.AnswerOffer: lambda: f"{c.reply.value}:{c.offer}",
    }[type(c)]()


def test_every_offered_choice_is_typed_and_its_id_is_as_saved_logs_hold_it() -> None:
    seen: set[str] = set()
    for players, seed in ((2, 1), (3, 2), (4, 3), (4, 4)):
        game = new_game(players, seed, length="quick", round_limit="10")
        rng = Rng.from_seed(seed)
        while game.result() is None and game.version < 1500:
            prompts = game.open_prompts()
            for prompt in prompts:
                for offer in prompt.choices:
                    assert type(offer) is not Choice, (prompt.kind, offer.id)
                    assert _ids(offer) == offer.id, (prompt.kind, offer)
                    seen.add(type(offer).__name__)
            waiting = [p for p in prompts if not p.standing] or prompts
            prompt = waiting[rng.below(len(waiting))]
            game.act(prompt.seat, prompt.choices[rng.below(len(prompt.choices))].id)
    # the kinds every such game meets (the rarer ones are met by the fingerprint's games)
    assert seen >= {"Say", "OnCard", "OnSeat", "OnSum", "ChooseHouse", "GiveDenarii", "PlaceBet"}


PARSES: Callable[[str], bool] = re.compile(
    r"""partition\(":"\)|split\(":"\)|removeprefix\("[a-z-]+:"\)|(choice|answer)\[\d+:\]"""
).search


def test_no_rules_module_parses_a_choice_id() -> None:
    # the ids are read in one place, `choices` (ids kept in the state, an id no prompt offered);
    # the bots read their views' ids as any client does
    clients = {"choices.py", "bots.py", "bargain.py", "parse.py", "content.py", "schema.py"}
    offenders = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(SPARTACUS.glob("*.py"))
        if path.name not in clients
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if PARSES(line)
    ]
    assert offenders == []
