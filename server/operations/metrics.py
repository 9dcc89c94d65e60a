"""What operators can see of a running server: Prometheus metrics (`harena serve --metrics`).

Two kinds of figure. Those the server already keeps (sessions, tables, refusals, notices, a
cluster node's leases and NATS messages) are read when Prometheus scrapes, from the objects that
keep them (`_Census`): nothing is added to any path players wait on. The rest are observed where
they happen, one call from each place (`Metrics`): the time from a player's key to the next
frame sent to them, the time to build a frame, the bytes sent, the event loop's lag, a bot's
thought, a NATS round trip. Without `--metrics` those calls go to `NO_METRICS`, which does
nothing.

Each server has its own registry (never prometheus_client's global one): tests run several
servers, a cluster's nodes, in one process. Labels stay few and fixed (a state, a game, a
reason, a kind): never a player, a key or a table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from harena.server.hosting.loop_lag import DEFAULT_INTERVAL as LAG_EVERY
from harena.server.hosting.loop_lag import monitor

if TYPE_CHECKING:
    from harena.core.lobby import Lobby
    from harena.server.common.limits import ConnectionCounter, StartupSlots
    from harena.server.notices.delivery import NoticeRunner
    from harena.server.runners.bot_workers import Thought


NATS_PROBE_EVERY = 5.0
NATS_PROBE_TIMEOUT = 2  # seconds (nats-py's flush takes whole seconds)
KEY_WINDOW = 10.0
"""A key with no frame after it within this long changed nothing on screen: not timed (else
the next frame, an opponent's move a minute later, would be counted as its answer)."""

SCREEN_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THOUGHT_BUCKETS = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0)
FALLBACK_REASONS = ("timeout", "died")
"""Why a thinking bot fell back (bot_workers.py); any other reason is an "error"."""


class _Flag(Protocol):
    def is_set(self) -> bool: ...


class MeasuredLink(Protocol):
    """What the metrics read of a node's NATS connection (server/cluster/link.py)."""

    @property
    def connected(self) -> _Flag: ...
    @property
    def messages(self) -> Mapping[tuple[str, str], int]: ...  # (direction, kind) -> messages
    async def ping(self, timeout: float) -> None:
        """A PING/PONG with NATS, as the node's NATS client sees it; raises if none came."""
        ...


class MeasuredNode(Protocol):
    """What the metrics read of a cluster node (server/cluster/node.py)."""

    @property
    def held(self) -> Collection[str]: ...  # the tables it runs
    @property
    def counts(self) -> Mapping[str, int]: ...  # claims and renewals, by result
    @property
    def link(self) -> MeasuredLink: ...


class MeasuredServer(Protocol):
    """What the metrics read of the running server (server/service/ssh_server.py)."""

    @property
    def lobby(self) -> Lobby: ...
    @property
    def sessions(self) -> Mapping[str, Collection[object]]: ...  # identity -> its sessions
    @property
    def all_connections(self) -> ConnectionCounter: ...
    @property
    def startups(self) -> StartupSlots: ...
    @property
    def refused(self) -> Mapping[str, int]: ...  # reason -> connections refused
    @property
    def notices(self) -> NoticeRunner: ...
    @property
    def cluster(self) -> MeasuredNode | None: ...


class Metrics:
    """What the server's paths call when something happens; here, nothing (metrics off)."""

    def connection(self) -> None:
        """A TCP connection arrived (before any cap is checked)."""

    def frame_sent(self, size: int, since_key: float | None) -> None:
        """`size` bytes went to a client; `since_key`: the first key it pressed since the last
        frame, as `time.perf_counter()` read then (None: no key was waiting for this one)."""

    def screen_built(self, seconds: float) -> None:
        """A screen update became a frame in `seconds` (the SSH driver's paint)."""

    def thought(self, thought: Thought) -> None:
        """A thinking bot decided (in a worker, or by falling back)."""

    def start(self) -> None:
        """Begin what runs on its own (the loop-lag timer, the NATS probe)."""

    def stop(self) -> None:
        """End it."""


NO_METRICS = Metrics()


