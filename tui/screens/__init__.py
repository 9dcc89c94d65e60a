"""Screens of the harena app: lobby, table, and the small modals around them."""
