"""Bring the message catalogues up to date with the source: ``python scripts/catalogues.py``.

Every text the code marks (``T(lang, "…")``, ``N_``, ``_t``, a table or engine error)
and every slash-command string is collected with Babel; ``dokobot/i18n/de.po`` keeps its
translations and gains the new texts (empty: to translate), texts no longer used
leave it; ``en.po`` is the identity. ``--check`` only reports what is missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dokobot.i18n import CATALOGUES  # noqa: E402


def source_messages() -> dict[tuple[str | None, str], str | tuple[str, str]]:
    """(context, id) → id (or singular and plural) for every marked text and command string."""
    found: dict[tuple[str | None, str], str | tuple[str, str]] = {}
    for folder in ("dokobot", "cogs"):
        for _, _, message, _, context in extract_from_dir(
            ROOT / folder,
            method_map=[("**.py", "python")],
            keywords={
                "T": (2,),
                "N_": None,
                "_t": (2,),
                "TableError": None,
                "IllegalActionError": None,
                "refuse": None,
                "_cards_refusal": (4,),
                "t": None,
            },
        ):
            key = message[0] if isinstance(message, tuple) else message
            if key:
                found[(context, key)] = message
    from cogs.commands import command_strings

    for context, text in command_strings():
        found[(context, text)] = text
    from dokobot.i18n.terms import TERM_WORDS

    for word in TERM_WORDS:
        found[("term", word)] = word
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="report, change nothing")
    args = parser.parse_args()
    wanted = source_messages()
    with open(CATALOGUES / "de.po", "rb") as handle:
        german = read_po(handle, locale="de")
    new_de = Catalog(locale="de", project="DokoBot", fuzzy=False)
    new_en = Catalog(locale="en", project="DokoBot", fuzzy=False)
    missing = []
    ordered = sorted(wanted.items(), key=lambda kv: (kv[0][0] or "", kv[0][1]))
    for (context, key), message in ordered:
        old = german.get(key, context=context)
        string = old.string if old is not None else ("" if isinstance(message, str) else ("", ""))
        if not string or (isinstance(string, tuple) and not all(string)):
            missing.append((context, key))
        new_de.add(message, string, context=context)
        new_en.add(message, message, context=context)
    if args.check:
        for context, key in missing:
            print(f"untranslated: [{context or ''}] {key}")
        return 1 if missing else 0
    for lang, catalog in (("de", new_de), ("en", new_en)):
        with open(CATALOGUES / f"{lang}.po", "wb") as handle:
            write_po(handle, catalog, width=100, omit_header=False, sort_output=True)
    print(f"{len(wanted)} texts; {len(missing)} without a German translation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
