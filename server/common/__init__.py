"""What every room of the server shares: logging setup and safe log text, connection limits."""
