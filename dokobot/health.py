"""The heartbeat: the running bot refreshes a small file; ``dokobot health`` reads it.

A container's health check (or any supervisor) runs ``dokobot health``: it fails
when the file is missing, stale, or says the bot is not connected to Discord. A
bot with a health endpoint (``DOKOBOT_HEALTH_PORT``) is asked over HTTP instead.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

#: How often the bot writes its heartbeat, and how old one may be to count as fresh.
INTERVAL = 30.0
MAX_AGE = 90.0


def write_heartbeat(path: str | Path, *, connected: bool, **facts: Any) -> None:
    """Replace the heartbeat file in one step, so a reader never sees half of it."""
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    body = {"at": time.time(), "connected": connected, **facts}
    temporary.write_text(json.dumps(body), encoding="utf-8")
    os.replace(temporary, target)


def check_heartbeat(path: str | Path, *, now: float, max_age: float = MAX_AGE) -> str | None:
    """What is wrong with the bot according to its heartbeat, or ``None`` when it is healthy."""
    try:
        beat = json.loads(Path(path).read_text(encoding="utf-8"))
        at, connected = float(beat["at"]), bool(beat["connected"])
    except FileNotFoundError:
        return f"no heartbeat at {path}: the bot is not running (or DOKOBOT_HEARTBEAT differs)"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"cannot read the heartbeat {path}: {exc}"
    age = now - at
    if age > max_age:
        return f"the last heartbeat is {age:.0f} s old (more than {max_age:.0f} s): the bot hangs"
    if not connected:
        return "the bot is running but not connected to Discord"
    return None


def check_endpoint(url: str, *, timeout: float = 5.0) -> str | None:
    """What is wrong with the bot according to its ``/health`` endpoint, or ``None``."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read()
    except urllib.error.HTTPError as exc:  # 503: the body says why
        body = exc.read()
        try:
            problems = json.loads(body).get("problems") or [f"HTTP {exc.code}"]
        except ValueError:
            problems = [f"HTTP {exc.code}"]
        return "unhealthy: " + "; ".join(str(p) for p in problems)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return f"no answer from {url} ({reason}): the bot is not running or not listening"
    try:
        healthy = bool(json.loads(body).get("healthy"))
    except ValueError:
        return f"{url} did not answer with DokoBot's health report"
    return None if healthy else "unhealthy"
