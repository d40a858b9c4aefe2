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

**Cost.** Every finished match is replayed by the engine once (the verdict and the records
come from the replay, as the club's functions want a ``Match``); the logs, deals and seats of
all of them are read in a few queries, not a few per match. A store keeps what each replay
gave (the result and the records, in the names the log speaks) while the match's log and
finish time stay as they were, so the club server's next leaderboard replays only the matches
changed since; renames and merges need no replay (names and ids are applied afresh each time).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection, func, select

from referee.club import ratings as rt
from referee.club import records as rc
from referee.club.errors import ResultError
from referee.club.results import ClubResult, Side, result_of
from referee.storage import matchlog as ml
from referee.storage import replay as rp
from referee.storage.errors import StorageError, StorageInputError

T_PLAYER = ml.T_PLAYER
T_MATCH = ml.T_MATCH
T_SEAT = ml.T_SEAT
T_LOG = ml.T_LOG
T_DEAL = ml.T_DEAL

# Matches whose logs are read in one query (an IN list well under every backend's limit).
CHUNK = 500


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
        """The club id of the player called ``name`` now (None: no such player)."""
        for pid, n in self.names.items():
            if n == name:
                return pid
        return None

    def result(self, match_id: str) -> ClubResult:
        for r in self.results:
            if r.match_id == match_id:
                return r
        raise KeyError(match_id)


@dataclass(frozen=True, slots=True)
class Counted:
    """What one finished match's replay gave the club, in the names its log speaks; valid
    while ``key`` (its start, last log entry and finish time) is unchanged."""

    key: tuple[datetime, int, datetime]
    result: ClubResult | None  # None: not counted, ``why``
    variant: str = ""
    deals: tuple[rc.DealRecord, ...] = ()
    doubles: tuple[rc.DoubleBeziqueRecord, ...] = ()
    why: str = ""


Memo = MutableMapping[int, Counted]


def _replay(
    mid: int,
    key: tuple[datetime, int, datetime],
    info: ml.MatchInfo,
    rows: Sequence[Any],
    deals: Mapping[int, Any],
) -> Counted:
    finished_at = key[2]
    try:
        steps, _, _, _ = ml.steps_of(mid, rows, deals)
        m = rp.replay(info.header, steps).match
        result = result_of(m, str(mid), finished_at)
        got_deals, got_doubles = rc.match_records(str(mid), finished_at, m)
    except (StorageInputError, StorageError, ResultError) as exc:
        return Counted(key, None, why=f"match {mid}: {exc}")
    return Counted(key, result, info.variant, tuple(got_deals), tuple(got_doubles))


def _logs(
    conn: Connection, ids: Sequence[int]
) -> tuple[dict[int, list[Any]], dict[int, dict[int, Any]]]:
    """The log rows and deal rows of the matches ``ids``, a chunk of matches per query."""
    logs: dict[int, list[Any]] = {}
    deals: dict[int, dict[int, Any]] = {}
    for i in range(0, len(ids), CHUNK):
        chunk = list(ids[i : i + CHUNK])
        for r in conn.execute(
            select(
                T_LOG.c.match_id,
                T_LOG.c.seq,
                T_LOG.c.kind,
                T_LOG.c.deal_id,
                T_LOG.c.target_seq,
                T_LOG.c.payload,
            )
            .where(T_LOG.c.match_id.in_(chunk))
            .order_by(T_LOG.c.match_id, T_LOG.c.seq)
        ):
            logs.setdefault(int(r.match_id), []).append(r)
        for d in conn.execute(
            select(T_DEAL.c.match_id, T_DEAL.c.id, T_DEAL.c.dealer, T_DEAL.c.turn_up).where(
                T_DEAL.c.match_id.in_(chunk)
            )
        ):
            deals.setdefault(int(d.match_id), {})[int(d.id)] = d
    return logs, deals


def club(store: ml.Holder, limit: int = 10, memo: Memo | None = None) -> Club:
    """Every finished match replayed and rated in finish order; ``limit`` records of each
    kind. A finished match the engine can no longer replay (or whose replay does not finish)
    is left out and named in ``skipped`` instead of stopping the whole club. ``memo`` keeps
    the replays between calls (the store passes its own)."""
    memo = {} if memo is None else memo
    with store.gate.read() as conn:
        rows = conn.execute(
            select(T_MATCH)
            .where(T_MATCH.c.finished_at.is_not(None))
            .order_by(T_MATCH.c.finished_at, T_MATCH.c.id)
        ).all()
        seat_rows = conn.execute(
            select(T_SEAT.c.match_id, ml.seat_name(), T_SEAT.c.player_id)
            .join(T_PLAYER, T_PLAYER.c.id == T_SEAT.c.player_id)
            .join(T_MATCH, T_MATCH.c.id == T_SEAT.c.match_id)
            .where(T_MATCH.c.finished_at.is_not(None))
            .order_by(T_SEAT.c.match_id, T_SEAT.c.seat)
        ).all()
        last = {
            int(m): int(s)
            for m, s in conn.execute(
                select(T_LOG.c.match_id, func.max(T_LOG.c.seq))
                .join(T_MATCH, T_MATCH.c.id == T_LOG.c.match_id)
                .where(T_MATCH.c.finished_at.is_not(None))
                .group_by(T_LOG.c.match_id)
            )
        }
        names = {
            str(int(i)): str(n) for i, n in conn.execute(select(T_PLAYER.c.id, T_PLAYER.c.name))
        }
        seated: dict[int, list[str]] = {}
        ids: dict[int, dict[str, str]] = {}  # match -> seat name -> club id
        for mid, name, pid in seat_rows:
            seated.setdefault(int(mid), []).append(str(name))
            ids.setdefault(int(mid), {})[str(name)] = str(int(pid))
        keys = {int(r.id): (r.created_at, last.get(int(r.id), 0), r.finished_at) for r in rows}
        stale = [mid for mid, key in keys.items() if mid not in memo or memo[mid].key != key]
        logs, deals = _logs(conn, stale)
    for r in rows:
        mid = int(r.id)
        if mid in stale:
            info = ml.info_of(r, tuple(seated.get(mid, ())))
            memo[mid] = _replay(mid, keys[mid], info, logs.get(mid, []), deals.get(mid, {}))
    for gone in set(memo) - set(keys):
        memo.pop(gone, None)

    results: list[ClubResult] = []
    skipped: list[str] = []
    variants: dict[str, str] = {}
    all_deals: list[rc.DealRecord] = []
    all_doubles: list[rc.DoubleBeziqueRecord] = []
    for r in rows:
        mid = int(r.id)
        counted = memo[mid]
        if counted.result is None:
            skipped.append(counted.why)
            continue
        seat_ids = ids.get(mid, {})

        def now(seat_name: str, seat_ids: Mapping[str, str] = seat_ids) -> str:
            pid = seat_ids.get(seat_name)
            return names.get(pid, seat_name) if pid is not None else seat_name

        res = counted.result
        results.append(
            ClubResult(
                res.match_id,
                res.finished_at,
                tuple(
                    Side(tuple(seat_ids.get(p, p) for p in side.players), side.score, side.rank)
                    for side in res.sides
                ),
            )
        )
        variants[res.match_id] = counted.variant
        all_deals.extend(
            replace(d, side=now(d.side), players=tuple(now(p) for p in d.players))
            for d in counted.deals
        )
        all_doubles.extend(replace(d, player=now(d.player)) for d in counted.doubles)
    ratings = rt.compute(results)
    return Club(
        tuple(rt.ordered(results)),
        ratings,
        rc.top_records(all_deals, all_doubles, limit),
        MappingProxyType(names),
        MappingProxyType(variants),
        tuple(skipped),
    )
