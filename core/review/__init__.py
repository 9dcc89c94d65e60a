"""The review of a finished game: its course round by round and where it turned."""
