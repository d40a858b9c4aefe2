"""The rules reference: every rule, penalty, house rule, combination and variant of RULES.md as
data (``data/rules.toml``), in English and Russian, for the Rules screen, the new-match screen
and the "why" line under the referee's rulings.

Combination points are not copied into the reference: they are read from the variant files, so
the reference always shows the values the referee applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.data import load_toml

LANGUAGES = ("en", "ru")
KINDS = ("rule", "penalty", "house", "combination", "variant")
ALL = "all"


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One entry of the reference, in one language."""

    id: str
    kind: str
    section: str
    variants: tuple[str, ...]
    title: str
    text: str
    source: str
    summary: str | None = None
    default_reading: str | None = None
    example: str | None = None
    keywords: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    meld: str | None = None
    points: tuple[tuple[str, int], ...] = ()
    lang: str = "en"

    def applies_to(self, variant: str) -> bool:
        return ALL in self.variants or variant in self.variants


def _lang(lang: str) -> str:
    return lang if lang in LANGUAGES else "en"


@cache
def _raw() -> dict[str, Any]:
    return load_toml("rules.toml")


def _raw_entries() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = _raw().get("entry", [])
    return entries


def variant_name(variant: str, lang: str = "en") -> str:
    """A variant id in words ("two-hand" → "вдвоём")."""
    names: Mapping[str, str] = _raw().get("variant_names", {}).get(_lang(lang), {})
    return names.get(variant, variant)


def label(key: str, lang: str = "en") -> str:
    """A short label used around entries ("Points", "Source", "Default", "Example")."""
    labels: Mapping[str, str] = _raw().get("labels", {}).get(_lang(lang), {})
    return labels.get(key, key.replace("_", " ").capitalize())


# --------------------------------------------------------------------------- combination points
@cache
def _points_by_meld() -> dict[str, tuple[tuple[str, int], ...]]:
    """meld id → ((variant id, points), ...) over the variant files, default readings."""
    from referee.variants import load_variant, variant_ids

    table: dict[str, list[tuple[str, int]]] = {}
    for vid in _variant_order(variant_ids()):
        variant = load_variant(vid)
        for spec in variant.combinations:
            table.setdefault(spec.id, []).append((vid, spec.points))
    return {meld: tuple(rows) for meld, rows in table.items()}


def _variant_order(ids: Iterable[str]) -> list[str]:
    """Variant ids in the reference's order (two-hand, three-hand, four-hand, no-trump, …)."""
    known = list(_raw().get("variant_names", {}).get("en", {}))
    return sorted(ids, key=lambda v: (known.index(v) if v in known else len(known), v))


def _points_sentence(points: tuple[tuple[str, int], ...], lang: str) -> str:
    from referee.variants import variant_ids

    groups: dict[int, list[str]] = {}
    for vid, value in points:
        groups.setdefault(value, []).append(vid)
    parts: list[str] = []
    every = set(variant_ids())
    for value, vids in groups.items():
        if len(groups) == 1 and set(vids) >= every:
            parts.append(str(value))
        else:
            parts.append(f"{value} ({', '.join(variant_name(v, lang) for v in vids)})")
    return f"{label('points', lang)}: {'; '.join(parts)}."


# --------------------------------------------------------------------------------- building
def _text(raw: Mapping[str, Any], field: str, lang: str) -> str | None:
    value = raw.get(f"{field}_{lang}") or raw.get(f"{field}_en") or raw.get(field)
    return str(value) if value else None


def _build(raw: Mapping[str, Any], lang: str) -> RuleEntry:
    meld = raw.get("meld")
    variants = tuple(str(v) for v in raw.get("variants", [ALL]))
    text = _text(raw, "text", lang) or ""
    points: tuple[tuple[str, int], ...] = ()
    if meld:
        points = _points_by_meld().get(str(meld), ())
        if points:
            variants = tuple(v for v, _ in points)
            text = f"{text} {_points_sentence(points, lang)}"
    source = raw.get(f"source_{lang}") or raw.get("source") or ""
    return RuleEntry(
        id=str(raw["id"]),
        kind=str(raw["kind"]),
        section=str(raw.get("section", "")),
        variants=variants,
        title=_text(raw, "title", lang) or str(raw["id"]),
        text=text,
        source=str(source),
        summary=_text(raw, "summary", lang),
        default_reading=_text(raw, "default_reading", lang),
        example=_text(raw, "example", lang),
        keywords=tuple(str(k) for k in raw.get(f"keywords_{lang}", [])),
        replaces=tuple(str(r) for r in raw.get("replaces", [])),
        meld=str(meld) if meld else None,
        points=points,
        lang=lang,
    )


@cache
def _entries(lang: str) -> tuple[RuleEntry, ...]:
    return tuple(_build(raw, lang) for raw in _raw_entries())


@cache
def _by_id(lang: str) -> dict[str, RuleEntry]:
    return {e.id: e for e in _entries(lang)}


def all_entries(lang: str = "en") -> list[RuleEntry]:
    """Every entry, in the order of the data file (RULES.md order)."""
    return list(_entries(_lang(lang)))


def entry(rule_id: str, lang: str = "en") -> RuleEntry:
    """The entry with this id (rule, penalty, house rule, combination ``C-…`` or variant
    ``V-…``); raises KeyError for an unknown id."""
    try:
        return _by_id(_lang(lang))[rule_id.strip().upper()]
    except KeyError:
        raise KeyError(f"no rules-reference entry {rule_id!r}") from None


def explanation(rule_id: str, lang: str = "en") -> str:
    """The rule's text in plain words for the line under a ruling; empty for an unknown id."""
    found = _by_id(_lang(lang)).get(rule_id.strip().upper())
    return found.text if found is not None else ""


def house_rules_for(variant_id: str, lang: str = "en") -> list[RuleEntry]:
    """The house rules a table may switch on for this variant, in the variant file's order.
    For a variant without a file, the house rules whose entry says they apply to it."""
    from referee.variants import load_variant, variant_ids

    lang = _lang(lang)
    if variant_id not in variant_ids():
        return [e for e in _entries(lang) if e.kind == "house" and e.applies_to(variant_id)]
    by_id = _by_id(lang)
    out: list[RuleEntry] = []
    for rule in load_variant(variant_id).house_rules_available:
        found = by_id.get(rule)
        out.append(found if found is not None else RuleEntry(
            id=rule, kind="house", section="", variants=(variant_id,), title=rule, text="",
            source="", lang=lang,
        ))
    return out
