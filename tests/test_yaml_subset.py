"""The YAML subset reader the deployment tests use reads what the files say, and refuses what it
does not understand instead of reading it wrong."""

from __future__ import annotations

import pytest

from tests.yaml_subset import YamlSubsetError, load

TEXT = """
# a comment
name: harena  # a trailing comment
services:
  nats:
    command: ["--jetstream", "--store_dir", "/data"]
    ports:
      - "2222:2222"
      - 9100
  node:
    depends_on:
      nats:
        condition: service_healthy
    label: 'it''s #1'
rules:
  - alert: Down
    expr: up{job="harena"} == 0
    for: 2m
  - plain
empty:
"""


def test_mappings_sequences_flow_lists_scalars_and_comments_are_read():
    assert load(TEXT) == {
        "name": "harena",
        "services": {
            "nats": {
                "command": ["--jetstream", "--store_dir", "/data"],
                "ports": ["2222:2222", 9100],
            },
            "node": {"depends_on": {"nats": {"condition": "service_healthy"}}, "label": "it's #1"},
        },
        "rules": [{"alert": "Down", "expr": 'up{job="harena"} == 0', "for": "2m"}, "plain"],
        "empty": None,
    }


@pytest.mark.parametrize(
    "text",
    [
        "base: &node\n  a: 1\n",  # an anchor
        "other: *node\n",  # an alias
        "text: |\n  two\n  lines\n",  # a block scalar
        "map: {a: 1}\n",  # a flow mapping
        "a: 1\na: 2\n",  # a key twice
        "a:\n\tb: 1\n",  # a tab
    ],
)
def test_what_is_outside_the_subset_is_refused(text):
    with pytest.raises(YamlSubsetError):
        load(text)
