"""The rules reference: every rule, penalty, house rule, combination and variant of RULES.md as
data (``data/rules.toml``), in English and Russian, for the Rules screen, the new-match screen
and the "why" line under the referee's rulings.

Combination points are not copied into the reference: they are read from the variant files, so
the reference always shows the values the referee applies.
"""

from __future__ import annotations

import re
import unicodedata
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


# ----------------------------------------------------------------------------------- search
_LATIN_LOOKALIKES = "eaocpxkytmbh"
_CYRILLIC_LOOKALIKES = "еаосрхкутмвн"
_TO_CYRILLIC = str.maketrans(_LATIN_LOOKALIKES, _CYRILLIC_LOOKALIKES)
_TO_LATIN = str.maketrans(_CYRILLIC_LOOKALIKES, _LATIN_LOOKALIKES)
_WORD = re.compile(r"[^\W_]+")


def _is_cyrillic(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def _fold_word(word: str) -> str:
    """One word, lower-cased, accents dropped (ё → е, é → e), and look-alike letters of the
    other alphabet replaced by the word's main alphabet ("бeзик" with a Latin e → "безик")."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    cyrillic = sum(1 for ch in plain if _is_cyrillic(ch))
    latin = sum(1 for ch in plain if "a" <= ch <= "z")
    if cyrillic and cyrillic >= latin:
        return plain.translate(_TO_CYRILLIC)
    if latin:
        return plain.translate(_TO_LATIN)
    return plain


def normalize(text: str) -> list[str]:
    """The words of a text as the search compares them."""
    return [_fold_word(w) for w in _WORD.findall(text)]


_STOPWORDS_RAW = (
    "a an the what whats which who does do did is are was be how much many score scores scored "
    "worth for of in to i can you it when may with and or on get gets point points value "
    "что сколько стоит стоят как какой какая какие ли за в во на и или а по с у к ко до при "
    "для если то это очков очки очко очка дает даёт приносит будет есть мне можно"
)
_STOPWORDS = frozenset(_fold_word(w) for w in _STOPWORDS_RAW.split())

# Field weights: a word found in the title counts most, in the running text least.
_WEIGHTS = {"id": 10.0, "title": 5.0, "keywords": 4.0, "points": 3.0, "summary": 2.0,
            "text": 1.5, "example": 0.5, "source": 0.3}


def _word_match(q: str, w: str) -> float:
    """1 for the same word, less for the same stem (Russian endings, English plurals)."""
    if q == w:
        return 1.0
    if q.isdigit() or w.isdigit():
        return 0.0
    shorter = min(len(q), len(w))
    if shorter < 3:
        return 0.0
    common = 0
    for a, b in zip(q, w, strict=False):
        if a != b:
            break
        common += 1
    slack = 1 if shorter <= 5 else 2
    if common >= 3 and common >= shorter - slack:
        return 0.8
    return 0.0


# On equal scores, the combination itself or the default rule comes before the house rule.
_KIND_BONUS = {"combination": 0.5, "rule": 0.4, "penalty": 0.3, "house": 0.2}


@dataclass(frozen=True, slots=True)
class _Index:
    entry: RuleEntry
    fields: tuple[tuple[float, frozenset[str]], ...]
    phrases: tuple[str, ...]
    compact_id: str


def _compact(text: str) -> str:
    return "".join(normalize(text))


def _index(e: RuleEntry) -> _Index:
    fields: dict[str, Iterable[str]] = {
        "id": normalize(e.id),
        "title": normalize(e.title),
        "keywords": [w for k in e.keywords for w in normalize(k)],
        "points": [str(p) for _, p in e.points],
        "summary": normalize(e.summary or ""),
        "text": normalize(e.text),
        "example": normalize(e.example or ""),
        "source": normalize(e.source),
    }
    phrases = tuple(" ".join(normalize(p)) for p in (e.title, *e.keywords))
    return _Index(
        entry=e,
        fields=tuple((_WEIGHTS[name], frozenset(words)) for name, words in fields.items()),
        phrases=phrases,
        compact_id=_compact(e.id),
    )


@cache
def _indexes(lang: str) -> tuple[_Index, ...]:
    return tuple(_index(e) for e in _entries(lang))


def _score(ix: _Index, words: list[str], phrase: str, compact: str) -> float:
    score = 0.0
    if compact == ix.compact_id:
        score += 100.0
    elif len(ix.compact_id) >= 5 and ix.compact_id in compact:
        score += 50.0
    matched = 0
    for q in words:
        best = 0.0
        for weight, vocabulary in ix.fields:
            if best >= weight:
                continue
            if q in vocabulary:
                best = weight
                continue
            for w in vocabulary:
                m = _word_match(q, w)
                if m and weight * m > best:
                    best = weight * m
        if best:
            matched += 1
            score += best
    if not matched:
        return score
    if len(words) > 1 and matched == len(words):
        score += 3.0
    if phrase:
        if phrase == ix.phrases[0]:
            score += 10.0
        elif any(phrase == p for p in ix.phrases[1:]):
            score += 8.0
        elif any(phrase in p for p in ix.phrases):
            score += 5.0
    return score


def search(query: str, lang: str = "en", variant: str | None = None) -> list[RuleEntry]:
    """Entries matching a free-text query, best first: ids, titles, keywords, points, texts.

    Case-insensitive; ё = е; Latin look-alike letters inside a Russian word (and Cyrillic
    ones inside a Latin word) are read as the word's own alphabet; Russian endings and English
    plurals are tolerated. The other language's texts count too, a little less, so "bezique"
    finds the bezique in Russian. With ``variant``, only entries that apply to it.
    """
    lang = _lang(lang)
    all_words = normalize(query)
    if not all_words:
        return []
    words = [w for w in all_words if w not in _STOPWORDS and (len(w) > 1 or w.isdigit())]
    words = words or all_words
    phrase = " ".join(words)
    compact = "".join(all_words)
    other = "ru" if lang == "en" else "en"
    results: list[tuple[float, int, RuleEntry]] = []
    for position, (ix, ox) in enumerate(zip(_indexes(lang), _indexes(other), strict=True)):
        if variant is not None and not ix.entry.applies_to(variant):
            continue
        score = max(_score(ix, words, phrase, compact), 0.9 * _score(ox, words, phrase, compact))
        if score > 0:
            score += _KIND_BONUS.get(ix.entry.kind, 0.0)
            results.append((-score, position, ix.entry))
    results.sort(key=lambda r: (r[0], r[1]))
    return [e for _, _, e in results]
