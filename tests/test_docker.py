"""The Docker image: what goes into the build, layer order, and a health check that can fail."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sent_to_daemon(path: str) -> bool:
    """Docker's rule for ``.dockerignore``: the last pattern that matches decides."""
    included = True
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").rstrip("/").removeprefix("**/")
        parts = path.split("/")
        # A pattern matches the path itself or any folder above it.
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        names = parts if line.lstrip("!").startswith("**/") else []
        if any(fnmatch.fnmatch(p, pattern) for p in prefixes + names):
            included = negate
    return included


def test_the_build_context_holds_the_source_and_never_secrets() -> None:
    for path in (
        "pyproject.toml",
        "README.md",
        "dokobot/cli.py",
        "cogs/doko.py",
        "card_images/1x/CQ.png",
        "dokobot/render/fonts/DejaVuSans.ttf",
    ):
        assert sent_to_daemon(path), path
    for path in (
        ".env",
        ".venv/bin/python",
        ".git/HEAD",
        "dokobot.sqlite3",
        "dokobot.sqlite3-wal",
        "dokobot/__pycache__/cli.cpython-311.pyc",
        "tests/test_cli.py",
        "dokobot/.env",
    ):
        assert not sent_to_daemon(path), path


def test_dependencies_are_installed_before_the_source_is_copied() -> None:
    steps = [
        line.split()[0:2]
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if re.match(r"^(COPY|RUN) ", line)
    ]
    install_deps = next(i for i, s in enumerate(steps) if s[0] == "RUN")
    copy_source = next(i for i, s in enumerate(steps) if s == ["COPY", "dokobot"])
    assert steps[0] == ["COPY", "pyproject.toml"]
    assert install_deps < copy_source


def test_the_health_check_asks_the_running_bot() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["dokobot", "health"]' in dockerfile
    assert "DOKOBOT_HEALTH_PORT=8080" in dockerfile  # dokobot health asks /health there
    assert "sqlite3.connect" not in dockerfile  # the old check that could not fail


def test_compose_runs_two_bot_processes_over_one_postgresql() -> None:
    import yaml

    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    assert list(services) == ["postgres", "migrate", "bot-a", "bot-b"]
    assert services["postgres"]["image"].startswith("postgres:")
    bots = [services["bot-a"], services["bot-b"]]
    url = services["migrate"]["environment"]["DOKOBOT_DB"]
    assert url.startswith("postgresql://dokobot:") and services["migrate"]["command"] == [
        "dokobot",
        "migrate",
    ]
    for bot in bots:
        assert bot["build"] == "." and bot["env_file"] == ".env"  # the token stays out
        assert bot["environment"]["DOKOBOT_DB"] == url
        assert bot["environment"]["DOKOBOT_SHARD_COUNT"] == "4"
        assert bot["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    # Together the two processes run every shard exactly once.
    assert [b["environment"]["DOKOBOT_SHARDS"] for b in bots] == ["0-1", "2-3"]
    assert {b["ports"][0] for b in bots} == {"127.0.0.1:8081:8080", "127.0.0.1:8082:8080"}
