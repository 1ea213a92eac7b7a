"""Layering rules of docs/architecture.md: the engine imports only the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "dokobot" / "engine"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        outside = imported_modules(path) - set(sys.stdlib_module_names) - {"__future__"}
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_engine_does_no_io() -> None:
    for path in ENGINE.glob("*.py"):
        io = imported_modules(path) & {"asyncio", "sqlite3", "socket", "subprocess", "os"}
        assert not io, f"{path.name} imports {sorted(io)}"
