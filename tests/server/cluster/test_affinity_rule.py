"""The rule that moves a table nearer its players (server/cluster/affinity.py)."""

from harena.server.cluster.affinity import nearer_node


def test_a_table_moves_to_the_node_with_more_of_its_players() -> None:
    assert nearer_node(set(), {"b": {"ann", "bob"}}) == "b"
    assert nearer_node({"ann"}, {"b": {"bob", "cat"}}) == "b"
    assert nearer_node({"ann"}, {"b": {"bob", "cat"}, "c": {"dan", "eve", "fay"}}) == "c"


def test_a_tie_or_a_minority_stays_put() -> None:
    assert nearer_node({"ann"}, {"b": {"bob"}}) is None
    assert nearer_node({"ann", "bob"}, {"b": {"cat"}}) is None
    assert nearer_node(set(), {}) is None
    assert nearer_node(set(), {"b": set()}) is None


def test_a_player_connected_here_counts_here_only() -> None:
    """Open on two nodes at once (a second session elsewhere): here is where they are."""
    assert nearer_node({"ann"}, {"b": {"ann", "bob"}}) is None
