"""Essedari Maximo: the solo and co-op mode of Carthage, with harena as his companion app
(rulebook: Essedari Maximo, Co-op Rules, Solo Rules).

The pieces: `actions` (his Actions and the mode's figures, read from data/essedari.toml),
`track` (where he drives: the outside edge of the Inner Circle, counter-clockwise, and his
dashes across it), `state` (what changes), `chariot` (the rules: the policy `game.essedari_mode`
the rules ask at named points), `sense` (what a bot reads from the view). How he
behaves and why: docs/essedari.md.
"""
