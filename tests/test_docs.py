"""The documentation in the repository: what code comments and the README point to exists."""

from __future__ import annotations

import re
from pathlib import Path

from dokobot.engine import RuleSet

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    p
    for folder in ("dokobot", "cogs", "tests", "benchmarks")
    for p in (ROOT / folder).rglob("*.py")
    if p.name != "test_docs.py"
]


def sections(doc: str) -> set[str]:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    return set(re.findall(r"^## §(\d+)", text, flags=re.M))


def test_every_rule_citation_points_to_a_section_of_docs_rules() -> None:
    known = sections("rules.md")
    assert known == {str(n) for n in range(1, 11)}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        # Only the repository's own documents are cited, never files outside it.
        assert not re.search(r"(?<!docs/)\b(rules|record-format|design)\.md", text), path
        for cited in re.findall(r"docs/rules\.md §(\d+)", text):
            assert cited in known, f"{path.relative_to(ROOT)} cites §{cited}"
        for doc in re.findall(r"docs/([\w-]+\.md)", text):
            assert (ROOT / "docs" / doc).is_file(), f"{path.relative_to(ROOT)} cites {doc}"


def test_every_house_rule_key_is_documented_with_an_example() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("## §9 House rules", 1)[1].split("## §10", 1)[0]
    for key in RuleSet.__dataclass_fields__:
        row = next((line for line in table.splitlines() if line.startswith(f"| `{key}` ")), None)
        assert row is not None, f"house rule {key} is not in docs/rules.md §9"
        assert f'{{"{key}": ' in row or f'"{key}": ' in row, f"{key} has no example"


def test_the_readme_links_the_docs_and_lists_every_setting() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/rules.md", "docs/record-format.md", "docs/architecture.md"):
        assert f"]({doc}" in readme and (ROOT / doc).is_file()
    used = set()
    for path in SOURCES:
        if "tests" not in path.parts:
            used |= set(re.findall(r"\"(DOKOBOT_[A-Z_]+|DISCORD_TOKEN)\"", path.read_text()))
    assert used, "no settings found"
    for name in sorted(used):
        assert f"| `{name}` |" in readme, f"{name} is not in the README's settings"
