"""Notices to players who are away: a webhook or an e-mail, delivered off the game's path."""
