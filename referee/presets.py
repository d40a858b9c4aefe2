"""Named sets of house rules ("the old Russian rulebook", "Foster's English reading"): a table
agrees on a source, not on fourteen switches. Read from ``data/presets.toml``; a variant is
offered the rules of a preset that its own file lists."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from referee.data import load_toml

CUSTOM = "custom"


@dataclass(frozen=True, slots=True)
class Preset:
    """One source's readings as house rules."""

    id: str
    titles: dict[str, str]
    texts: dict[str, str]
    cites: tuple[str, ...]
    house_rules: tuple[str, ...]

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles["en"]

    def text(self, lang: str) -> str:
        return self.texts.get(lang) or self.texts["en"]

    def rules_for(self, available: Iterable[str]) -> frozenset[str]:
        """The preset's house rules that a variant offering ``available`` has."""
        return frozenset(self.house_rules) & frozenset(available)


@cache
def all_presets() -> tuple[Preset, ...]:
    """Every preset in the data file's order (the defaults first)."""
    out: list[Preset] = []
    for raw in load_toml("presets.toml").get("preset", []):
        out.append(
            Preset(
                id=str(raw["id"]),
                titles={
                    lang: str(raw[f"title_{lang}"])
                    for lang in ("en", "ru")
                    if f"title_{lang}" in raw
                },
                texts={
                    lang: str(raw[f"text_{lang}"]) for lang in ("en", "ru") if f"text_{lang}" in raw
                },
                cites=tuple(str(c) for c in raw.get("cites", [])),
                house_rules=tuple(str(r) for r in raw.get("house_rules", [])),
            )
        )
    return tuple(out)


def preset(preset_id: str) -> Preset:
    """The preset with this id; KeyError for an unknown one."""
    for p in all_presets():
        if p.id == preset_id:
            return p
    raise KeyError(f"no house-rule preset {preset_id!r}")


BASE_READING = "russian wikipedia"  # the defaults every preset is another reading of


def describes(p: Preset, source: str) -> bool:
    """Whether the preset is a reading of the variant whose reference ``source`` this is
    (empty: not known, every preset applies). The presets are other readings of the games
    Russian Wikipedia describes, so they all apply there; a variant from other books (RULES.md
    §8) is offered only the presets of its own books: the old Russian rulebook says nothing
    of Rubicon."""
    low = source.lower()
    if not p.cites or not source or BASE_READING in low:
        return True
    return any(c.lower() in low for c in p.cites)


def presets_for(available: Iterable[str], source: str = "") -> list[Preset]:
    """The presets worth offering for a variant with these house rules and this ``source``
    (see ``describes``): the defaults, and each preset of one of its sources that switches on
    at least one of them; two presets that would switch on the same rules there are offered
    once (the first)."""
    rules = frozenset(available)
    out: list[Preset] = []
    seen: set[frozenset[str]] = set()
    for p in all_presets():
        chosen = p.rules_for(rules)
        if not describes(p, source):
            continue
        if (chosen or not p.house_rules) and chosen not in seen:
            seen.add(chosen)
            out.append(p)
    return out


def matching(chosen: Iterable[str], available: Iterable[str], source: str = "") -> str:
    """The id of the offered preset whose rules are exactly ``chosen``, else CUSTOM."""
    wanted = frozenset(chosen)
    for p in presets_for(available, source):
        if p.rules_for(available) == wanted:
            return p.id
    return CUSTOM
