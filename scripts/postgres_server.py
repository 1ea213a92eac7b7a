"""A throw-away PostgreSQL server for the tests and benchmarks (Debian's packages).

    python scripts/postgres_server.py start DIR   # prints the server's URL
    python scripts/postgres_server.py stop DIR

The cluster lives in DIR (initdb, trust authentication on a Unix socket in DIR
and on 127.0.0.1 at a free port). As root the server runs as the ``postgres``
user, since PostgreSQL refuses to run as root. ``start`` exits 1 with the reason
when no server can be started (no binaries, initdb failed).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

USER = "dokobot"


def binaries() -> Path | None:
    """The folder with initdb and pg_ctl: on PATH, else Debian's newest version."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    return Path(versions[-1]).parent if versions else None


def _version(path: str) -> float:
    try:
        return float(Path(path).parents[1].name)
    except ValueError:
        return 0.0


def _run(args: list[str], *, owner: str | None) -> subprocess.CompletedProcess[str]:
    if owner is not None:
        args = ["runuser", "-u", owner, "--", *args]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def _owner() -> str | None:
    return "postgres" if os.geteuid() == 0 else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(folder: Path) -> str:
    """Create and start a cluster in ``folder``; return its URL (raises RuntimeError)."""
    bin_dir = binaries()
    if bin_dir is None:
        raise RuntimeError("no PostgreSQL binaries (install Debian's postgresql package)")
    owner = _owner()
    data = folder / "data"
    folder.mkdir(parents=True, exist_ok=True)
    if owner is not None:
        shutil.chown(folder, owner)
    initdb = _run(
        [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", USER, "-E", "UTF8"]
        + ["--locale=C.UTF-8"],
        owner=owner,
    )
    if initdb.returncode != 0:
        raise RuntimeError(f"initdb failed: {initdb.stderr.strip() or initdb.stdout.strip()}")
    port = _free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
    started = _run(
        [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log")]
        + ["-w", "-t", "60", "start"],
        owner=owner,
    )
    if started.returncode != 0:
        log = (
            (folder / "log").read_text(errors="replace")[-2000:]
            if (folder / "log").exists()
            else ""
        )
        raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()} {log}")
    url = f"postgresql://{USER}@127.0.0.1:{port}/postgres"
    (folder / "url").write_text(url)
    return url


def stop(folder: Path) -> None:
    """Stop the cluster in ``folder`` (fast shutdown) and remove it."""
    bin_dir = binaries()
    data = folder / "data"
    if bin_dir is not None and data.exists():
        _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], owner=_owner())
    shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(argv[2]).resolve()
    if argv[1] == "stop":
        stop(folder)
        return 0
    try:
        print(start(folder))
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        print(f"no PostgreSQL server: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
