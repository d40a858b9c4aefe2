"""The club's players across matches: list them with their match counts, rename one, merge a
duplicate into the one who stays.

A player is one ``player`` row; their matches, statistics and (club) ratings follow its id, so
a rename changes one row and loses nothing. A match's log, though, names its players as they
sat down (``{"player": "Anna", …}``) and is never rewritten: before a name changes, every seat
that was played under it keeps that name in ``match_player.name`` (r0007), and the match
replays and exports under the names its log speaks. The statistics, the player list and the
club's ratings show the current name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, and_, case, delete, func, select, update

from referee.storage import matchlog as ml
from referee.storage.errors import StorageInputError

T_PLAYER = ml.T_PLAYER
T_MATCH = ml.T_MATCH
T_SEAT = ml.T_SEAT
T_DEAL_SCORE = ml.T_DEAL_SCORE
T_MELD = ml.T_MELD

# How many shared matches a refused merge names before "and N more".
NAMED_MATCHES = 5


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as the club lists them: matches played (finished or not) and finished, and
    the other names their matches were played under (after renames and merges)."""

    id: int
    name: str
    matches: int
    finished: int
    created_at: datetime
    played_as: tuple[str, ...] = ()


def roster(conn: Connection) -> list[PlayerRow]:
    """Every player by name, with their match counts (a player with no match left is listed
    with 0)."""
    counts = {
        int(pid): (int(n), int(done or 0))
        for pid, n, done in conn.execute(
            select(
                T_SEAT.c.player_id,
                func.count(),
                func.sum(case((T_MATCH.c.finished_at.is_not(None), 1), else_=0)),
            )
            .join(T_MATCH, T_MATCH.c.id == T_SEAT.c.match_id)
            .group_by(T_SEAT.c.player_id)
        )
    }
    aliases: dict[int, list[str]] = {}
    for pid, name in conn.execute(
        select(T_SEAT.c.player_id, T_SEAT.c.name)
        .where(T_SEAT.c.name.is_not(None))
        .distinct()
        .order_by(T_SEAT.c.player_id, T_SEAT.c.name)
    ):
        aliases.setdefault(int(pid), []).append(str(name))
    out = []
    for pid, name, created in conn.execute(
        select(T_PLAYER.c.id, T_PLAYER.c.name, T_PLAYER.c.created_at).order_by(T_PLAYER.c.name)
    ):
        n, done = counts.get(int(pid), (0, 0))
        out.append(
            PlayerRow(int(pid), str(name), n, done, created, tuple(aliases.get(int(pid), ())))
        )
    return out


def player_id(conn: Connection, name: str, where: str) -> int:
    """The id of the player called ``name``; StorageInputError (naming ``where``) if none."""
    row = conn.execute(select(T_PLAYER.c.id).where(T_PLAYER.c.name == name)).first()
    if row is None:
        raise StorageInputError(where, f'no player is called "{name}" (see `bezique club players`)')
    return int(row[0])


def _clean(name: str, where: str) -> str:
    text = str(name).strip()
    if not text:
        raise StorageInputError(where, "a player's name cannot be empty")
    return text


def _keep_seat_names(conn: Connection, pid: int, name: str) -> None:
    """Seats played under the player's current name keep it before the name or the player
    changes: their logs speak that name."""
    conn.execute(
        update(T_SEAT).where(T_SEAT.c.player_id == pid, T_SEAT.c.name.is_(None)).values(name=name)
    )


def _drop_same_names(conn: Connection, pid: int, name: str) -> None:
    """A seat name equal to the player's current one says nothing: back to NULL."""
    conn.execute(
        update(T_SEAT).where(T_SEAT.c.player_id == pid, T_SEAT.c.name == name).values(name=None)
    )


def rename(conn: Connection, old: str, new: str) -> int:
    """Call player ``old`` ``new`` from now on; returns the player's id. The new name must be
    free (two people who are one: merge them). Their matches keep the names they were played
    under; statistics and ratings follow the id."""
    old = str(old)
    new = _clean(new, "rename")
    pid = player_id(conn, old, "rename")
    if new == old:
        raise StorageInputError("rename", f'the player is already called "{new}"')
    taken = conn.execute(select(T_PLAYER.c.id).where(T_PLAYER.c.name == new)).first()
    if taken is not None:
        raise StorageInputError(
            "rename",
            f'"{new}" is already another player\'s name; if "{old}" and "{new}" are the same'
            f' person, merge them (`bezique club merge "{old}" "{new}"`)',
        )
    _keep_seat_names(conn, pid, old)
    conn.execute(update(T_PLAYER).where(T_PLAYER.c.id == pid).values(name=new))
    _drop_same_names(conn, pid, new)
    return pid


def shared_matches(conn: Connection, a: int, b: int) -> list[int]:
    """The matches where players ``a`` and ``b`` both sat, oldest first."""
    s2 = T_SEAT.alias("s2")
    return [
        int(v)
        for v in conn.execute(
            select(T_SEAT.c.match_id)
            .join(s2, and_(s2.c.match_id == T_SEAT.c.match_id, s2.c.player_id == b))
            .where(T_SEAT.c.player_id == a)
            .distinct()
            .order_by(T_SEAT.c.match_id)
        ).scalars()
    ]


def merge(conn: Connection, source: str, into: str) -> tuple[int, int]:
    """Player ``source`` is ``into`` under another name: every match of ``source`` becomes
    ``into``'s (seats, statistics caches) and ``source``'s row goes. Refused when both sat in
    one match (one person cannot be two seats); the matches are named. Returns (the id kept,
    the number of matches moved)."""
    if str(source) == str(into):
        raise StorageInputError("merge", f'"{source}" cannot be merged into itself')
    src = player_id(conn, str(source), "merge")
    dst = player_id(conn, str(into), "merge")
    both = shared_matches(conn, src, dst)
    if both:
        named = ", ".join(str(m) for m in both[:NAMED_MATCHES])
        more = f" and {len(both) - NAMED_MATCHES} more" if len(both) > NAMED_MATCHES else ""
        word = "match" if len(both) == 1 else "matches"
        raise StorageInputError(
            "merge",
            f'"{source}" and "{into}" both sat in {word} {named}{more}: they are two people,'
            " not one; nothing was merged",
        )
    _keep_seat_names(conn, src, str(source))
    moved = conn.execute(
        update(T_SEAT).where(T_SEAT.c.player_id == src).values(player_id=dst)
    ).rowcount
    conn.execute(update(T_DEAL_SCORE).where(T_DEAL_SCORE.c.player_id == src).values(player_id=dst))
    conn.execute(update(T_MELD).where(T_MELD.c.player_id == src).values(player_id=dst))
    _drop_same_names(conn, dst, str(into))
    conn.execute(delete(T_PLAYER).where(T_PLAYER.c.id == src))
    return dst, int(moved or 0)
