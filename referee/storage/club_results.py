"""The club's view of the stored matches (issue #24): every finished match replayed into a
:class:`~referee.club.results.ClubResult`, then the ratings (``referee.club.ratings``) and the
records (``referee.club.records``) over them.

The club knows a player by their id (``player.id`` as text), never by a name: a renamed
player keeps their rating and history, and a merge moves a duplicate's matches under the id
that stays. Names are for showing: ``Club.name`` gives a player's current one.

**Finish order.** Matches count in the order of ``match.finished_at``, then match id.
``finished_at`` is written when the replay first names a winner and kept while later changes
leave the match finished (a correction of an earlier deal, an undo and redo of something that
changes nothing), so a corrected match keeps its place and changes only the ratings after it.
``activity`` and ``updated_at`` move with every change, corrections included, so they would
send a corrected match to the end. A backup's matches keep the finish times the backup gives
them; a single imported record has none, so it finishes when it is imported.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType

from sqlalchemy import Connection, select

from referee.club import ratings as rt
from referee.club import records as rc
from referee.club.errors import ResultError
from referee.club.results import ClubResult, result_of
from referee.match import Match
from referee.storage import matchlog as ml
from referee.storage import replay as rp
from referee.storage.errors import StorageError, StorageInputError

T_PLAYER = ml.T_PLAYER
T_MATCH = ml.T_MATCH
T_SEAT = ml.T_SEAT


@dataclass(frozen=True, slots=True)
class Club:
    """What the club's screens and commands show, from one read of the store."""

    results: tuple[ClubResult, ...]  # in the order they count; players are club ids
    ratings: rt.Ratings
    records: rc.ClubRecords  # players named by their current names
    names: Mapping[str, str]  # club id -> current name
    variants: Mapping[str, str]  # match id -> variant
    skipped: tuple[str, ...] = ()  # "match 12: why" for a finished match that cannot count

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def player(self, name: str) -> str | None:
        """The club id of the player called ``name`` now (None: no such player rated)."""
        for pid, n in self.names.items():
            if n == name:
                return pid
        return None

    def result(self, match_id: str) -> ClubResult:
        for r in self.results:
            if r.match_id == match_id:
                return r
        raise KeyError(match_id)


def finished_matches(conn: Connection) -> list[tuple[int, datetime]]:
    """Every finished match (id, finish time) in the order the club counts them."""
    rows = conn.execute(
        select(T_MATCH.c.id, T_MATCH.c.finished_at)
        .where(T_MATCH.c.finished_at.is_not(None))
        .order_by(T_MATCH.c.finished_at, T_MATCH.c.id)
    ).all()
    return [(int(i), f) for i, f in rows]


def _seats(conn: Connection) -> dict[int, dict[str, str]]:
    """Per match: the name each seat was played under -> the seated player's club id."""
    out: dict[int, dict[str, str]] = {}
    for mid, name, pid in conn.execute(
        select(T_SEAT.c.match_id, ml.seat_name(), T_SEAT.c.player_id).join(
            T_PLAYER, T_PLAYER.c.id == T_SEAT.c.player_id
        )
    ):
        out.setdefault(int(mid), {})[str(name)] = str(int(pid))
    return out


def club(store: ml.Holder, limit: int = 10) -> Club:
    """Replay every finished match and rate them in finish order; ``limit`` records of each
    kind. A finished match the engine can no longer replay (or that its replay does not
    finish) is left out and named in ``skipped`` instead of stopping the whole club."""
    results: list[ClubResult] = []
    skipped: list[str] = []
    variants: dict[str, str] = {}
    seat_ids: dict[str, dict[str, str]] = {}  # match id -> seat name -> club id
    with store.gate.read() as conn:
        order = finished_matches(conn)
        seats = _seats(conn)
        names = {
            str(int(i)): str(n) for i, n in conn.execute(select(T_PLAYER.c.id, T_PLAYER.c.name))
        }

        def replayed() -> Iterator[tuple[str, datetime, Match]]:
            for mid, finished_at in order:
                key = str(mid)
                try:
                    info = ml.match_info(conn, mid)
                    steps, _, _, _ = ml.steps(conn, mid)
                    m = rp.replay(info.header, steps).match
                    ids = seats.get(mid, {})
                    res = result_of(m, key, finished_at, ids)
                except (StorageInputError, StorageError, ResultError) as exc:
                    skipped.append(f"match {mid}: {exc}")
                    continue
                results.append(res)
                variants[key] = info.variant
                seat_ids[key] = ids
                yield key, finished_at, m

        records = rc.club_records(replayed(), limit)
    ratings = rt.compute(results)

    def now(match_id: str, seat_name: str) -> str:
        pid = seat_ids.get(match_id, {}).get(seat_name)
        return names.get(pid, seat_name) if pid is not None else seat_name

    records = rc.ClubRecords(
        tuple(
            replace(
                d,
                side=now(d.match_id, d.side),
                players=tuple(now(d.match_id, p) for p in d.players),
            )
            for d in records.highest_deals
        ),
        tuple(replace(d, player=now(d.match_id, d.player)) for d in records.most_double_beziques),
    )
    return Club(
        tuple(rt.ordered(results)),
        ratings,
        records,
        MappingProxyType(names),
        MappingProxyType(variants),
        tuple(skipped),
    )
