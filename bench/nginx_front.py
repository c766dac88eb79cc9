"""Our own nginx (Debian's package) in front of the bench's server processes, configured from deploy/nginx.conf.

The deployment's file is read and changed only where a bench must: it listens on a free loopback port, the
Docker resolver and ``set $app http://app:8000`` become an ``upstream`` of the bench's processes (``random``:
clients spread at random; the deployment's round-robin over Docker's DNS is the same spread for many
clients), and every response names the process that served it (``X-Upstream``, so a client can tell a
relayed socket from a direct one).  pid, logs and temp files live in a temporary directory: the system's
nginx is never touched.

With ``nodes`` (the processes' ``NODE_NAME``s, one per port), a request that names a node (``?node=``, what
``POST /api/ws-ticket?table=`` answers for a table's socket) goes to that process: owner-aware routing
(``owner_routing``, the same ``map`` a deployment's proxy adds); any other request is spread as before.

    with NginxFront([port1, port2]) as front: ... front.url ...
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def owner_routing(nodes: dict[str, str]) -> str:
    """nginx ``http`` lines that route a request naming a node (``?node=``) to that node's upstream, and any
    other to the upstream ``app``: ``nodes`` maps each node name to its ``host:port``.  Use
    ``proxy_pass http://$node_upstream;`` in the location."""
    lines = ["    map $arg_node $node_upstream {\n        default app;\n"]
    lines += [f"        {name} app_{name};\n" for name in nodes]
    lines.append("    }\n")
    lines += [f"    upstream app_{name} {{\n        server {address} max_fails=0;\n    }}\n"
              for name, address in nodes.items()]
    return "".join(lines)


def bench_config(deploy: str, ports: list[int], listen: int, prefix: Path, nodes: list[str] | None = None) -> str:
    """deploy/nginx.conf with the bench's upstream, port and private paths (and ``owner_routing`` by
    ``nodes``, one name per port)."""
    text = re.sub(r"\n\s*resolver [^;]*;", "", deploy)
    text = re.sub(r"listen \d+;", f"listen 127.0.0.1:{listen};", text)
    text = re.sub(r"set \$app [^;]*;\s*", "", text)
    target = "http://$node_upstream" if nodes else "http://app"
    text = text.replace("proxy_pass $app;", f"proxy_pass {target};\n            "
                        "add_header X-Upstream $upstream_addr always;")
    servers = "".join(f"        server 127.0.0.1:{p} max_fails=0;\n" for p in ports)
    private = (f"    access_log off;\n    client_body_temp_path {prefix}/body;\n    proxy_temp_path {prefix}/proxy;\n"
               f"    fastcgi_temp_path {prefix}/fastcgi;\n    uwsgi_temp_path {prefix}/uwsgi;\n"
               f"    scgi_temp_path {prefix}/scgi;\n")
    routing = owner_routing({n: f"127.0.0.1:{p}" for n, p in zip(nodes, ports, strict=True)}) if nodes else ""
    text = text.replace("http {", "http {\n" + private + "    upstream app {\n        random;\n" + servers
                        + "    }\n" + routing, 1)
    text = text.replace("events {}", "events { worker_connections 8192; }", 1)
    return f"pid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\nworker_processes 1;\n" + text


class NginxFront:
    def __init__(self, ports: list[int], nodes: list[str] | None = None) -> None:
        self.ports = ports
        self.nodes = nodes
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        deploy = (ROOT / "deploy" / "nginx.conf").read_text()
        conf = self.dir / "nginx.conf"
        conf.write_text(bench_config(deploy, self.ports, self.port, self.dir, self.nodes))
        subprocess.run([NGINX, "-t", "-q", "-p", str(self.dir), "-c", str(conf)], check=True)
        self.proc = subprocess.Popen([NGINX, "-p", str(self.dir), "-c", str(conf), "-g", "daemon off;"])
        for _ in range(100):
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen: {(self.dir / 'error.log').read_text()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> NginxFront:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
