"""Malformed records never crash ``replay``: every input is a result or a RecordError."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dokobot.engine import RecordError, replay_text

from .test_records import finished_record

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)
KEYS = ["format", "rules", "dealer", "hands", "actions", "solo_owed", "forced"]


def outcome_or_error(text: str) -> None:
    try:
        result = replay_text(text)
    except RecordError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(result["complete"], bool)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(JSON)
def test_arbitrary_json_is_answered_or_refused(value: Any) -> None:
    outcome_or_error(json.dumps(value))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.sampled_from(KEYS), JSON, st.integers(0, 60))
def test_a_damaged_real_record_is_answered_or_refused(key: str, value: Any, index: int) -> None:
    record = copy.deepcopy(finished_record())
    if key == "actions" and index < len(record["actions"]):
        record["actions"][index] = value  # one action replaced by junk
    else:
        record[key] = value
    outcome_or_error(json.dumps(record))
