"""What each game keeps hidden, for the secrecy checker (`tests/core/secrecy.py`).

Written from the rules, not from the view code: a model says what a seat may not know and
which choices are secret; the checker then requires the views not to depend on either. The
scrambles themselves live with each game (`core/<game>/determinize.py`), where the search bot
samples the same unknowns: one source for what a seat may not know.
"""

from __future__ import annotations

from harena.core.carthage import determinize as carthage_determinize
from harena.core.engine import Game
from harena.core.spartacus import determinize as spartacus_determinize
from harena.core.spartacus import reactions
from harena.core.spartacus.determinize import scheme_known_to, scheme_of
from harena.core.spartacus.state import SchemeStep
from tests.core.secrecy import Scramble, SecrecyModel, Secret


def _others(game: Game, *knowers: int) -> tuple[int | None, ...]:
    return tuple(s for s in range(game.players) if s not in knowers) + (None,)


# --- Carthage -------------------------------------------------------------------------------------


def _carthage_secret(game: Game, seat: int, choice: str) -> Secret | None:
    """rulebook: Lobby - the lobbier "chooses if they'd like to reveal the card"."""
    if not choice.startswith("lobby:"):
        return None
    lobbies = tuple(
        c.id for p in game.prompts_for(seat) for c in p.choices if c.id.startswith("lobby:")
    )

    def still_secret(g: Game) -> bool:
        lobbied = g.state.lobbied
        return lobbied is not None and not lobbied.revealed and lobbied.seat == seat

    return Secret(lobbies, _others(game, seat), still_secret)


CARTHAGE = SecrecyModel(
    scrambles=tuple(Scramble(name, apply) for name, apply in carthage_determinize.SCRAMBLES),
    determinize=carthage_determinize.determinize,
    secret=_carthage_secret,
)


# --- Spartacus ------------------------------------------------------------------------------------


def _window_open(game: Game, viewer: int | None) -> bool:
    return game.state.window is not None


def _treasuries_hidden(game: Game, viewer: int | None) -> bool:
    return any(p.hidden for seat, p in enumerate(game.state.players) if seat != viewer)


def _bids_hidden(game: Game, viewer: int | None) -> bool:
    s = game.state
    a = s.market.auction if s.market is not None else None
    return a is not None and any(b is not None for k, b in enumerate(a.bids) if k != viewer)


def _bets_hidden(game: Game, viewer: int | None) -> bool:
    a = game.state.arena
    return a is not None and bool(a.bets) and not a.staked


def _answers_hidden(game: Game, viewer: int | None) -> bool:
    sc = scheme_of(game)
    return sc is not None and sc.step is SchemeStep.SUPPORT


def _replies_hidden(game: Game, viewer: int | None) -> bool:
    sc = scheme_of(game)
    return sc is not None and sc.step is SchemeStep.REACT


def _scheme_hidden(game: Game, viewer: int | None) -> bool:
    return scheme_of(game) is not None and not scheme_known_to(game, viewer)


_SECRET_KINDS = ("bid", "bet", "support_scheme", "reaction", reactions.PROMPT_KIND)
# the drafter's decisions that stay theirs until the offer (or counter) is sent: to whom, each
# card picked either way, the denarii
_DRAFT_STEPS = {("open_market", "offer"), ("compose_offer", "offer-card"),
                ("compose_offer", "offer-price")}  # fmt: skip


def _drafting(game: Game, seat: int) -> bool:
    m = game.state.market
    return m is not None and any(o.draft is not None and o.answer == seat for o in m.offers)


def _spartacus_secret(game: Game, seat: int, choice: str) -> Secret | None:
    prompt = next(
        (p for p in game.prompts_for(seat) if any(c.id == choice for c in p.choices)), None
    )
    if prompt is None:
        return None
    ids = tuple(c.id for c in prompt.choices)
    s = game.state
    if prompt.kind in _SECRET_KINDS:
        # revealed when all are in: until then the seat's slot holds its hidden decision
        def still_secret(g: Game) -> bool:
            gs = g.state
            if prompt.kind == "bid":
                a = gs.market.auction if gs.market is not None else None
                return a is not None and a.bids[seat] is not None
            if prompt.kind == "bet":
                return gs.arena is not None and gs.arena.betted[seat] and not gs.arena.staked
            if prompt.kind == reactions.PROMPT_KIND:
                return gs.window is not None and gs.window.answers[seat] is not None
            sc = scheme_of(g)
            if prompt.kind == "reaction":
                return (sc is not None and sc.step is SchemeStep.REACT
                        and sc.replies[seat] is not None)  # fmt: skip
            return sc is not None and sc.step is SchemeStep.SUPPORT and sc.answers[seat] is not None

        return Secret(ids, _others(game, seat), still_secret)
    if choice.startswith("scheme:") or choice.startswith("target:"):
        # rules: Set Up Schemes - the card and its target are the schemer's until shown
        verb = choice.split(":")[0]
        alternatives = tuple(i for i in ids if i.startswith(verb + ":"))
        return Secret(alternatives, _others(game, seat), lambda g: _scheme_hidden(g, None))
    verb = choice.split(":")[0]
    if (prompt.kind, verb) in _DRAFT_STEPS:
        # an offer is its drafter's own until it is sent: to whom, what it gives and asks, the
        # denarii. Only the drafter's own later moves end the draft (what others do must not)
        alternatives = tuple(i for i in ids if i.split(":")[0] == verb)
        return Secret(alternatives, _others(game, seat), lambda g: _drafting(g, seat))
    if choice.startswith("give:"):
        # rules: Closing the Open Market - between two hidden treasuries, a gift's sum is
        # theirs alone (an open treasury shows any coins that leave or reach it)
        taker = int(choice.split(":")[1])
        if not (s.players[seat].hidden and s.players[taker].hidden):
            return None
        prefix = choice.rsplit(":", 1)[0] + ":"
        alternatives = tuple(i for i in ids if i.startswith(prefix))

        def both_hidden(g: Game) -> bool:
            return g.state.players[seat].hidden and g.state.players[taker].hidden

        return Secret(alternatives, _others(game, seat, taker), both_hidden)
    return None


SPARTACUS = SecrecyModel(
    scrambles=(
        Scramble("intrigue cards", spartacus_determinize.intrigue),
        Scramble("market deck and lots", spartacus_determinize.market),
        Scramble("hidden scheme", spartacus_determinize.hidden_scheme, _scheme_hidden),
        Scramble("hidden treasuries", spartacus_determinize.treasuries, _treasuries_hidden),
        Scramble("hidden bids", spartacus_determinize.bids, _bids_hidden),
        Scramble("hidden bets", spartacus_determinize.placed_bets, _bets_hidden),
        Scramble("support answers", spartacus_determinize.support_answers, _answers_hidden),
        Scramble("reaction window answers", spartacus_determinize.window_answers, _window_open),
        Scramble("scheme reaction replies", spartacus_determinize.scheme_replies, _replies_hidden),
    ),
    determinize=spartacus_determinize.determinize,
    secret=_spartacus_secret,
)

MODELS = {"carthage": CARTHAGE, "spartacus": SPARTACUS}
