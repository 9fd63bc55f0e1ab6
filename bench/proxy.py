"""Run the repository's reverse proxy configuration (``deploy/nginx/hkk-tournament.conf``, docs/
production.md "Reverse proxy") with nginx in front of the benchmark's pools, as at the venue.

Usage (nginx installed: Debian's package ``nginx``; the pools served as in README "Big
events")::

    .venv/bin/python bench/proxy.py --listen 8080 --public 8000 --staff 8001 [--push 8002]
        [--workers 1] [--dir DIR]

It copies the configuration with these ports and a cache directory of its own (``--dir``,
default a new temporary folder) and runs nginx in the foreground until interrupted; it prints
``proxy pid N on 127.0.0.1:PORT`` once the port answers. Point ``bench/load.py --port`` at the
proxy's port (and ``--staff-port`` too: the proxy routes writes and API tokens to the staff
pool), and give the printed pid with ``--proxy-pid`` so that the proxy's CPU is counted with
the public side's. ``tests/ops/test_proxy.py`` runs the same configuration through
:func:`start`. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "nginx" / "hkk-tournament.conf"

#: The production file's addresses and cache folder, replaced by :func:`render`.
LISTEN, PUBLIC, STAFF, PUSH = "127.0.0.1:8080", "127.0.0.1:8000", "127.0.0.1:8001", "127.0.0.1:8002"
CACHE_DIR = "/var/cache/nginx/hkk"

MAIN = """\
{user}worker_processes {workers};
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/hkk-tournament.conf;
}}
"""


def nginx() -> str:
    """The nginx program (``PATH``, else Debian's ``/usr/sbin/nginx``). Raises
    ``FileNotFoundError`` naming the package when it is not installed."""
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(found):
        raise FileNotFoundError("nginx is not installed (Debian: apt-get install nginx)")
    return found


def render(directory: Path, *, listen: int, public: int, staff: int, push: int, workers: int = 1):
    """Write the production configuration with these loopback ports and ``directory/cache`` as
    its cache, and a main configuration including it, into ``directory``; returns the main
    file's path. Raises ``ValueError`` when the production file no longer holds an address this
    replaces (the benchmark would otherwise measure another configuration)."""
    text = CONFIG.read_text(encoding="utf-8")
    for old, new in (
        (LISTEN, f"127.0.0.1:{listen}"),
        (PUBLIC, f"127.0.0.1:{public}"),
        (STAFF, f"127.0.0.1:{staff}"),
        (PUSH, f"127.0.0.1:{push}"),
        (CACHE_DIR, str(directory / "cache")),
    ):
        if old not in text:
            raise ValueError(f"{CONFIG.name} no longer holds {old}")
        text = text.replace(old, new)
    (directory / "hkk-tournament.conf").write_text(text, encoding="utf-8")
    # The master starts as root here: its workers then run as root too (they write the cache).
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = directory / "nginx.conf"
    main.write_text(MAIN.format(user=user, workers=workers, dir=directory), encoding="utf-8")
    return main


def start(directory: Path, *, listen: int, public: int, staff: int, push: int, workers: int = 1):
    """Start nginx with :func:`render`'s configuration and wait (up to 10 s) until ``listen``
    accepts connections; returns the running ``subprocess.Popen`` (stop it with ``terminate``).
    Raises ``RuntimeError`` with nginx's own message when it does not start."""
    main = render(directory, listen=listen, public=public, staff=staff, push=push, workers=workers)
    process = subprocess.Popen(
        [nginx(), "-p", str(directory), "-c", str(main)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx did not start: {process.communicate()[1].strip()}")
        try:
            with socket.create_connection(("127.0.0.1", listen), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.terminate()
    raise RuntimeError(f"nginx did not listen on 127.0.0.1:{listen} within 10 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", type=int, default=8080)
    parser.add_argument("--public", type=int, default=8000, help="public pool's port")
    parser.add_argument("--staff", type=int, default=8001, help="staff pool's port")
    parser.add_argument("--push", type=int, default=8002, help="live push's port")
    parser.add_argument("--workers", type=int, default=1, help="nginx worker processes")
    parser.add_argument("--dir", type=Path, default=None, help="folder for nginx's files")
    args = parser.parse_args()
    directory = args.dir or Path(tempfile.mkdtemp(prefix="hkk-proxy-"))
    directory.mkdir(parents=True, exist_ok=True)
    ports = {"listen": args.listen, "public": args.public, "staff": args.staff, "push": args.push}
    process = start(directory, workers=args.workers, **ports)
    print(f"proxy pid {process.pid} on 127.0.0.1:{args.listen} (files in {directory})", flush=True)
    try:
        process.wait()
    except KeyboardInterrupt:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
