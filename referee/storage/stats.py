"""Statistics for the app, answered in SQL from the replay-derived caches (deal_score,
meld_score, match_player.won), so they stay fast with thousands of matches.

In four-hand a deal's score is the team's, so both partners are credited with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, Integer, case, cast, desc, func, select

from referee.storage.tables import TABLES

_T = TABLES
T_PLAYER = _T["player"]
T_SEAT = _T["match_player"]
T_DEAL_SCORE = _T["deal_score"]
T_MELD = _T["meld_score"]


@dataclass(frozen=True, slots=True)
class MeldStat:
    """One kind of combination a player declared: how often and its best score."""

    meld: str
    count: int
    best_points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    matches_played: int
    matches_won: int
    deals_played: int
    average_points_per_deal: float | None
    biggest_deal: int | None
    best_melds: tuple[MeldStat, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class DealRecordHolder:
    """A deal among the biggest ever scored."""

    player: str
    match_id: int
    deal_id: int
    points: int


def player_stats(conn: Connection, best: int = 3) -> list[PlayerStats]:
    """Every player, by name; ``best`` combinations each, highest scoring first."""
    played = conn.execute(
        select(
            T_SEAT.c.player_id,
            func.count(),
            func.sum(case((T_SEAT.c.won, 1), else_=0)),
        ).group_by(T_SEAT.c.player_id)
    ).all()
    deals = {
        int(pid): (int(n), float(avg) if avg is not None else None, mx)
        for pid, n, avg, mx in conn.execute(
            select(
                T_DEAL_SCORE.c.player_id,
                func.count(),
                func.avg(cast(T_DEAL_SCORE.c.points, Integer)),
                func.max(T_DEAL_SCORE.c.points),
            ).group_by(T_DEAL_SCORE.c.player_id)
        )
    }
    melds: dict[int, list[MeldStat]] = {}
    for pid, meld, n, top in conn.execute(
        select(T_MELD.c.player_id, T_MELD.c.meld, func.count(), func.max(T_MELD.c.points)).group_by(
            T_MELD.c.player_id, T_MELD.c.meld
        )
    ):
        melds.setdefault(int(pid), []).append(MeldStat(str(meld), int(n), int(top)))
    names = {int(i): str(n) for i, n in conn.execute(select(T_PLAYER.c.id, T_PLAYER.c.name))}
    out: list[PlayerStats] = []
    for pid, n_played, n_won in played:
        pid = int(pid)
        n_deals, avg, biggest = deals.get(pid, (0, None, None))
        ranked = sorted(melds.get(pid, []), key=lambda s: (-s.best_points, -s.count, s.meld))
        out.append(
            PlayerStats(
                names[pid],
                int(n_played),
                int(n_won or 0),
                n_deals,
                avg,
                None if biggest is None else int(biggest),
                tuple(ranked[:best]),
            )
        )
    out.sort(key=lambda s: s.name)
    return out


def biggest_deals(conn: Connection, limit: int = 10) -> list[DealRecordHolder]:
    """The highest deal scores ever, with who scored them."""
    rows = conn.execute(
        select(
            T_PLAYER.c.name,
            T_DEAL_SCORE.c.match_id,
            T_DEAL_SCORE.c.deal_id,
            T_DEAL_SCORE.c.points,
        )
        .join(T_PLAYER, T_PLAYER.c.id == T_DEAL_SCORE.c.player_id)
        # Both descending: SQLite and PostgreSQL then walk ix_deal_score_points backwards and
        # stop after `limit` rows (ties: the later deal first).
        .order_by(desc(T_DEAL_SCORE.c.points), desc(T_DEAL_SCORE.c.deal_id))
        .limit(limit)
    ).all()
    return [DealRecordHolder(str(n), int(m), int(d), int(p)) for n, m, d, p in rows]


def best_combinations(conn: Connection, limit: int = 10) -> list[tuple[str, MeldStat]]:
    """The highest-scoring kinds of combination declared, per player (player, stat)."""
    rows = conn.execute(
        select(T_PLAYER.c.name, T_MELD.c.meld, func.count(), func.max(T_MELD.c.points))
        .join(T_PLAYER, T_PLAYER.c.id == T_MELD.c.player_id)
        .group_by(T_PLAYER.c.name, T_MELD.c.meld)
        .order_by(desc(func.max(T_MELD.c.points)), desc(func.count()), T_PLAYER.c.name)
        .limit(limit)
    ).all()
    return [(str(n), MeldStat(str(m), int(c), int(p))) for n, m, c, p in rows]
