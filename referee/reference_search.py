"""Searching the rules reference, ranked for the match on the table.

A table searching the reference in a dispute wants the reading *in force* first: the
combination itself before the house rule that would change it, a house rule that is off
marked as off, another variant's rule after this variant's. So the search scores every entry
(rules, penalties, house rules, combinations, variants) for how well it matches the words, then
weighs that by the entry's standing in the open match (``Setting``).

Matching is forgiving because people type at a card table: case and accents are dropped
(ё = е), look-alike letters of the other alphabet are read as the word's own, Cyrillic is
compared through its Latin transliteration (cyrtranslit), so "bezik" finds «безик", Russian
endings and English plurals are tolerated and close misspellings match (rapidfuzz, or its
pure-Python double in ``referee.fuzzy`` where it has no build: the phone's browser). The other
language's texts count too, a little less, so "bezique" finds the bezique in Russian.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

import cyrtranslit  # type: ignore[import-untyped]

from referee import fuzzy, reference
from referee.reference import RuleEntry


class Standing(Enum):
    """What an entry is for the match on the table."""

    IN_FORCE = "in_force"  # applies as written (a house rule that is on, a combination played)
    OFF = "off"  # a house rule the table did not switch on; a combination a house rule removes
    REPLACED = "replaced"  # a default reading a house rule that is on replaces
    ELSEWHERE = "elsewhere"  # belongs to another variant


# How much of a match's relevance an entry keeps, by standing: what is in force comes first,
# what is off still shows (a dispute is often about it) but after.
_STANDING_WEIGHT = {
    Standing.IN_FORCE: 1.0,
    Standing.REPLACED: 0.7,
    Standing.OFF: 0.55,
    Standing.ELSEWHERE: 0.4,
}


@dataclass(frozen=True, slots=True)
class Setting:
    """The match the search ranks for: its variant and the house rules switched on."""

    variant: str = "two-hand"
    house_rules: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: the entry, its standing in the match and its score (best first)."""

    entry: RuleEntry
    standing: Standing
    score: float


# ------------------------------------------------------------------------------ words
_LATIN_LOOKALIKES = "eaocpxkytmbh"
_CYRILLIC_LOOKALIKES = "еаосрхкутмвн"
_TO_CYRILLIC = str.maketrans(_LATIN_LOOKALIKES, _CYRILLIC_LOOKALIKES)
_TO_LATIN = str.maketrans(_CYRILLIC_LOOKALIKES, _LATIN_LOOKALIKES)
_WORD = re.compile(r"[^\W_]+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]")


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
    """The words of a text, folded (case, accents, look-alike letters)."""
    return [_fold_word(w) for w in _WORD.findall(text)]


@cache
def _key(word: str) -> str:
    """A folded word in Latin letters: Cyrillic through its transliteration, so «безик» and
    "bezik" compare equal."""
    if any(_is_cyrillic(ch) for ch in word):
        word = cyrtranslit.to_latin(word, "ru").lower()
    return _NOT_ALNUM.sub("", word) or word


def keys(text: str) -> list[str]:
    """The words of a text as the search compares them."""
    return [_key(w) for w in normalize(text)]


_STOPWORDS_RAW = (
    "a an the what whats which who does do did is are was be how much many score scores scored "
    "worth for of in to i can you it when may with and or on get gets point points value mean "
    "means called name "
    "что сколько стоит стоят как какой какая какие ли за в во на и или а по с у к ко до при "
    "для если то это очков очки очко очка дает даёт приносит будет есть мне можно такое такой "
    "значит называется"
)
_STOPWORDS = frozenset(_key(_fold_word(w)) for w in _STOPWORDS_RAW.split())

# Field weights: a word found in the title counts most, in the running text least.
_WEIGHTS = {"id": 10.0, "title": 5.0, "keywords": 4.0, "points": 3.0, "summary": 2.0,
            "text": 1.5, "example": 0.5, "source": 0.3}
# On equal scores, the combination itself or the default rule comes before the house rule.
_KIND_BONUS = {"combination": 0.5, "rule": 0.4, "penalty": 0.3, "house": 0.2, "variant": 0.1}
_FUZZY_CUTOFF = 80.0  # rapidfuzz ratio (0–100) for a misspelling to count
_FUZZY_FACTOR = 0.7  # a misspelt word counts this much of an exact one

# (query, choices, cutoff, limit) -> (choice, ratio, index), best first: rapidfuzz's extract.
Extract = Callable[[str, Sequence[str], float, int], list[tuple[str, float, int]]]


