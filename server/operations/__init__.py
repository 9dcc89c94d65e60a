"""What operators do: the admin commands behind the lobby's operator key and `harena admin`,
the admin socket on the host, and the operators and bans lists."""
