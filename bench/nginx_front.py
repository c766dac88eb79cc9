"""Our own nginx (Debian's package) in front of the bench's server processes: the shipped one-machine config
(deploy/nginx.local.conf, run by ``tests.app.local_proxy.LocalProxy``) with what a bench needs on top.

The upstream list is the bench's processes (``random``: clients spread at random; the deployment's
round-robin is the same spread for many clients; ``max_fails=0``: a busy process is never taken out), no
access log, more connections per worker, and every response names the process that served it
(``X-Upstream``, so a client can tell a relayed socket from a direct one).  pid, logs and temp files live in a
temporary directory: the system's nginx is never touched.

With ``nodes`` (the processes' ``NODE_NAME``s, one per port), a request that names a node (``?node=``, what
``POST /api/ws-ticket?table=`` answers for a table's socket) goes to that process: owner-aware routing
(``owner_routing``, the same ``map`` a deployment's proxy adds); any other request is spread as before.

    with NginxFront([port1, port2]) as front: ... front.url ...
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.app.support.local_proxy import LocalProxy  # noqa: E402


def bench_config(local: str) -> str:
    """deploy/nginx.local.conf (with the bench's ports already in) as the bench runs it."""
    text = re.sub(r"(server 127\.0\.0\.1:\d+);", r"\1 max_fails=0;", local)
    text = text.replace("upstream mahjong {", "upstream mahjong {\n        random;", 1)
    text = re.sub(r"access_log [^;]*;", "access_log off;", text, count=1)
    text = re.sub(r"worker_connections \d+;", "worker_connections 8192;", text, count=1)
    return text.replace("include proxy/site.conf;",
                        "include proxy/site.conf;\n        add_header X-Upstream $upstream_addr always;", 1)


SHIPPED_ROUTING = re.compile(r"\n\s*map \$arg_node \$node_app \{.*?\n\s*\}(\n\s*upstream mahjong_\w+ \{[^}]*\})*", re.S)


def owner_routing(nodes: dict[str, str]) -> str:
    """The shipped config's owner-aware routing for the bench's processes: a request naming a node
    (``?node=``) goes to that node's upstream, any other to the upstream ``mahjong``; ``nodes`` maps each node
    name to its ``host:port``."""
    lines = ["\n    map $arg_node $node_app {\n        default http://mahjong;\n"]
    lines += [f"        {name} http://mahjong_{name};\n" for name in nodes]
    lines.append("    }\n")
    lines += [f"    upstream mahjong_{name} {{\n        server {address} max_fails=0;\n    }}\n"
              for name, address in nodes.items()]
    return "".join(lines)


class NginxFront(LocalProxy):
    def __init__(self, ports: list[int], nodes: list[str] | None = None) -> None:
        super().__init__(ports)
        self.nodes = nodes

    def config(self) -> str:
        text = bench_config(super().config())
        nodes = dict(zip(self.nodes or [], (f"127.0.0.1:{p}" for p in self.upstream_ports), strict=False))
        return SHIPPED_ROUTING.sub(lambda _m: owner_routing(nodes) if nodes else owner_routing({}), text, count=1)
