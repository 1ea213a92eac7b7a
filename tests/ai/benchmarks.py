"""The benchmark scripts (``benchmarks/*.py``, not a package) as modules for the tests."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: The bid as the logged runs the tests reproduce made it (benchmarks/results): the
#: three solos the hand count likes best, each on 4 × ``samples`` deals, no race, a
#: margin of −3 against chance players; every seat searched ``samples`` worlds and
#: announced with the margins of a minded table.
LOGGED_BID: dict[str, Any] = {
    "bid_factor": 4,
    "solo_candidates": 3,
    "race_sigmas": math.inf,
    "chance_solo_margin": -3.0,
    "chance_factor": 1,
    "chance_announce_margin": 0.6,
    "chance_solo_raise_margin": -1.0,
}


def load(name: str) -> ModuleType:
    """``benchmarks/<name>.py``, imported."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered first, as importlib's recipe does: a dataclass looks its module up.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
