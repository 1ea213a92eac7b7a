"""Validate the JSON bodies the bot sent against Discord's OpenAPI request schemas."""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

SPEC = Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"


@cache
def spec() -> dict[str, Any] | None:
    if not SPEC.exists():
        return None
    data: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return data


@cache
def routes() -> list[tuple[re.Pattern[str], str]]:
    data = spec()
    assert data is not None
    out = []
    for template in data["paths"]:
        pattern = re.sub(
            r"\{[^}]+\}", r"[^/]+", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
        )
        out.append((re.compile(f"^{pattern}$"), template))
    # Literal segments (e.g. @original) win over placeholders.
    out.sort(key=lambda item: item[1].count("{"))
    return out


def operation(method: str, path: str) -> dict[str, Any] | None:
    data = spec()
    assert data is not None
    for pattern, template in routes():
        if pattern.match(path):
            return data["paths"][template].get(method.lower())  # type: ignore[no-any-return]
    return None


def _integer_snowflakes(body: Any) -> Any:
    """Discord accepts integer ids where the description says string snowflakes, and
    discord.py sends some (attachment ids, a DM's ``recipient_id``): allow them."""
    body = copy.deepcopy(body)
    stack = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key == "recipient_id" and isinstance(value, int):
                    item[key] = str(value)
                if key == "attachments" and isinstance(value, list):
                    for attachment in value:
                        if isinstance(attachment, dict) and isinstance(attachment.get("id"), int):
                            attachment["id"] = str(attachment["id"])
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return body


def problems(requests: list[Any]) -> list[str]:
    """One line per request body that does not match its operation's schema."""
    import jsonschema

    data = spec()
    assert data is not None
    found = []
    for request in requests:
        if request.json is None:
            continue
        op = operation(request.method, request.path)
        if op is None:
            found.append(f"{request.method} {request.path}: not in the OpenAPI description")
            continue
        body_spec = op.get("requestBody", {}).get("content", {}).get("application/json")
        if body_spec is None:
            continue
        schema = {**body_spec["schema"], "components": data["components"]}
        validator = jsonschema.Draft202012Validator(schema)
        body = _integer_snowflakes(request.json)
        for error in validator.iter_errors(body):
            where = "/".join(str(p) for p in error.absolute_path)
            found.append(
                f"{request.method} {request.path} at {where or '.'}: {error.message[:200]}"
            )
            break
    return found
