"""Widgets shared by the lobby, the generic table screen and the games' own screens."""
