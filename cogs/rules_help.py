"""The house rules as players read them: one line per key, its values, and typed input."""

from __future__ import annotations

from typing import Any

from dokobot.engine import PRESETS, RULE_DEFAULTS, RuleSet, describe, rule_values
from dokobot.i18n import N_, T

#: One line per rule key, in the order of docs/rules.md §9.
RULE_HELP: dict[str, str] = {
    "nines": N_("Play with the nines (48 cards); false: 40 cards, 10 each."),
    "dullen": N_(
        "Two ♥10 in one trick: the first wins, the second, the second except in the last "
        "trick, or the second only in the last trick."
    ),
    "solos": N_("The solos that may be played (king solo is a house rule)."),
    "dulle_trump": N_("The ♥10 are the highest trumps; false: a plain heart (A 10 K 9)."),
    "team_queen": N_("The queens whose holders are Re: clubs, or diamonds."),
    "kaiser": N_("Kaiser: the ♦K rank above all trumps."),
    "schweinchen": N_(
        "Schweinchen: the holder of both ♦A may make them the highest trumps, before their "
        "own first card (at_once) or when playing the first ♦A (on_first_play)."
    ),
    "superschweinchen": N_("After Schweinchen, both ♦9 may be declared above them."),
    "half_chicken": N_('Both ♦10 may be called "half chicken": shown to all, no effect.'),
    "redeal_on": N_(
        "Hands that may be thrown in for a new deal by the same dealer (the hand is shown)."
    ),
    "reservation_priority": N_("Between equal reservations the first or the last asked wins."),
    "solo_overbid": N_(
        "Of several solos the last one bid plays, and it starts with no 90 announced."
    ),
    "soloist_leads": N_("Every soloist leads the first trick, not only compulsory solos."),
    "compulsory_solos": N_("Compulsory solos each player owes per list (tournament: 1)."),
    "marriage_clarification": N_("Which tricks find the marriage partner."),
    "poverty": N_("Poverty (Armut) may be played with few trumps."),
    "poverty_fox_counts": N_("The ♦A counts as a trump for poverty."),
    "poverty_cards": N_("Cards passed each way in a poverty, and the most trumps it allows."),
    "poverty_return_trumps": N_("The poverty's acceptor may give trumps back."),
    "poverty_refused": N_(
        "Nobody takes the poverty: redeal; Schwarze Sau (the winner of the second ♠Q plays "
        "alone); or Ramsch (the most card points lose)."
    ),
    "announcement_deadline": N_(
        "ddv deadlines, or every announcement before the announcer's first card."
    ),
    "announce_on_turn_only": N_("Announcements only when it is your turn."),
    "announcement_limit": N_("The highest announcement allowed."),
    "compulsory_announcement": N_(
        "Zwingen: the winner of a first trick of 30 or more must announce (renew: one "
        "level higher if already announced)."
    ),
    "genscher": N_("Genscher: the holder of both ♦K names a new partner when playing the first."),
    "announcement_doubles": N_("Re and Kontra each double the game points instead of +2."),
    "doppelkopf_needs_pairs": N_("A Doppelkopf (40+) must also hold two pairs of equal cards."),
    "extra_dulle_caught": N_("Catching an opponent's ♥10 is an extra point."),
    "extra_aces_kings_trick": N_("A trick of two aces and two kings is an extra point."),
    "fox_first_trick": N_("Points for a fox caught in the first trick."),
    "fox_last_trick": N_("Points for a fox caught in the last trick."),
    "karlchen_caught": N_("Winning the other party's ♣J in the last trick is an extra point."),
    "lieschen_mueller": N_("Lieschen Müller: that catch counts only when a ♦Q makes it."),
    "solo_value_doubled": N_("Announced solos count double."),
    "bock_after": N_("Games after which a Bock round follows: four games at double value."),
    "bock_stacking": N_("Bock rounds due at once queue up (append) or double again (double)."),
}

