"""The Carthage Modular Rulesets (rulebook: Modular Rulesets): data in `catalog`, which this
table plays in `table`, their part of the state in `state`, the Favor Actions in `favor_actions`,
the Active Conditions in `conditions` and the Naked and Afraid response window in `naked`;
`rules.RulesetRules` mixes them into `harena.core.carthage.rules.Carthage`. Kept light: `state`
is imported by the core state module."""
