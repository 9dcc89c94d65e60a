"""The hex geometry of the arena (core/carthage/hexgrid.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harena.core.carthage.hexgrid import (
    Arena,
    Direction,
    Hex,
    direction_to,
    distance,
    hex_name,
    hexes_within,
    knockback_directions,
    line,
    ring,
    straight_direction,
    walk,
)

coords = st.integers(min_value=-12, max_value=12)
hexes = st.builds(Hex, coords, coords)
directions = st.sampled_from(list(Direction))


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_the_same_hex(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_a_hex_has_six_distinct_neighbours_one_step_away(h: Hex) -> None:
    neighbours = h.neighbours()
    assert len(set(neighbours)) == 6
    assert all(distance(h, n) == 1 for n in neighbours)
    assert [direction_to(h, n) for n in neighbours] == list(Direction)


def test_directions_run_clockwise_from_north_east_and_name_themselves() -> None:
    assert [d.name for d in Direction] == ["NE", "E", "SE", "SW", "W", "NW"]
    assert Direction["SW"] is Direction.SW
    assert Direction.E.opposite is Direction.W
    assert Direction.NE.opposite is Direction.SW
    assert Direction.NW.turned(1) is Direction.NE
    assert Direction.NE.turned(-1) is Direction.NW
    # pointy-top axial: east is +q, south-east is +r
    assert Hex(0, 0).step(Direction.E) == Hex(1, 0)
    assert Hex(0, 0).step(Direction.SE) == Hex(0, 1)


def test_direction_to_refuses_a_hex_that_is_not_adjacent() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        direction_to(Hex(0, 0), Hex(2, 0))


@given(hexes, directions, st.integers(min_value=0, max_value=8))
def test_a_line_goes_straight_one_hex_per_step(start: Hex, d: Direction, steps: int) -> None:
    hexes_on_line = line(start, d, steps)
    assert len(hexes_on_line) == steps
    assert [distance(start, h) for h in hexes_on_line] == list(range(1, steps + 1))
    assert all(straight_direction(start, h) is d for h in hexes_on_line)


def test_a_hex_off_the_six_lines_has_no_straight_direction() -> None:
    assert straight_direction(Hex(0, 0), Hex(2, 1)) is None
    assert straight_direction(Hex(0, 0), Hex(0, 0)) is None
    assert straight_direction(Hex(1, 1), Hex(1, -3)) is Direction.NW


def test_knockback_pushes_an_adjacent_target_straight_away() -> None:
    """rulebook: Action Cards, Knockback - "moved X STRAIGHT SPACE away from the opponent"."""
    attacker = Hex(0, 0)
    for d in Direction:
        assert knockback_directions(attacker, attacker.step(d)) == (d,)


def test_knockback_at_range_on_a_straight_line_follows_that_line() -> None:
    assert knockback_directions(Hex(0, 0), Hex(0, -3)) == (Direction.NW,)


def test_knockback_at_range_off_the_lines_takes_the_nearest_direction() -> None:
    """Ruling (docs/rulings.md, Carthage): the direction closest in angle to the line from the
    attacker to the target."""
    assert knockback_directions(Hex(0, 0), Hex(2, 1)) == (Direction.E,)
    assert knockback_directions(Hex(0, 0), Hex(1, 2)) == (Direction.SE,)


def test_knockback_exactly_between_two_directions_offers_both() -> None:
    """Ruling (docs/rulings.md, Carthage): the attacker chooses between the two."""
    assert knockback_directions(Hex(0, 0), Hex(1, 1)) == (Direction.E, Direction.SE)
    assert knockback_directions(Hex(3, -1), Hex(1, 0)) == (Direction.SW, Direction.W)


@given(hexes, hexes)
def test_every_knockback_direction_moves_the_target_away(attacker: Hex, target: Hex) -> None:
    if attacker == target:
        with pytest.raises(ValueError):
            knockback_directions(attacker, target)
        return
    options = knockback_directions(attacker, target)
    assert 1 <= len(options) <= 2
    for d in options:
        assert distance(attacker, target.step(d)) == distance(attacker, target) + 1


@pytest.mark.parametrize("radius", [0, 1, 2, 3, 4])
def test_rings_and_discs_have_the_hexagonal_numbers(radius: int) -> None:
    centre = Hex(2, -1)
    assert len(set(ring(centre, radius))) == max(1, 6 * radius)
    assert all(distance(centre, h) == radius for h in ring(centre, radius))
    assert len(set(hexes_within(centre, radius))) == 3 * radius * (radius + 1) + 1


# --- the arena ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def arena() -> Arena:
    return Arena.hexagon(4, 2)


def test_a_radius_4_arena_has_61_hexes_24_on_the_edge_and_19_in_the_inner_circle(
    arena: Arena,
) -> None:
    assert len(arena) == 61
    assert arena.edge == frozenset(ring(Hex(0, 0), 4))
    assert arena.inner_circle == frozenset(hexes_within(Hex(0, 0), 2))
    assert arena.centre == Hex(0, 0)


def test_edge_inner_circle_and_centre_membership(arena: Arena) -> None:
    """rulebook: Setup 5 (start on the outside edge), Token Rules (Inner Circle, centre)."""
    assert arena.is_edge(Hex(4, 0)) and arena.is_edge(Hex(-2, -2))
    assert not arena.is_edge(Hex(3, 0))
    assert arena.in_inner_circle(Hex(0, 0)) and arena.in_inner_circle(Hex(2, -2))
    assert not arena.in_inner_circle(Hex(3, -1))
    assert Hex(5, 0) not in arena and Hex(4, -4) in arena


def test_the_edge_is_every_hex_with_fewer_than_six_neighbours(arena: Arena) -> None:
    assert len(arena.neighbours(Hex(4, -4))) == 3  # a corner
    assert len(arena.neighbours(Hex(4, -2))) == 4  # a side
    assert len(arena.neighbours(Hex(3, -2))) == 6
    assert arena.edge == {h for h in arena if len(arena.neighbours(h)) < 6}


def test_steps_and_rays_stop_at_the_edge(arena: Arena) -> None:
    assert arena.step(Hex(4, 0), Direction.E) is None
    assert arena.step(Hex(3, 0), Direction.E) == Hex(4, 0)
    assert arena.ray(Hex(2, 0), Direction.E, 5) == (Hex(3, 0), Hex(4, 0))
    assert arena.ray(Hex(0, 0), Direction.NW, 2) == (Hex(0, -1), Hex(0, -2))


def test_within_and_rings_stay_inside_the_arena(arena: Arena) -> None:
    assert len(arena.within(Hex(4, 0), 1)) == 4
    assert len(arena.ring(4)) == 24 and arena.ring(5) == ()


def test_hexes_are_listed_in_reading_order(arena: Arena) -> None:
    assert arena.hexes[0] == Hex(0, -4) and arena.hexes[-1] == Hex(0, 4)
    assert list(arena) == sorted(arena, key=lambda h: (h.r, h.q))


def test_an_arena_refuses_a_centre_or_inner_circle_outside_it() -> None:
    cells = hexes_within(Hex(0, 0), 1)
    with pytest.raises(ValueError, match="centre"):
        Arena(cells, frozenset(), Hex(3, 0))
    with pytest.raises(ValueError, match="Inner Circle"):
        Arena(cells, frozenset({Hex(2, 0)}), Hex(0, 0))


def test_a_hex_is_named_by_the_walk_from_the_centre_never_by_its_coordinates():
    # issue 36: players find a hex on the drawn arena from its marked centre hexagon
    centre = Hex(0, 0)
    assert hex_name(centre, centre) == "the centre"
    assert hex_name(Hex(0, -3), centre) == "3 NW of the centre"
    assert hex_name(Hex(4, -2), centre) == "2 NE, 2 E of the centre"
    assert hex_name(Hex(-4, 0), centre) == "4 W of the centre"
    assert hex_name(Hex(-1, 3), centre) == "2 SE, 1 SW of the centre"
    for h in Arena.hexagon(4, 2):  # every hex has one walk, and it leads there
        end = centre
        for steps, direction in walk(centre, h):
            end = end.step(direction, steps)
        assert end == h
