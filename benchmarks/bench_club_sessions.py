"""A phone's new session at its table's match, one at a time (issue #24): what each phone
of a killed worker costs the survivor when it reconnects.

    BEZIQUE_TEST_POSTGRES_URL=… .venv/bin/python benchmarks/bench_club_sessions.py [--rounds 8]

A club server on 2 workers and PostgreSQL (the database is WIPED), 10 tables whose match has
6 entries (the typical deal's first six, tapped by a scorer's phone); then, ``--rounds``
times over the tables, a new phone with the table's scorer cookie opens ``/match/ID`` (the
address a reconnecting page has) and is timed from connecting to its table's match shown
(the server's mark of the drawn screen received), then closed. One phone at a time, so the
figure is a session's own cost: Flet's session, the app's state, the match replayed from
storage, the deal screen built, diffed and sent. Phones are benchmarks/flet_client.py's
protocol-level clients (no painting). The last line is one JSON object; the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests" / "ui" / "e2e"),
                str(ROOT / "tests" / "server"), str(ROOT)]

from club_night_bench import DEAL, loadavg, make_tables, wipe  # noqa: E402
from flet_client import Phone  # noqa: E402

from referee.storage import Store  # noqa: E402


def shows_match(phone: Phone, match_id: int) -> bool:
    shown = phone.shows()
    return shown is not None and shown[0] == match_id


async def play_first_entries(server: Any, table: Any, entries: int) -> str:
    """The table's scorer records its first entries; returns the scorer's cookie."""
    cookie = await asyncio.to_thread(server.cookie, table.scorer)
    phone = Phone(server.phone_address, cookie, name=f"t{table.number}-scorer")
    await phone.open(120)
    await phone.tap("resume", 120)
    await phone.wait(lambda _t: shows_match(phone, table.match_id), 120, "its match")
    for taps in DEAL[:entries]:
        before = phone.shows()[1]  # type: ignore[index]
        for tap in taps:
            await phone.tap(tap, 30)
        await phone.wait(lambda _t, n=before: (phone.shows() or (0, 0))[1] > n, 30, "the entry")
    await phone.close()
    return cookie


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from server_helpers import ClubServer  # type: ignore[import-not-found]
    from ui_e2e_harness import free_port  # type: ignore[import-not-found]

    url = args.db or os.environ.get("BEZIQUE_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit("bench_club_sessions.py: give --db postgresql+psycopg://… (it is wiped)")
    print(f"load average before: {loadavg()}", flush=True)
    wipe(url)
    tables = make_tables(Store.open(url), args.tables)
    night = {"created": time.time(), "director": secrets.token_urlsafe(24),
             "tables": [{"number": t.number, "scorer": t.scorer, "viewer": t.viewer,
                         "matches": [t.match_id]} for t in tables]}
    with tempfile.TemporaryDirectory() as tmp:
        server = ClubServer(url, free_port(), Path(tmp), night, workers=2)
        server.start()
        try:
            cookies = [await play_first_entries(server, t, args.entries) for t in tables]
            times: list[float] = []
            for _ in range(args.rounds):
                for table, cookie in zip(tables, cookies, strict=True):
                    phone = Phone(server.phone_address, cookie,
                                  route=f"/match/{table.match_id}", name="reconnecting")
                    start = time.monotonic()
                    await phone.open(120)
                    await phone.wait(lambda _t, p=phone, t=table: shows_match(p, t.match_id),
                                     120, "its match")
                    times.append((time.monotonic() - start) * 1000)
                    await phone.close()
        finally:
            server.stop()
    times.sort()
    result = {"sessions": len(times), "median_ms": round(statistics.median(times), 1),
              "p90_ms": round(times[int(0.9 * (len(times) - 1))], 1),
              "entries": args.entries, "tables": args.tables}
    print(f"load average after: {loadavg()}", flush=True)
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", help="PostgreSQL URL (default BEZIQUE_TEST_POSTGRES_URL); WIPED")
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--entries", type=int, default=6)
    p.add_argument("--rounds", type=int, default=8)
    print(json.dumps(asyncio.run(run(p.parse_args())), ensure_ascii=False))


if __name__ == "__main__":
    main()
