"""Close misspellings in pure Python: rapidfuzz's ``fuzz.ratio`` and the ``process.extract``
the reference search makes with it, for where rapidfuzz has no build (the app in a phone's
browser, on Pyodide). The scores are rapidfuzz's to the last bit and the order is its order
(best score first, then the choice's position), so the search ranks the same everywhere.

The ratio is the normalized Indel similarity ×100: ``100 * (1 - d / (len(a) + len(b)))``
with ``d`` the insertions and deletions turning one word into the other, ``len(a) + len(b)
- 2 * LCS``; two empty strings are alike (100), as rapidfuzz has them. The longest common
subsequence is counted bit-parallel (Allison–Dix, Hyyrö), one big-int step per letter.
"""

from __future__ import annotations

from collections.abc import Sequence


def _masks(word: str) -> dict[str, int]:
    """For each letter of a word, the bits of the positions it stands at."""
    masks: dict[str, int] = {}
    for i, ch in enumerate(word):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    return masks


def _lcs(masks: dict[str, int], length: int, other: str) -> int:
    """The longest common subsequence of the word ``masks`` describes and ``other``."""
    if not length:
        return 0
    full = (1 << length) - 1
    v = full
    get = masks.get
    for ch in other:
        u = v & get(ch, 0)
        v = ((v + u) | (v - u)) & full
    return length - v.bit_count()


def _score(lcs: int, lensum: int) -> float:
    """rapidfuzz's arithmetic, step by step, so the floats come out equal."""
    if not lensum:
        return 100.0
    return (1.0 - (lensum - 2 * lcs) / lensum) * 100


def ratio(a: str, b: str) -> float:
    """How alike two strings are, 0–100: rapidfuzz's ``fuzz.ratio``."""
    return _score(_lcs(_masks(a), len(a), b), len(a) + len(b))


def extract(
    query: str, choices: Sequence[str], cutoff: float, limit: int
) -> list[tuple[str, float, int]]:
    """The ``limit`` choices most like the query with a ratio of at least ``cutoff``, as
    ``(choice, ratio, index)``, best first and, on equal ratios, in the choices' order:
    rapidfuzz's ``process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff,
    limit=limit)``.

    A choice whose length alone keeps it under the cutoff (the ratio it would have if the
    shorter word were all in the longer) is not compared. A ratio equal to the cutoff is kept,
    as rapidfuzz keeps every ratio of exactly 80 (the search's cutoff); at some other cutoffs
    its C++ drops an equal ratio to float rounding (85.71… for 1/7), which this does not copy."""
    masks = _masks(query)
    n = len(query)
    within: dict[int, bool] = {}  # by a choice's length: can it reach the cutoff at all
    found: list[tuple[str, float, int]] = []
    for index, choice in enumerate(choices):
        m = len(choice)
        ok = within.get(m)
        if ok is None:
            ok = within[m] = _score(min(n, m), n + m) >= cutoff
        if not ok:
            continue
        score = _score(_lcs(masks, n, choice), n + m)
        if score >= cutoff:
            found.append((choice, score, index))
    found.sort(key=lambda hit: (-hit[1], hit[2]))
    return found[:limit]