#: Every key a server or table may set, ``preset`` first.
RULE_KEYS = ("preset", *RULE_HELP)
_SETS = ("solos", "redeal_on", "bock_after")


def values_of(key: str) -> list[str]:
    """The values ``key`` takes, as typed (a set rule: its members)."""
    if key == "preset":
        return list(PRESETS)
    # Any whole number for compulsory_solos: offer the usual ones.
    return list(rule_values(key) or ("0", "1", "2"))


def values_text(key: str, lang: str) -> str:
    """What a rule takes, as the answer to a wrong value says it."""
    if key == "compulsory_solos":
        return T(lang, "a whole number (1 for a tournament list)")
    names = ", ".join(f"`{v}`" for v in values_of(key))
    if key in _SETS:
        return T(lang, "a list out of {names}", names=names)
    return names


def parse_value(key: str, text: str) -> Any:
    """Turn what a user typed into a value for ``RuleSet.from_dict``; ``ValueError`` if not."""
    value = text.strip().lower()
    if key == "preset":
        if value not in PRESETS:
            raise ValueError(value)
        return value
    default = RULE_DEFAULTS[key]
    if isinstance(default, bool):
        if value in ("true", "yes", "on", "1", "ja", "an"):
            return True
        if value in ("false", "no", "off", "0", "nein", "aus"):
            return False
        raise ValueError(value)
    if isinstance(default, int):
        number = int(value)
        if number < 0 or (key != "compulsory_solos" and value not in values_of(key)):
            raise ValueError(value)
        return number
    if key in _SETS:
        names = [v.strip() for v in value.replace(";", ",").split(",") if v.strip()]
        names = [] if names == ["none"] else names
        for name in names:
            if name not in values_of(key):
                raise ValueError(name)
        return names
    if value not in values_of(key):
        raise ValueError(value)
    return value


def shown(value: Any) -> str:
    """A rule value as the help shows it: ``true``, ``second_wins``, ``queen, jack``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(sorted(str(v) for v in value)) or "—"
    return str(getattr(value, "value", value))


def rules_line(rules: RuleSet, lang: str) -> str:
    """``Rules: DDV`` or ``Rules: pub + nines true``: the closest preset and what differs."""
    name, diff = describe(rules)
    label = "DDV" if name == "ddv" else name
    if not diff:
        return T(lang, "Rules: {preset}", preset=label)
    keys = ", ".join(
        key if value is True else f"{key} {shown(value)}" for key, value in sorted(diff.items())
    )
    return T(lang, "Rules: {preset} + {keys}", preset=label, keys=keys)


def explained(rules: RuleSet, lang: str) -> list[str]:
    """One line per key: name, current value (bold where it differs from DDV), explanation
    and the values it takes."""
    lines = []
    for key, help_text in RULE_HELP.items():
        value = getattr(rules, key)
        mark = "**" if value != RULE_DEFAULTS[key] else ""
        takes = " · ".join(values_of(key))
        if key in _SETS:
            takes = T(lang, "a list out of {names}", names=takes)
        elif key == "compulsory_solos":
            takes = "0 · 1 · 2 …"
        lines.append(f"`{key}` {mark}{shown(value)}{mark} — {T(lang, help_text)} [{takes}]")
    return lines


def suggestions(key: str | None, typed: str) -> list[str]:
    """Autocomplete: the keys (or, for ``key``, its values) that start with or contain ``typed``."""
    pool = list(RULE_KEYS) if key is None else values_of(key)
    if key in _SETS:
        # A list: complete the last entry, keep what came before.
        head, _, last = typed.rpartition(",")
        prefix = f"{head.strip()}, " if head.strip() else ""
        chosen = {v.strip() for v in head.split(",")}
        return [prefix + v for v in pool if v.startswith(last.strip()) and v not in chosen][:25]
    typed = typed.strip().lower()
    first = [v for v in pool if v.startswith(typed)]
    rest = [v for v in pool if typed in v and v not in first]
    return (first + rest)[:25]