def _pick_extract() -> Extract:
    """rapidfuzz's process.extract where it is installed (the server, the desktop), else the
    same in pure Python (Pyodide in a phone's browser has no rapidfuzz build)."""
    try:
        from rapidfuzz import fuzz, process
    except ImportError:
        return fuzzy.extract

    def extract(
        query: str, choices: Sequence[str], cutoff: float, limit: int
    ) -> list[tuple[str, float, int]]:
        found = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit)
        return [(str(w), float(score), int(i)) for w, score, i in found]

    return extract


_extract = _pick_extract()  # decided once, at import


def _stem_match(q: str, w: str) -> float:
    """0.8 for the same stem (Russian endings, English plurals), else 0."""
    shorter = min(len(q), len(w))
    if shorter < 4:  # "без" is not the stem of "безик"
        return 0.0
    common = 0
    for a, b in zip(q, w, strict=False):
        if a != b:
            break
        common += 1
    slack = 1 if shorter <= 5 else 2
    return 0.8 if common >= 3 and common >= shorter - slack else 0.0


# ------------------------------------------------------------------------------ index
@dataclass(frozen=True, slots=True)
class _Index:
    entry: RuleEntry
    fields: tuple[tuple[float, frozenset[str]], ...]
    phrases: tuple[str, ...]
    compact_id: str


def _index(e: RuleEntry) -> _Index:
    fields: dict[str, Iterable[str]] = {
        "id": keys(e.id),
        "title": keys(e.title),
        "keywords": [w for k in e.keywords for w in keys(k)],
        "points": [str(p) for _, p in e.points],
        "summary": keys(e.summary or ""),
        "text": keys(e.text),
        "example": keys(e.example or ""),
        "source": keys(e.source),
    }
    phrases = tuple(" ".join(keys(p)) for p in (e.title, *e.keywords))
    return _Index(
        entry=e,
        fields=tuple((_WEIGHTS[name], frozenset(words)) for name, words in fields.items()),
        phrases=phrases,
        compact_id="".join(keys(e.id)),
    )


@cache
def _indexes(lang: str) -> tuple[_Index, ...]:
    return tuple(_index(e) for e in reference.all_entries(lang))


@cache
def _vocabulary(lang: str) -> tuple[str, ...]:
    words: set[str] = set()
    for ix in _indexes(lang):
        for _, vocab in ix.fields:
            words |= vocab
    return tuple(sorted(words))


def _similar(q: str, lang: str) -> dict[str, float]:
    """Words of the reference that a query word stands for, with how well (1 = the same)."""
    out = {q: 1.0}
    if q.isdigit():
        return out
    vocabulary = _vocabulary(lang)
    for w in vocabulary:
        if w != q and not w.isdigit():
            m = _stem_match(q, w)
            if m:
                out[w] = m
    if len(q) >= 4:
        for w, ratio, _ in _extract(q, vocabulary, _FUZZY_CUTOFF, 20):
            if len(w) >= 4 and not w.isdigit():
                out[w] = max(out.get(w, 0.0), _FUZZY_FACTOR * ratio / 100.0)
    return out


def _score(ix: _Index, similar: list[dict[str, float]], phrase: str, compact: str) -> float:
    score = 0.0
    if compact == ix.compact_id:
        score += 100.0
    elif len(ix.compact_id) >= 5 and ix.compact_id in compact:
        score += 50.0
    matched = 0
    for alike in similar:
        best = 0.0
        for weight, vocabulary in ix.fields:
            if best >= weight:
                continue
            for w, m in alike.items():
                if w in vocabulary and weight * m > best:
                    best = weight * m
        if best:
            matched += 1
            score += best
    if not matched:
        return score
    if len(similar) > 1 and matched == len(similar):
        score += 3.0
    if phrase:
        if phrase == ix.phrases[0]:
            score += 10.0
        elif any(phrase == p for p in ix.phrases[1:]):
            score += 8.0
        elif any(phrase in p for p in ix.phrases):
            score += 5.0
    return score


# ------------------------------------------------------------------------------ standing
def _replaced_by_rules_on(setting: Setting) -> frozenset[str]:
    replaced: set[str] = set()
    for rid in setting.house_rules:
        try:
            replaced.update(reference.entry(rid).replaces)
        except KeyError:
            continue
    return frozenset(replaced)


