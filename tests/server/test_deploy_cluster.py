"""The cluster's deployment files (docs/deploy/: compose.yaml, prometheus.yml, alerts.yaml,
harena@.service) say what harena understands: every harena option they pass parses with the real
parser, the nodes share one host key and one cluster, their metrics are exposed and scraped, and
every alert rule is complete. (tests/server/cluster/test_compose.py starts the compose nodes.)"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from harena.server.commands.cli import parse_args
from tests.server.test_deploy import instructions
from tests.yaml_subset import load

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "docs" / "deploy"


def compose() -> dict[str, Any]:
    return load((DEPLOY / "compose.yaml").read_text())


def harena_services() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose()["services"].items() if name.startswith("harena-")}


def node_argv(service: dict[str, Any]) -> list[str]:
    """The node's whole `harena` command line: the image's entrypoint, then its `command`."""
    steps = instructions(ROOT / "Dockerfile")
    entry = json.loads(
        dict(steps[max(i for i, (w, _) in enumerate(steps) if w == "FROM") :])["ENTRYPOINT"]
    )
    assert entry[0] == "harena"
    return [*entry[1:], *service["command"]]


def published(service: dict[str, Any]) -> dict[int, int]:
    """Container port -> host port."""
    pairs = (str(p).split(":") for p in service["ports"])
    return {int(inside): int(outside) for outside, inside in pairs}


def test_compose_runs_nats_with_jetstream_and_three_nodes_of_one_cluster():
    services = compose()["services"]
    nats = services["nats"]
    assert "--jetstream" in nats["command"] or "-js" in nats["command"]
    nodes = harena_services()
    assert len(nodes) == 3
    args = {name: parse_args(node_argv(s)) for name, s in nodes.items()}
    assert {a.node for a in args.values()} == set(nodes)  # each node named as its service
    assert {a.cluster for a in args.values()} == {"nats://nats:4222"}
    assert all(a.host == "0.0.0.0" and a.metrics is not None for a in args.values())
    ssh_ports = sorted(published(s)[args[n].port] for n, s in nodes.items())
    assert ssh_ports == list(range(ssh_ports[0], ssh_ports[0] + 3))  # one port range
    for name, service in nodes.items():
        assert published(service)[args[name].metrics.port]  # the metrics exposed
        assert str(args[name].public_address.port) == str(published(service)[args[name].port])


def test_the_nodes_share_one_host_key_each_with_its_own_data():
    nodes = harena_services()
    keys, data = set(), set()
    for service in nodes.values():
        args = parse_args(node_argv(service))
        mounts = dict(v.split(":", 1) for v in service["volumes"])
        by_path = {path: volume for volume, path in mounts.items()}
        keys.add(by_path[str(args.keys)])
        data.add(by_path[str(args.data)])
    assert len(keys) == 1 and len(data) == 3
    declared = compose()["volumes"]
    assert keys <= set(declared) and data <= set(declared)
    first, *others = nodes
    assert all(
        nodes[o]["depends_on"][first]["condition"] == "service_healthy" for o in others
    )  # the first node makes the key before the others read it


def test_the_image_is_built_with_the_cluster_client():
    builds = [s["build"] for s in harena_services().values() if "build" in s]
    assert builds and builds[0]["args"]["EXTRAS"] == "[cluster]"
    assert (DEPLOY / builds[0]["context"] / "Dockerfile").exists()
    arguments = [rest for word, rest in instructions(ROOT / "Dockerfile") if word == "ARG"]
    assert any(a.startswith("EXTRAS") for a in arguments)


def test_prometheus_scrapes_every_node_and_loads_the_alert_rules():
    config = load((DEPLOY / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    targets = {t for c in job["static_configs"] for t in c["targets"]}
    expected = {
        f"{name}:{parse_args(node_argv(s)).metrics.port}" for name, s in harena_services().items()
    }
    assert targets == expected
    for rules in config["rule_files"]:
        assert (DEPLOY / rules).exists()
    mounted = {v.split(":")[0] for v in compose()["services"]["prometheus"]["volumes"]}
    assert {"./prometheus.yml", *(f"./{r}" for r in config["rule_files"])} <= mounted


def alert_rules() -> list[dict[str, Any]]:
    return [
        rule
        for group in load((DEPLOY / "alerts.yaml").read_text())["groups"]
        for rule in group["rules"]
    ]


def test_every_alert_rule_has_an_expression_a_severity_and_a_summary():
    rules = alert_rules()
    names = [r["alert"] for r in rules]
    assert len(set(names)) == len(names)
    assert {"HarenaEventLoopLag", "HarenaFull", "HarenaNatsDown"} <= set(names)
    for rule in rules:
        assert rule["expr"].count("(") == rule["expr"].count(")"), rule["alert"]
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"]
        assert re.fullmatch(r"\d+[smh]", rule.get("for", "0m"))


def test_the_systemd_template_runs_one_node_each_on_a_shared_port_and_key():
    unit = (DEPLOY / "harena@.service").read_text()
    settings = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#")
    )
    assert settings["DynamicUser"] == "yes" and settings["User"] == "harena"  # one user for all
    assert settings["Restart"] == "on-failure"
    command = settings["ExecStart"].replace("%i", "1").replace("%H", "host")
    argv = shlex.split(command)
    assert argv[0].endswith("/harena") and argv[1] == "serve"
    config = argv.index("--config") + 1
    assert argv[config] == "/etc/harena/node-1.toml"
    argv[config] = str(DEPLOY / "node-1.toml")  # the example of an instance's own file
    args = parse_args(argv[1:])
    assert args.reuse_port and args.cluster and args.node == "host-1"
    assert args.metrics is not None and args.metrics.port == 9101
    assert "%i" not in settings["ExecStart"].split("--keys")[1].split()[0]  # one key for all
    assert str(args.data).endswith("node-1")
    assert {"harena", "harena/node-%i"} <= set(settings["StateDirectory"].split())
