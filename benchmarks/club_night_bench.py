"""A club night under load (issue #24): ``bench_club.py`` without ``--ratings``.

    BEZIQUE_TEST_POSTGRES_URL=postgresql+psycopg://… python benchmarks/bench_club.py \
        [--tables 20] [--workers 2] [--writes 11] [--pace 5]

WIPES the PostgreSQL database it is given (as the storage tests do), then: ``--tables``
two-hand matches, each with its deal started, and a night whose tables play them (written to
the night's file before the server starts, as tests/server/test_server_club.py does); the
server ``./run.sh --club --workers N --db …`` on loopback only (127.0.0.1 and 127.0.0.2);
four phones per table: two scorers and two viewers, each a protocol-level client
(benchmarks/flet_client.py: Flet's web client over its websocket, without drawing). Each
phone joins by its link, opens Home and taps the table's match, as a person does.

Each table records one deal at playing speed: ``--writes`` entries (declarations, a seven, a
marriage with its suit, penalties, an undo and a redo), one every ``--pace`` seconds (±40 %),
the two scorers taking turns, the tables starting a little apart. Per write: the time from
the writer's tap that records it to each other phone of the table *having it* (the server's
frame naming the match and log position that follows the drawing, ui/server/painted.py,
received by the phone's websocket and its patch applied to its tree: **received, not
painted**; bench_table.py measures painting in Chromium), median and 95th percentile.

The director's screen is open too (``--directors``, default 1: the laptop's own listener,
127.0.0.1, as the person running the night sees every table): it is drawn again after every
move at any table. ``director_ms``: write → the director's card of that table changed in
the director's received tree (same "received, not painted").

Mid-run (``--kill-at`` of the run) the worker with the most phones is killed (SIGKILL). Its
phones reconnect to the same address and land on a surviving worker (or the one started
again); ``worker_kill_recovered`` says whether every one of them is back on its table's match
with storage's state at the end. A tap eaten by the killed worker (its entry never reached
storage) is seen by its phone, which records it again, as a person would
(``retried``); the time of such a write counts from the first tap.

``lost``: pairs (a write storage holds, another phone of its table) where that phone never
showed it, plus phones whose screen at the end is not storage's (position and scores).
``cross_table_reads`` / ``cross_table_writes``: each phone, with its own cookie, asks for
another table's match by address (``/match/ID``, ``/view/ID``) and for another table's phone's
session by id, and taps any write button it is then shown: reads that showed the other
table's players or match, writes that changed its log (0 expected).

Server CPU seconds and resident memory (supervisor and workers, from /proc), per table;
PostgreSQL's own CPU beside it. Prints the figures, ``/proc/loadavg`` before and after, and on
its last line the issue's JSON object; writes benchmarks/results/bench_club_night.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "tests" / "server", ROOT / "tests" / "ui" / "e2e", ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from flet_client import Phone  # noqa: E402

from referee.storage import Store  # noqa: E402

# one deal at the table, as a scorer taps it: (seat-free taps, the last one records)
DEAL = (
    ("offer-1-four_kings",),
    ("offer-0-bezique",),
    ("offer-1-four_queens",),
    ("seven-0",),
    ("offer-0-four_aces",),
    ("offer-1-marriage", "offer-suit-1-C"),
    ("penalty-1", "offence-P-EARLY-DECLARE"),
    ("offer-0-four_jacks",),
    ("undo",),
    ("redo",),
    ("penalty-0", "offence-P-EARLY-DECLARE"),
)
TICK = 0.5  # seconds between samples of the server's processes


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def spread(values: list[float]) -> dict[str, Any]:
    """How many, median and 95th percentile (ms)."""
    if not values:
        return {"deliveries": 0}
    return {"deliveries": len(values), "p50_ms": round(statistics.median(values), 1),
            "p95_ms": round(percentile(values, 0.95), 1)}


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def postgres_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().startswith("postgres"):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


class Meter:
    """CPU seconds of a set of processes over a stretch of time, sampled every TICK (a
    process that dies keeps what it had used at its last sample)."""

    def __init__(self, pids: Any) -> None:
        self.pids = pids  # a callable giving the pids now
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def sample(self) -> None:
        for pid in self.pids():
            used = cpu_seconds(pid)
            if used is None:
                continue
            self.first.setdefault(pid, used)
            self.last[pid] = used

    def start(self) -> None:
        self.first.clear()
        self.last.clear()
        self.sample()

    def used(self) -> float:
        return sum(self.last[p] - self.first[p] for p in self.last)


@dataclass
class Table:
    number: int
    match_id: int
    players: tuple[str, str]
    scorer: str
    viewer: str
    phones: list[Phone] = field(default_factory=list)
    writes: list[dict[str, Any]] = field(default_factory=list)  # position, t0, writer, retries


def wipe(url: str) -> None:
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


def make_tables(store: Store, n: int) -> list[Table]:
    tables = []
    for k in range(1, n + 1):
        players = (f"Table{k:02d}Anna", f"Table{k:02d}Boris")
        mid = store.create_match("two-hand", list(players), target=10**9)
        store.start_deal(mid, players[0], "9H")
        tables.append(Table(k, mid, players, secrets.token_urlsafe(24), secrets.token_urlsafe(24)))
    return tables


async def join(server: Any, table: Table, role: str, marks: dict[str, list[Any]]) -> Phone:
    cookie = await asyncio.to_thread(server.cookie, table.scorer if role == "scorer" else
                                     table.viewer)
    name = f"t{table.number}-{role}-{len(table.phones)}"
    marks[name] = []

    def heard(phone: Phone, label: str, at: float) -> None:
        match, _, position = label.partition(":")
        if match.isdigit() and position.isdigit():
            marks[phone.name].append((int(match), int(position), at))

    phone = Phone(server.phone_address, cookie, name=name, on_mark=heard)
    await phone.open(120)
    await phone.tap("resume", 120)
    await phone.wait(lambda t: phone.shows() is not None and phone.shows()[0] == table.match_id,
                     120, "its table's match")  # type: ignore[index]
    table.phones.append(phone)
    return phone


async def open_director(port: int, k: int, tables: list[Table],
                        seen: dict[str, list[tuple[int, float]]]) -> Phone:
    """The director's screen on the laptop's own listener; each table card's text is kept,
    and the time it changes is noted (a write reaching the director's list)."""
    name = f"director-{k}"
    seen[name] = []
    cards: dict[int, str | None] = {}

    def frame(phone: Phone, at: float) -> None:
        if phone.tree is None:
            return
        for t in tables:
            text = phone.tree.text(f"club-table-{t.number}")
            if t.number in cards and text is not None and text != cards[t.number]:
                seen[name].append((t.number, at))
            if text is not None:
                cards[t.number] = text

    director = Phone(f"127.0.0.1:{port}", None, name=name, on_frame=frame)
    await director.open(120)
    await director.wait(lambda tree: tree.text(f"club-table-{tables[-1].number}") is not None,
                        120, "the director's list")
    return director


async def record(table: Table, writer: Phone, taps: tuple[str, ...], others: list[Phone],
                 marks: dict[str, list[Any]], log: list[str]) -> None:
    """One entry: the writer's screen shows the table's last write first (a person writes
    on what they see), then its taps; the entry's position is the next; if no other phone
    has it within 15 s (a tap eaten by a killed worker), the writer taps again."""
    last = table.writes[-1]["position"] if table.writes else None
    if last is not None:
        await writer.wait(lambda t: (writer.shows() or (0, 0))[1] >= last, 60, "the last write")
    shown = writer.shows()
    position = (shown[1] if shown else 0) + 1
    entry = {"position": position, "writer": writer.name, "t0": None, "retries": 0}
    for attempt in range(4):
        try:
            for tap in taps:
                at = await writer.tap(tap, 30)
        except TimeoutError as exc:
            log.append(f"table {table.number}: {exc}")
            await asyncio.sleep(1.0)
            entry["retries"] += 1
            continue
        if entry["t0"] is None:
            entry["t0"] = at
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if any(m[0] == table.match_id and m[1] >= position for o in others
                   for m in marks[o.name]):
                table.writes.append(entry)
                return
            await asyncio.sleep(0.05)
        entry["retries"] += 1
        log.append(f"table {table.number}: entry {position} not heard, tapped again ({attempt})")
        await writer.wait(lambda t: writer.shows() is not None, 60, "back")
        shown = writer.shows()
        if shown and shown[1] >= position:  # it had landed after all: others were away
            table.writes.append(entry)
            return
    entry["failed"] = True
    table.writes.append(entry)


async def play(table: Table, pace: float, start_after: float, marks: dict[str, list[Any]],
               log: list[str], rng: random.Random) -> None:
    await asyncio.sleep(start_after)
    scorers = [p for p in table.phones if "scorer" in p.name]
    for k, taps in enumerate(DEAL):
        writer = scorers[k % 2]
        others = [p for p in table.phones if p is not writer]
        await record(table, writer, taps, others, marks, log)
        await asyncio.sleep(pace * rng.uniform(0.6, 1.4))


async def cross_table(server: Any, tables: list[Table], store: Store) -> tuple[int, int, int,
                                                                                 int]:
    """Each phone, with its own cookie, asks for another table's match and another table's
    session: (reads that got through, read attempts, writes that got through, attempts)."""
    reads = read_tries = writes = write_tries = 0
    before = {t.match_id: store.log_position(t.match_id) for t in tables}
    jobs: list[Any] = []
    for i, table in enumerate(tables):
        other = tables[(i + 1) % len(tables)]
        victims = [p for p in other.phones if p.session_id]

        async def attempt(phone: Phone, other: Table = other,
                          victims: list[Phone] = victims) -> tuple[int, int, int, int]:
            r = rt = w = wt = 0
            tries: list[Phone] = []
            for route in (f"/match/{other.match_id}", f"/view/{other.match_id}"):
                tries.append(Phone(server.phone_address, phone.cookie, route=route,
                                   name=f"{phone.name}-asks"))
            taker = Phone(server.phone_address, phone.cookie, name=f"{phone.name}-takes")
            taker.session_id = victims[len(tables) % len(victims)].session_id
            tries.append(taker)
            for asker in tries:
                rt += 1
                try:
                    await asker.open(60)
                    await asyncio.sleep(1.5)  # its first screen drawn
                    seen = asker.tree.all_text() if asker.tree else ""
                    shows = asker.shows()
                    if any(n in seen for n in other.players) or (
                        shows is not None and shows[0] == other.match_id
                    ):
                        r += 1
                    wt += 1  # the address or session asked is the other table's match's
                    if shows is not None and shows[0] == other.match_id:  # then: write on it
                        for button in ("offer-0-bezique", "penalty-0", "undo", "seven-0"):
                            if asker.tree is not None and asker.tree.tappable(button):
                                wt += 1
                                await asker.tap(button, 5)
                finally:
                    await asker.close()
            return r, rt, w, wt

        jobs.extend(attempt(phone) for phone in table.phones)
    limit = asyncio.Semaphore(12)  # phones asking at once

    async def limited(job: Any) -> tuple[int, int, int, int]:
        async with limit:
            return await job  # type: ignore[no-any-return]

    for r, rt, w, wt in await asyncio.gather(*(limited(j) for j in jobs)):
        reads, read_tries, writes, write_tries = (reads + r, read_tries + rt, writes + w,
                                                 write_tries + wt)
    await asyncio.sleep(2.0)
    writes += sum(1 for t in tables if store.log_position(t.match_id) != before[t.match_id])
    return reads, read_tries, writes, write_tries


def end_state(store: Store, tables: list[Table]) -> tuple[int, list[str]]:
    """(phones whose screen is not storage's, notes)."""
    from ui.state.common import points_text

    wrong = 0
    notes = []
    for t in tables:
        position = store.log_position(t.match_id)
        scores = [points_text(v) for v in store.load_match(t.match_id).current.scores()]
        for p in t.phones:
            shown = p.shows()
            texts = [p.tree.text(f"deal-score-{s}") for s in (0, 1)] if p.tree else []
            ok = shown == (t.match_id, position)
            if "scorer" in p.name:
                ok = ok and texts == scores
            if not ok:
                wrong += 1
                notes.append(f"{p.name}: shows {shown} {texts}, storage {position} {scores}")
    return wrong, notes


async def night(args: argparse.Namespace) -> dict[str, Any]:
    from server_helpers import ClubServer  # type: ignore[import-not-found]
    from ui_e2e_harness import free_port  # type: ignore[import-not-found]

    url = args.db or os.environ.get("BEZIQUE_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit("bench_club.py: give --db postgresql+psycopg://… (it is wiped)")
    rng = random.Random(args.seed)
    print(f"load average before: {loadavg()}", flush=True)
    wipe(url)
    store = Store.open(url)
    tables = make_tables(store, args.tables)
    night_file = {
        "created": time.time(),
        "director": secrets.token_urlsafe(24),
        "tables": [{"number": t.number, "scorer": t.scorer, "viewer": t.viewer,
                    "matches": [t.match_id]} for t in tables],
    }
    log: list[str] = []
    marks: dict[str, list[Any]] = {}
    seen: dict[str, list[tuple[int, float]]] = {}  # a director's: (table, its card changed at)
    directors: list[Phone] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = ClubServer(url, free_port(), Path(tmp), night_file, workers=args.workers)
        server.start()
        try:
            assert server.proc is not None
            parent = server.proc.pid

            def server_pids() -> list[int]:
                return [parent, *server.worker_pids()]

            time.sleep(2.0)
            idle_rss = sum(rss_mb(p) for p in server_pids())
            t_join = time.monotonic()
            for role in ("scorer", "scorer", "viewer", "viewer"):
                for k in range(0, len(tables), 5):
                    await asyncio.gather(*(join(server, t, role, marks)
                                           for t in tables[k:k + 5]))
            joined_s = time.monotonic() - t_join
            phones = [p for t in tables for p in t.phones]
            on = {str(w): sum(1 for p in phones if p.worker == str(w))
                  for w in server.worker_pids()}
            directors = [await open_director(server.port, k, tables, seen)
                         for k in range(args.directors)]
            print(f"{len(phones)} phones joined in {joined_s:.1f} s; per worker: {on}",
                  flush=True)
            await asyncio.sleep(2.0)
            rss_connected = sum(rss_mb(p) for p in server_pids())
            meter, pg, me = Meter(server_pids), Meter(postgres_pids), time.process_time()
            meter.start()
            pg.start()
            t_run = time.monotonic()
            run_s = len(DEAL) * args.pace + 5
            games = [asyncio.create_task(play(t, args.pace, rng.uniform(0, args.pace), marks,
                                              log, rng)) for t in tables]
            killed: dict[str, Any] = {}

            async def kill_later() -> None:
                await asyncio.sleep(run_s * args.kill_at)
                counts: dict[str, int] = {}
                for p in phones:
                    if p.worker:
                        counts[p.worker] = counts.get(p.worker, 0) + 1
                victim = max(counts, key=lambda w: counts[w])
                killed.update(pid=int(victim), at=time.monotonic(),
                              phones=[p for p in phones if p.worker == victim],
                              sessions={p.name: p.session_id for p in phones
                                        if p.worker == victim})
                meter.sample()
                os.kill(int(victim), signal.SIGKILL)
                print(f"killed worker {victim} (SIGKILL) with {counts[victim]} phones, "
                      f"{time.monotonic() - t_run:.1f} s into the run", flush=True)
                gone = killed["phones"]
                by_table = {p.name: t.match_id for t in tables for p in t.phones}
                back: dict[str, float] = {}
                while time.monotonic() - killed["at"] < 120:
                    for p in gone:
                        if p.name not in back and p.session_id != killed["sessions"][p.name] \
                                and p.shows() is not None \
                                and p.shows()[0] == by_table[p.name]:  # type: ignore[index]
                            back[p.name] = time.monotonic() - killed["at"]
                    if len(back) == len(gone):
                        killed["back_s"] = max(back.values())
                        times = sorted(back.values())
                        print(f"every phone of the killed worker back at its table after "
                              f"{killed['back_s']:.1f} s (median {statistics.median(times):.1f}"
                              f" s; reconnections per phone: "
                              f"{sorted(p.reconnects for p in gone)})", flush=True)
                        break
                    await asyncio.sleep(0.1)

            async def sampling() -> None:
                while True:
                    meter.sample()
                    pg.sample()
                    await asyncio.sleep(TICK)

            sampler = asyncio.create_task(sampling())
            killer = asyncio.create_task(kill_later()) if args.kill_at > 0 else None
            await asyncio.gather(*games)
            if killer is not None:
                await killer
            run_wall = time.monotonic() - t_run
            sampler.cancel()
            meter.sample()
            pg.sample()
            server_cpu = meter.used()
            pg_cpu = pg.used()
            bench_cpu = time.process_time() - me
            rss_end = sum(rss_mb(p) for p in server_pids())
            await asyncio.sleep(5.0)  # the last writes reach every screen
            # latencies: each write to each other phone of its table
            times: list[float] = []
            after_kill: list[float] = []
            before_kill: list[float] = []
            after_back: list[float] = []
            since_kill: list[tuple[float, float]] = []  # (write's tap - the kill, ms)
            never = 0
            for t in tables:
                final = store.log_position(t.match_id)
                for w in t.writes:
                    if w.get("failed") or w["t0"] is None or w["position"] > final:
                        continue
                    for p in t.phones:
                        if p.name == w["writer"]:
                            continue
                        got = [at for (m, pos, at) in marks[p.name]
                               if m == t.match_id and pos >= w["position"] and at >= w["t0"]]
                        if not got:
                            never += 1
                            continue
                        ms = (min(got) - w["t0"]) * 1000
                        times.append(ms)
                        if killed:
                            since_kill.append((w["t0"] - killed["at"], ms))
                        if not killed or w["t0"] < killed["at"]:
                            before_kill.append(ms)
                        elif w["t0"] <= killed["at"] + killed.get("back_s", 120):
                            after_kill.append(ms)
                        else:
                            after_back.append(ms)
            director_ms: list[float] = []
            for t in tables:
                for w in t.writes:
                    if w.get("failed") or w["t0"] is None:
                        continue
                    for changes in seen.values():
                        got = [at for (n, at) in changes if n == t.number and at >= w["t0"]]
                        if got:
                            director_ms.append((min(got) - w["t0"]) * 1000)
            wrong, notes = end_state(store, tables)
            recovered = bool(killed) and all(
                p.session_id != killed["sessions"][p.name] and p.worker != str(killed["pid"])
                and p.shows() == (t.match_id, store.log_position(t.match_id))
                for t in tables for p in t.phones if p.name in killed["sessions"])
            reads, read_tries, writes, write_tries = await cross_table(server, tables, store)
            workers_now = server.worker_pids()
            on_end = {str(w): sum(1 for p in phones if p.worker == str(w)) for w in workers_now}
        finally:
            for t in tables:
                for p in t.phones:
                    await p.close()
            for d in directors:
                await d.close()
            server.stop()
            store.close()
    landed = sum(1 for t in tables for w in t.writes if not w.get("failed"))
    result = {
        "tables": len(tables),
        "devices": sum(len(t.phones) for t in tables),
        "workers": args.workers,
        "p50_ms": round(statistics.median(times), 1) if times else None,
        "p95_ms": round(percentile(times, 0.95), 1) if times else None,
        "lost": never + wrong,
        "cross_table_reads": reads,
        "cross_table_writes": writes,
        "worker_kill_recovered": recovered,
    }
    detail = {
        **result,
        "figure": "received: the server's frame after the drawing that shows the write, "
                  "received by the phone's websocket with the drawing's patch applied "
                  "(protocol-level phones; not painted)",
        "writes": landed,
        "writes_failed": sum(1 for t in tables for w in t.writes if w.get("failed")),
        "retried": sum(w["retries"] for t in tables for w in t.writes),
        "deliveries": len(times),
        "max_ms": round(max(times), 1) if times else None,
        "directors": args.directors,
        "director_ms": spread(director_ms),
        "before_kill": spread(before_kill),
        "kill_to_all_back": {**spread(after_kill), "s": round(killed.get("back_s", -1), 1)},
        "after_all_back": spread(after_back),
        # where in the run the slow ones are: by the write's tap, 5 s windows from the kill
        "by_5s_from_kill": {
            f"{k * 5:+d}": spread([ms for at, ms in since_kill if k * 5 <= at < k * 5 + 5])
            for k in sorted({int(at // 5) for at, _ms in since_kill})
        },
        "never_shown": never,
        "screens_not_storage_at_end": wrong,
        "cross_table_read_attempts": read_tries,
        "cross_table_write_attempts": write_tries,
        "phones_per_worker": on,
        "killed_worker_phones": len(killed.get("phones", [])),
        "workers_after": len(workers_now),
        "phones_per_worker_end": on_end,
        "join_s": round(joined_s, 1),
        "run_s": round(run_wall, 1),
        "pace_s": args.pace,
        "server_cpu_s": round(server_cpu, 1),
        "server_cpu_s_per_table": round(server_cpu / len(tables), 2),
        "server_cpu_share": round(server_cpu / run_wall, 2),
        "postgres_cpu_s": round(pg_cpu, 1),
        "bench_cpu_s": round(bench_cpu, 1),
        "server_rss_mb_idle": round(idle_rss, 1),
        "server_rss_mb_connected": round(rss_connected, 1),
        "server_rss_mb_end": round(rss_end, 1),
        "server_rss_mb_per_table": round(rss_connected / len(tables), 1),
        "server_rss_mb_added_per_table": round((rss_connected - idle_rss) / len(tables), 2),
        "notes": (log + notes)[:40],
    }
    return detail


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description="a club night under load (see the module)")
    ap.add_argument("--db", help="PostgreSQL URL (default BEZIQUE_TEST_POSTGRES_URL); WIPED")
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--pace", type=float, default=5.0, help="seconds between a table's entries")
    ap.add_argument("--kill-at", type=float, default=0.4,
                    help="kill a worker this far into the run (0: none)")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--directors", type=int, default=1,
                    help="the director's screens open during the night")
    args = ap.parse_args(argv)
    detail = asyncio.run(night(args))
    after = loadavg()
    detail["loadavg_after"] = after
    out = ROOT / "benchmarks" / "results" / "bench_club_night.json"
    out.write_text(json.dumps(detail, indent=1))
    d = detail
    print(f"writes: {d['writes']} landed ({d['retried']} taps again after the kill), "
          f"{d['deliveries']} deliveries to the other phones of their table")
    print(f"write → received by the other phones' websockets (not painted): median "
          f"{d['p50_ms']} ms, p95 {d['p95_ms']} ms, max {d['max_ms']} ms; "
          f"{d['before_kill']} before the kill, {d['kill_to_all_back']} from the kill until "
          f"its phones were all back, {d['after_all_back']} after")
    print(f"the director's screen ({d['directors']}): write → that table's card changed: "
          f"{d['director_ms']}")
    print(f"lost: {d['lost']} (never shown {d['never_shown']}, screens not storage's at the "
          f"end {d['screens_not_storage_at_end']})")
    print(f"cross-table: reads {d['cross_table_reads']} of {d['cross_table_read_attempts']}, "
          f"writes {d['cross_table_writes']} of {d['cross_table_write_attempts']}")
    print(f"worker killed with {d['killed_worker_phones']} phones: every one back on its "
          f"table: {d['worker_kill_recovered']}; workers serving after: {d['workers_after']}, "
          f"phones on each at the end: {d['phones_per_worker_end']}")
    print(f"server CPU {d['server_cpu_s']} s over {d['run_s']} s ({d['server_cpu_s_per_table']}"
          f" s per table; PostgreSQL {d['postgres_cpu_s']} s; this benchmark's phones "
          f"{d['bench_cpu_s']} s); server memory {d['server_rss_mb_connected']} MB with every "
          f"phone ({d['server_rss_mb_per_table']} MB per table, "
          f"{d['server_rss_mb_added_per_table']} MB per table over the idle server)")
    for note in d["notes"]:
        print(f"  note: {note}")
    print(f"load average after: {after}")
    keys = ("tables", "devices", "workers", "p50_ms", "p95_ms", "lost", "cross_table_reads",
            "cross_table_writes", "worker_kill_recovered")
    print(json.dumps({k: d[k] for k in keys}), flush=True)
    return d