@cache
def _melds_in_force(variant: str, house_rules: frozenset[str]) -> frozenset[str] | None:
    """The combinations the variant scores with these house rules (None: not a variant file)."""
    from referee.variants import load_variant, variant_ids

    if variant not in variant_ids():
        return None
    v = load_variant(variant, house_rules)
    return frozenset(c.id for c in v.combinations) | frozenset(s.id for s in v.showings)


def standing(e: RuleEntry, setting: Setting, replaced: frozenset[str] | None = None) -> Standing:
    """An entry's standing in a match: in force, off, replaced by a house rule, or another
    variant's."""
    if not e.applies_to(setting.variant):
        return Standing.ELSEWHERE
    if e.kind == "house":
        return Standing.IN_FORCE if e.id in setting.house_rules else Standing.OFF
    if e.kind == "combination" and e.meld is not None:
        melds = _melds_in_force(setting.variant, setting.house_rules)
        if melds is not None and e.meld not in melds:
            return Standing.OFF
    if replaced is None:
        replaced = _replaced_by_rules_on(setting)
    return Standing.REPLACED if e.id in replaced else Standing.IN_FORCE


def _query_words(query: str) -> list[str]:
    every = keys(query)
    words = [w for w in every if w not in _STOPWORDS and (len(w) > 1 or w.isdigit())]
    return words or every


def search(
    query: str,
    lang: str = "en",
    setting: Setting | None = None,
    *,
    only_variant: bool = False,
    floor: float = 0.0,
) -> list[Hit]:
    """Entries of every kind matching a free-text query, ranked for the match: relevance
    weighed by standing (in force first), then the data file's order.

    Without a setting, nothing is weighed (a plain relevance order). ``only_variant`` keeps
    only the entries that apply to the setting's variant; ``floor`` drops the long tail of
    hits scoring less than that share of the best one (a word met once in a long text).
    """
    lang = lang if lang in reference.LANGUAGES else "en"
    words = _query_words(query)
    if not words:
        return []
    phrase = " ".join(words)
    compact = "".join(keys(query))
    other = "ru" if lang == "en" else "en"
    similar = [_similar(w, lang) for w in words]
    similar_other = [_similar(w, other) for w in words]
    replaced = _replaced_by_rules_on(setting) if setting is not None else frozenset()
    scored: list[tuple[float, int, Hit]] = []
    for position, (ix, ox) in enumerate(zip(_indexes(lang), _indexes(other), strict=True)):
        e = ix.entry
        if only_variant and setting is not None and not e.applies_to(setting.variant):
            continue
        relevance = max(
            _score(ix, similar, phrase, compact), 0.9 * _score(ox, similar_other, phrase, compact)
        )
        if relevance <= 0:
            continue
        relevance += _KIND_BONUS.get(e.kind, 0.0)
        st = standing(e, setting, replaced) if setting is not None else Standing.IN_FORCE
        score = relevance * _STANDING_WEIGHT[st]
        scored.append((-score, position, Hit(e, st, score)))
    scored.sort(key=lambda r: (r[0], r[1]))
    hits = [hit for _, _, hit in scored]
    if hits and floor > 0:
        least = floor * hits[0].score
        hits = [h for h in hits if h.score >= least]
    return hits


def entries_for(lang: str, setting: Setting) -> list[tuple[RuleEntry, Standing]]:
    """Every entry that applies to the setting's variant with its standing, in the data
    file's order (the reference shown whole)."""
    replaced = _replaced_by_rules_on(setting)
    return [
        (e, standing(e, setting, replaced))
        for e in reference.all_entries(lang)
        if e.applies_to(setting.variant)
    ]


def standing_of(rule_id: str, setting: Setting) -> Standing | None:
    """The standing of one entry by id (None for an unknown id)."""
    try:
        e = reference.entry(rule_id)
    except KeyError:
        return None
    return standing(e, setting)


def melds_answering(
    query: str, lang: str, setting: Setting, *, share: float = 0.7, top: int = 3
) -> list[str]:
    """The combinations a query is about, to light up in the table of points: combination
    entries among the best ``top`` hits that score at least ``share`` of the best one ("four
    tricks" finds a house rule, not four aces)."""
    hits = search(query, lang, setting)[:top]
    if not hits:
        return []
    best = hits[0].score
    return [
        h.entry.meld
        for h in hits
        if h.entry.meld and h.score >= share * best and h.standing is not Standing.ELSEWHERE
    ]

