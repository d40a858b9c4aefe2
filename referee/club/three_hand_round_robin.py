"""A round robin of three-hand tables: every pair of entrants sits at a table exactly once and
everyone plays every round, (N − 1)/2 rounds of N/3 tables and no bye. Such a schedule is a
Kirkman triple system, which exists exactly when N ≡ 3 (mod 6): 3, 9, 15, 21, 27, 33…
(Ray-Chaudhuri and Wilson, 1971). The circle method of ``round_robin`` cannot make it.

The schedule is computed, not stored. Rather than search whole schedules round by round
(where a dead end shows only in the last rounds), the search looks for one round, the *base
round*, of a schedule that a group of translations carries onto itself: the other rounds are
the base round's translates, and each pair's orbit under the translations (a *difference*)
must be met by exactly one table of the base round. Three such families, by N mod 24:

- **N ≡ 3, 9 (mod 24)**, 1-rotational over Z_{N−1}: the points 0 … N−2 and ∞; the base round
  holds {∞, 0, h} (h = (N−1)/2) and, with each table B, the table B + h; the round r is the base
  round plus r, for r < h. Each difference ±1 … ±(h−1) is met once.
- **N ≡ 15 (mod 24)**, two copies of Z_q (q = (N−1)/2, odd) and ∞: the base round holds
  {∞, (0, 0), (0, 1)}, q rounds. Each difference within a copy and between the copies is met
  once.
- **N ≡ 21 (mod 24)**, three copies of Z_q (q = N/3, t = (q−1)/2): q rounds from a base round
  that meets every difference within a copy and t + 1 between each two copies, and t *short*
  rounds, each {(x, 0), (x + a, 1), (x + b, 2)} for every x, meeting the t differences left
  between each two copies (a, b and b − a).

Which family fits which N was measured, not taken from a theorem: the 1-rotational one has
no schedule for 15 or 21 (the search exhausts it), the three copies none for 15, the two
copies need q odd. A family that finds nothing hands on to the next that applies; a schedule
found is checked whole (every round seats everyone once, every pair meets once) before use.

The search seats the first point not yet seated with two later ones, in order, and
backtracks. It counts its steps (a table tried, over every family) and gives up after
``STEP_BOUND`` with ``ThreeHandSearchError``. Measured on the build machine: 3 to 27 players
in 0.1–6 ms (0 to 246 steps), 33 in 30–50 ms (11,206 steps), and every N up to 57 in under a
second (39, 45 and 57 in 0.7–0.9 s, 175,000–265,000 steps); 63, 69, 75 and 81 reach the bound
and give up after 1.5–5 s. The result for each N (found or not) is
kept, so the director's screen pays once.

The points are the entrants in the order given (the seeding); each round's tables are listed
by their best-seeded player and seated in seeding order, so the same entrants always give the
same schedule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

from referee.club.errors import RoundError, ThreeHandCountError, ThreeHandSearchError
from referee.club.rounds import Round

Table = tuple[int, int, int]
Design = tuple[tuple[Table, ...], ...]

STEP_BOUND = 1_000_000
"""The most tables the search tries for one N, over every family, before it gives up."""


def allows(count: int) -> bool:
    """Whether ``count`` entrants can play a round robin of three-hand tables."""
    return count % 6 == 3


def counts_allowed(up_to: int) -> tuple[int, ...]:
    """The numbers of entrants a round robin of three-hand tables fits, up to ``up_to``."""
    return tuple(range(3, up_to + 1, 6))


def three_hand_round_robin(entrants: Sequence[str]) -> tuple[Round, ...]:
    """Every round of the round robin of three-hand tables, in order; the entrants' order is
    the seeding. Raises ``ThreeHandCountError`` unless N ≡ 3 (mod 6), and
    ``ThreeHandSearchError`` when the search reaches its bound."""
    if len(set(entrants)) != len(entrants):
        raise RoundError("each entrant may be named once")
    design = kirkman_design(len(entrants))
    rounds = []
    for number, tables in enumerate(design, start=1):
        seated = sorted(tuple(sorted(t)) for t in tables)
        rounds.append(Round(number, tuple(tuple(entrants[i] for i in t) for t in seated)))
    return tuple(rounds)


def kirkman_design(count: int) -> Design:
    """The schedule for ``count`` entrants as rounds of tables of entrant indexes."""
    if not allows(count):
        raise ThreeHandCountError(count)
    design = _search(count)
    if design is None:
        raise ThreeHandSearchError(count, STEP_BOUND)
    return design


@cache
def _search(count: int) -> Design | None:
    steps = _Steps(STEP_BOUND)
    families = {3: _ROTATIONAL, 9: _ROTATIONAL, 15: _TWO_COPIES, 21: _THREE_COPIES}
    first = families[count % 24]
    for family in (first, *(f for f in _FAMILIES if f is not first)):
        if not family.applies(count):
            continue
        try:
            design = family.build(count, steps)
        except _OutOfSteps:
            return None
        if design is not None:
            _check(count, design)
            return design
    return None


class _OutOfSteps(Exception):
    pass


class _Steps:
    def __init__(self, bound: int) -> None:
        self.left = bound

    def take(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfSteps


class _Family:
    def __init__(
        self,
        applies: Callable[[int], bool],
        build: Callable[[int, _Steps], Design | None],
    ) -> None:
        self.applies = applies
        self.build = build


def _base_round(
    points: int,
    seated: Sequence[int],
    orbit: Sequence[Sequence[int]],
    steps: _Steps,
    *,
    partner: Callable[[int], int] | None = None,
    kind: Sequence[int] | None = None,
    quota: Sequence[int] | None = None,
    met: Sequence[int] = (),
    finish: Callable[[set[int]], object | None] = lambda used: True,
) -> tuple[list[Table], object] | None:
    """Tables partitioning the points 0 … ``points``−1 not ``seated`` already, no two pairs of
    them in one ``orbit`` (nor in ``met``), at most ``quota[k]`` pairs of each ``kind`` of
    orbit; with each table its ``partner``'s image, when given. ``finish`` is asked of each
    complete base round (None: look further). Returns the tables and what ``finish`` said."""
    free = [True] * points
    for p in seated:
        free[p] = False
    used = set(met)
    counted = [0] * (len(quota) if quota is not None else 0)
    tables: list[Table] = []

    def fits(keys: tuple[int, int, int]) -> bool:
        if len(set(keys)) < 3 or any(k in used for k in keys):
            return False
        if kind is None or quota is None:
            return True
        for k in keys:
            counted[kind[k]] += 1
        ok = all(counted[kind[k]] <= quota[kind[k]] for k in keys)
        for k in keys:
            counted[kind[k]] -= 1
        return ok

    def seat(a: int) -> object | None:
        candidates = [p for p in range(a + 1, points) if free[p]]
        if partner is not None:
            candidates.remove(partner(a))
        for i, b in enumerate(candidates):
            if orbit[a][b] in used:
                continue
            for c in candidates[i + 1 :]:
                steps.take()
                keys = (orbit[a][b], orbit[a][c], orbit[b][c])
                if not fits(keys):
                    continue
                new: list[Table] = [(a, b, c)]
                if partner is not None:
                    if partner(b) == c:
                        continue
                    new.append((partner(a), partner(b), partner(c)))
                found = place(new, keys)
                if found is not None:
                    return found
        return None

    def place(new: list[Table], keys: tuple[int, int, int]) -> object | None:
        used.update(keys)
        if kind is not None:
            for k in keys:
                counted[kind[k]] += 1
        for t in new:
            for p in t:
                free[p] = False
        tables.extend(new)
        first = next((p for p in range(points) if free[p]), None)
        found = finish(used) if first is None else seat(first)
        if found is None:
            del tables[-len(new) :]
            for t in new:
                for p in t:
                    free[p] = True
            if kind is not None:
                for k in keys:
                    counted[kind[k]] -= 1
            used.difference_update(keys)
        return found

    first = next((p for p in range(points) if free[p]), None)
    found = finish(used) if first is None else seat(first)
    return None if found is None else (list(tables), found)


def _translate(
    tables: Sequence[Table], r: int, q: int, infinity: int | None = None
) -> tuple[Table, ...]:
    """The tables with each point i·q + x moved to i·q + (x + r) mod q; ∞ stays."""

    def moved(p: int) -> int:
        return p if p == infinity else p // q * q + (p + r) % q

    return tuple((moved(a), moved(b), moved(c)) for a, b, c in tables)


def _rotational(count: int, steps: _Steps) -> Design | None:
    """Z_{N−1} and ∞ (the point N−1), the base round carried onto itself by + h."""
    m = count - 1
    h = m // 2
    infinity = m
    orbit = [[min((b - a) % m, (a - b) % m) for b in range(m)] for a in range(m)]
    found = _base_round(
        m, (0, h), orbit, steps, partner=lambda p: (p + h) % m, met=(h,)
    )  # {∞, 0, h} meets ∞ with everyone and the difference h
    if found is None:
        return None
    base = [(infinity, 0, h), *found[0]]
    return tuple(_translate(base, r, m, infinity) for r in range(h))


def _two_copies(count: int, steps: _Steps) -> Design | None:
    """Z_q × {0, 1} (the point i·q + x) and ∞ (the point 2q), q odd."""
    q = (count - 1) // 2
    infinity = 2 * q

    def orbit_of(a: int, b: int) -> int:
        (i, x), (j, y) = divmod(a, q), divmod(b, q)
        if i == j:
            d = (y - x) % q
            return i * q + min(d, q - d)
        return 2 * q + ((y - x) % q if i < j else (x - y) % q)

    orbit = [[orbit_of(a, b) for b in range(2 * q)] for a in range(2 * q)]
    found = _base_round(2 * q, (0, q), orbit, steps, met=(orbit[0][q],))
    if found is None:
        return None
    base = [(infinity, 0, q), *found[0]]
    return tuple(_translate(base, r, q, infinity) for r in range(q))


def _three_copies(count: int, steps: _Steps) -> Design | None:
    """Z_q × {0, 1, 2} (the point i·q + x): q rounds from a base round, t short rounds."""
    q = count // 3
    t = (q - 1) // 2
    copies = ((0, 1), (0, 2), (1, 2))

    def orbit_of(a: int, b: int) -> int:
        (i, x), (j, y) = divmod(a, q), divmod(b, q)
        if i == j:
            d = (y - x) % q
            return i * q + min(d, q - d)  # kind i
        if i > j:
            i, j, x, y = j, i, y, x
        return 3 * q + copies.index((i, j)) * q + (y - x) % q  # kind 3 + the two copies

    orbit = [[orbit_of(a, b) for b in range(3 * q)] for a in range(3 * q)]
    kind = [k // q for k in range(6 * q)]
    quota = [q, q, q, t + 1, t + 1, t + 1]

    def short_rounds(met: set[int]) -> list[tuple[int, int]] | None:
        left = [[d for d in range(q) if 3 * q + c * q + d not in met] for c in range(3)]
        rest12 = set(left[2])
        taken02: set[int] = set()
        taken12: set[int] = set()
        out: list[tuple[int, int]] = []

        def pick(i: int) -> bool:
            if i == len(left[0]):
                return True
            a = left[0][i]
            for b in left[1]:
                steps.take()
                d = (b - a) % q
                if b in taken02 or d not in rest12 or d in taken12:
                    continue
                taken02.add(b)
                taken12.add(d)
                out.append((a, b))
                if pick(i + 1):
                    return True
                out.pop()
                taken02.discard(b)
                taken12.discard(d)
            return False

        return out if pick(0) else None

    found = _base_round(3 * q, (), orbit, steps, kind=kind, quota=quota, finish=short_rounds)
    if found is None:
        return None
    base, shorts = found
    assert isinstance(shorts, list)
    rounds = [_translate(base, r, q) for r in range(q)]
    for a, b in shorts:
        rounds.append(tuple((x, q + (x + a) % q, 2 * q + (x + b) % q) for x in range(q)))
    return tuple(rounds)


_ROTATIONAL = _Family(lambda n: n >= 3, _rotational)
_TWO_COPIES = _Family(lambda n: n >= 3 and (n - 1) // 2 % 2 == 1, _two_copies)
_THREE_COPIES = _Family(lambda n: n >= 3, _three_copies)
_FAMILIES = (_ROTATIONAL, _TWO_COPIES, _THREE_COPIES)


def _check(count: int, design: Design) -> None:
    """Every round seats everyone once, every pair meets once: a wrong schedule is a bug here,
    never a director's to find at the tables. Raised, not asserted, so that it also runs under
    ``python -O``."""
    met: set[tuple[int, int]] = set()
    if len(design) != (count - 1) // 2:
        raise AssertionError(f"{count} players: {len(design)} rounds")
    for number, tables in enumerate(design, start=1):
        if sorted(p for t in tables for p in t) != list(range(count)):
            raise AssertionError(f"{count} players: round {number} does not seat each once")
        for t in tables:
            for a, b in combinations(sorted(t), 2):
                if (a, b) in met:
                    raise AssertionError(f"{count} players: {a} and {b} meet twice")
                met.add((a, b))