class ServerMetrics(Metrics):
    """The metrics of one server, in a registry of its own (`registry`)."""

    def __init__(self, server: MeasuredServer) -> None:
        self.server = server
        # No `_created` series: in the text format Prometheus stores each as a series of its
        # own, doubling them for nothing (prometheus_client's switch is process-wide).
        disable_created_metrics()  # type: ignore[no-untyped-call]  # untyped (0.26)
        self.registry = registry = CollectorRegistry()
        self.connections = Counter(
            "harena_connections", "TCP connections accepted (before any cap)", registry=registry
        )
        self.key_to_screen = Histogram(
            "harena_keypress_to_screen_seconds",
            "from a player's key arriving to the next frame sent to them",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.screen_build = Histogram(
            "harena_screen_build_seconds",
            "to turn one screen update into the frame sent (changed cells only)",
            buckets=SCREEN_BUCKETS,
            registry=registry,
        )
        self.sent = Counter(
            "harena_sent_bytes", "bytes of frames sent to players", registry=registry
        )
        self.loop_lag = Histogram(
            "harena_event_loop_lag_seconds",
            f"how late a timer due every {LAG_EVERY:g} s fired on the server's event loop "
            "(server/hosting/loop_lag.py)",
            buckets=SCREEN_BUCKETS,
            registry=registry,
        )
        self.bot_think = Histogram(
            "harena_bot_think_seconds",
            "a thinking bot's decision, from asking a worker to its answer (fallbacks included)",
            buckets=THOUGHT_BUCKETS,
            registry=registry,
        )
        self.bot_fallbacks = Counter(
            "harena_bot_fallbacks",
            "thinking bots' decisions made by the heuristic bot instead, by why",
            ["reason"],
            registry=registry,
        )
        self.nats_round_trip: Histogram | None = None
        self.nats_probe_failures: Counter | None = None
        if server.cluster is not None:
            self.nats_round_trip = Histogram(
                "harena_nats_round_trip_seconds",
                "a PING to NATS and its PONG, through this node's NATS thread",
                buckets=LATENCY_BUCKETS,
                registry=registry,
            )
            self.nats_probe_failures = Counter(
                "harena_nats_probe_failures",
                "NATS round trips not answered in time",
                registry=registry,
            )
        registry.register(_Census(server))
        self._lag = monitor()  # the process's one sampler of the loop's lateness
        self._probe: asyncio.Task[None] | None = None

    # -- observed where it happens -------------------------------------------------------------

    def connection(self) -> None:
        self.connections.inc()

    def frame_sent(self, size: int, since_key: float | None) -> None:
        self.sent.inc(size)
        if since_key is not None:
            elapsed = time.perf_counter() - since_key
            if elapsed <= KEY_WINDOW:
                self.key_to_screen.observe(elapsed)

    def screen_built(self, seconds: float) -> None:
        self.screen_build.observe(seconds)

    def thought(self, thought: Thought) -> None:
        self.bot_think.observe(thought.seconds)
        if thought.fell_back is not None:
            reason = thought.fell_back if thought.fell_back in FALLBACK_REASONS else "error"
            self.bot_fallbacks.labels(reason).inc()

    # -- running on their own -------------------------------------------------------------------

    def start(self) -> None:
        for reason in (*FALLBACK_REASONS, "error"):
            self.bot_fallbacks.labels(reason)  # shown as 0 before the first
        loop = asyncio.get_running_loop()
        self._lag.observers.append(self.loop_lag.observe)
        self._lag.start()
        if self.server.cluster is not None:
            self._probe = loop.create_task(self._probe_nats(self.server.cluster.link))

    def stop(self) -> None:
        if self.loop_lag.observe in self._lag.observers:
            self._lag.observers.remove(self.loop_lag.observe)
            if not self._lag.observers:
                self._lag.stop()
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None

    async def _probe_nats(self, link: MeasuredLink) -> None:
        """A PING/PONG with NATS every few seconds, as the node's NATS client sees it."""
        assert self.nats_round_trip is not None and self.nats_probe_failures is not None
        while True:
            began = time.perf_counter()
            try:
                await link.ping(NATS_PROBE_TIMEOUT)
            except asyncio.CancelledError:
                raise
            except Exception:  # down, or too slow: the figure an alert looks at
                self.nats_probe_failures.inc()
            else:
                self.nats_round_trip.observe(time.perf_counter() - began)
            await asyncio.sleep(NATS_PROBE_EVERY)


class _Census(Collector):
    """What the server keeps anyway, read at each scrape (on the server's loop: see
    metrics_http.py, so no figure is read while the loop changes it)."""

    def __init__(self, server: MeasuredServer) -> None:
        self.server = server

    def collect(self) -> Iterator[Metric]:
        yield from self._lobby()
        yield from self._refusals()
        yield from self._notices()
        if self.server.cluster is not None:
            yield from self._node(self.server.cluster)

    def _lobby(self) -> Iterator[Metric]:
        """Sessions by state and tables by game and state, in one walk of the tables."""
        server = self.server
        lobby = server.lobby
        seated: set[str] = set()
        watching: set[str] = set()
        tables: dict[tuple[str, str], int] = {}
        for table in lobby.tables.values():
            status = table.status
            # A stand-in's game would be read back from the stream: its summary names it.
            game = table.game.name if table.id in lobby.run_here else table.summary()["game"]
            tables[game, status] = tables.get((game, status), 0) + 1
            if status in ("waiting", "playing"):
                seated.update(seat.identity for seat in table.seats if seat.identity)
            watching.update(table.spectators)
        counts = dict.fromkeys(("lobby", "seated", "watching"), 0)
        for identity, sessions_of_key in server.sessions.items():
            state = (
                "seated" if identity in seated else "watching" if identity in watching else "lobby"
            )
            counts[state] += len(sessions_of_key)
        sessions = GaugeMetricFamily(
            "harena_sessions",
            "open sessions: at a seat of a running table, watching one, or elsewhere (lobby)",
            labels=["state"],
        )
        for state, n in counts.items():
            sessions.add_metric([state], n)
        yield sessions
        yield GaugeMetricFamily(
            "harena_connections_open", "TCP connections open", value=server.all_connections.total()
        )
        yield GaugeMetricFamily(
            "harena_logins_pending", "connections still logging in", value=server.startups.pending()
        )
        listed = GaugeMetricFamily(
            "harena_tables",
            "tables listed in the lobby (in a cluster, every node's), by game and state",
            labels=["game", "state"],
        )
        for (game, status), n in sorted(tables.items()):
            listed.add_metric([str(game), status], n)
        yield listed

    def _refusals(self) -> Iterator[Metric]:
        refused = CounterMetricFamily(
            "harena_refusals",
            "connections, logins and sessions refused, by the cap or ban that refused them",
            labels=["reason"],
        )
        for reason, n in self.server.refused.items():
            refused.add_metric([reason], n)
        yield refused

    def _notices(self) -> Iterator[Metric]:
        notices = self.server.notices
        for name, done, what in (
            ("harena_notices_sent", notices.delivered, "notices delivered to players away"),
            ("harena_notices_failed", notices.failed, "notices given up after every retry"),
        ):
            family = CounterMetricFamily(name, what, labels=["channel"])
            for channel in ("webhook", "email"):
                family.add_metric([channel], sum(1 for c, _ in done if c == channel))
            yield family

    def _node(self, node: MeasuredNode) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "harena_node_tables_held",
            "tables this node runs (holds the lease of)",
            value=len(node.held),
        )
        counts = dict(node.counts)
        claims = CounterMetricFamily(
            "harena_node_claims",
            "tables claimed by this node: new ones, free ones taken, lost to another node, failed",
            labels=["result"],
        )
        for result in ("new", "taken", "lost", "failed"):
            claims.add_metric([result], counts.get(f"claim_{result}", 0))
        yield claims
        renewals = CounterMetricFamily(
            "harena_node_lease_renewals",
            "lease renewals, by whether NATS took them",
            labels=["result"],
        )
        for result in ("renewed", "missed"):
            renewals.add_metric([result], counts.get(f"renewal_{result}", 0))
        yield renewals
        link = node.link
        yield GaugeMetricFamily(
            "harena_nats_connected",
            "1 while this node's NATS connection is up",
            value=int(link.connected.is_set()),
        )
        messages = CounterMetricFamily(
            "harena_nats_messages",
            "NATS messages of harena's subjects, by direction and kind (the subject's first word)",
            labels=["direction", "kind"],
        )
        for (direction, kind), n in sorted(dict(link.messages).items()):
            messages.add_metric([direction, kind], n)
        yield messages
