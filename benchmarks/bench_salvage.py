"""Salvage, measured two ways.

``probe`` (the default): how much of a damaged database comes back. A database of the
simulator's matches (``bezique simulate --variant two-hand --seed 11 --matches 40 --jsonl
--tracking cards``, imported into a fresh file) is damaged 27 ways: cut short, header fields
changed, random and zeroed pages, index-only and cache-only pages, 1 to 1,000 bit flips. For
each copy it counts the log entries *physically intact* (every byte of the entry's cell as it
was, read off the undamaged file's pages) and the entries ``salvage`` gives back exactly as
they were (match, position, kind, deal, target and payload; anything else given back is
counted as wrong), and the same for SQLite's own ``.recover`` when the sqlite3 shell is there.
Prints a table, writes benchmarks/results/salvage_probe.json (with the load average).

``open``: how long a damaged database takes to salvage at open: a file of N matches (each one
deal of E penalty entries) gets one bad log page; it times Store.open (check, keep the file,
salvage every readable row, rebuild the caches by replaying the log) and prints JSON last.

    .venv/bin/python benchmarks/bench_salvage.py [probe] [--seed 11] [--matches 40] [--no-recover]
    .venv/bin/python benchmarks/bench_salvage.py open [--matches 300] [--entries 330]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.storage import Store
from referee.storage.exchange import import_many


def _record(entries: int) -> dict[str, Any]:
    return {
        "format": "bezique-match/1",
        "variant": "two-hand",
        "players": ["Anna", "Boris"],
        "deals": [
            {
                "dealer": "Anna",
                "turn_up": "9H",
                "events": [
                    {"type": "penalty", "player": ["Anna", "Boris"][k % 2], "offence": "P-REVOKE"}
                    for k in range(entries)
                ],
            }
        ],
    }


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "open":
        return bench_open(sys.argv[2:])
    return probe(sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == "probe" else sys.argv[1:])


def bench_open(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--entries", type=int, default=330)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bezique-bench-salvage-"))
    try:
        return _open_run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # 26 MB of databases: never left behind


def _open_run(args: argparse.Namespace, work: Path) -> int:
    path = work / "bezique.sqlite3"
    s = Store.open(path)
    for start in range(0, args.matches, 50):
        import_many(s, [_record(args.entries)] * min(50, args.matches - start))
    s.close()
    size = path.stat().st_size
    conn = sqlite3.connect(path)
    pages = [
        int(r[0])
        for r in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'log_entry' AND pagetype = 'leaf'"
            " ORDER BY pageno"
        )
    ]
    page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    conn.close()
    data = bytearray(path.read_bytes())
    off = (pages[len(pages) // 2] - 1) * page_size
    data[off : off + page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))
    t0 = time.perf_counter()
    s = Store.open(path)
    if s.notice is None:  # above the full-check size: found on a read, salvaged next open
        try:
            for m in s.list_matches():
                s.load_match(m.id)
        except Exception:
            pass
        s.close()
        t0 = time.perf_counter()
        s = Store.open(path)
    elapsed = time.perf_counter() - t0
    matches = s.list_matches()
    entries = sum(len(s.history(m.id)) for m in matches)
    s.close()
    print(
        json.dumps(
            {
                "file_mb": round(size / 1e6, 1),
                "matches_before": args.matches,
                "entries_before": args.matches * (args.entries + 1),
                "matches_recovered": len(matches),
                "entries_recovered": entries,
                "salvage_open_s": round(elapsed, 2),
                "python": sys.version.split()[0],
                "sqlite": sqlite3.sqlite_version,
            }
        )
    )
    return 0


# ------------------------------------------------------------------------------ the probe
Damage = Callable[[bytearray, dict[str, list[int]], random.Random], bytes]
PAGE = 4096


def _cut(keep: Callable[[int], int]) -> Damage:
    return lambda d, _p, _r: bytes(d[: keep(len(d))])


def _header(edit: Callable[[bytearray], None]) -> Damage:
    def damage(d: bytearray, _p: dict[str, list[int]], _r: random.Random) -> bytes:
        edit(d)
        return bytes(d)

    return damage


def _set(at: int, value: bytes) -> Callable[[bytearray], None]:
    def edit(d: bytearray) -> None:
        d[at : at + len(value)] = value

    return edit


def _times10(d: bytearray) -> None:
    d[28:32] = (int.from_bytes(d[28:32], "big") * 10).to_bytes(4, "big")


def _pages(count: int | None, fill: str, names: tuple[str, ...] = ()) -> Damage:
    """``count`` pages (None: all) of the named trees (none named: any page but the first)
    filled with random bytes or zeros."""

    def damage(d: bytearray, owners: dict[str, list[int]], rnd: random.Random) -> bytes:
        pool = (
            sorted({p for n in names for p in owners.get(n, [])})
            if names
            else list(range(2, len(d) // PAGE + 1))
        )
        chosen = pool if count is None else rnd.sample(pool, min(count, len(pool)))
        for page in chosen:
            off = (page - 1) * PAGE
            d[off : off + PAGE] = (
                bytes(PAGE) if fill == "zero" else bytes(rnd.randrange(256) for _ in range(PAGE))
            )
        return bytes(d)

    return damage


def _flips(count: int) -> Damage:
    def damage(d: bytearray, _p: dict[str, list[int]], rnd: random.Random) -> bytes:
        for _ in range(count):
            at = rnd.randrange(len(d))
            d[at] ^= 1 << rnd.randrange(8)
        return bytes(d)

    return damage


INDEXES = (
    "sqlite_autoindex_log_entry_1",
    "sqlite_autoindex_player_1",
    "sqlite_autoindex_match_player_1",
    "sqlite_autoindex_deal_score_1",
    "ix_deal_match_id",
    "ix_match_activity",
    "ix_match_player_player_id",
    "ix_deal_score_match_id",
    "ix_deal_score_player_points",
    "ix_deal_score_points",
    "ix_meld_score_match_id",
    "ix_meld_score_player_meld",
)
CASES: dict[str, Damage] = {
    "cut by 1 byte": _cut(lambda n: n - 1),
    "cut by 4 KB": _cut(lambda n: n - PAGE),
    "cut by 10 %": _cut(lambda n: n * 9 // 10),
    "cut to half": _cut(lambda n: n // 2),
    "header: magic": _header(_set(0, b"SQLite format 4\x00")),
    "header: page size 1024": _header(_set(16, (1024).to_bytes(2, "big"))),
    "header: page count x10": _header(_times10),
    "header: UTF-16le": _header(_set(56, (2).to_bytes(4, "big"))),
    "header: read version 9": _header(_set(19, b"\x09")),
    "header: first 100 bytes zeroed": _header(_set(0, bytes(100))),
    "1 random page": _pages(1, "random"),
    "5 random pages": _pages(5, "random"),
    "20 random pages": _pages(20, "random"),
    "1 zeroed page": _pages(1, "zero"),
    "5 zeroed pages": _pages(5, "zero"),
    "20 zeroed pages": _pages(20, "zero"),
    "schema page zeroed": _pages(None, "zero", ("sqlite_schema",)),
    "log interior pages zeroed": _pages(None, "zero", ("log_entry/internal",)),
    "1 index page random": _pages(1, "random", ("sqlite_autoindex_log_entry_1",)),
    "every index page zeroed": _pages(None, "zero", INDEXES),
    "1 cache page random": _pages(1, "random", ("meld_score",)),
    "every cache page zeroed": _pages(None, "zero", ("meld_score", "deal_score")),
    "1 bit flip": _flips(1),
    "10 bit flips": _flips(10),
    "100 bit flips": _flips(100),
    "300 bit flips": _flips(300),
    "1,000 bit flips": _flips(1000),
}
COMPARED = "SELECT match_id, seq, kind, deal_id, target_seq, payload FROM log_entry"


def _seed_database(path: Path, seed: int, matches: int) -> None:
    """The issue's seed: the simulator's two-hand matches, cards tracking, imported."""
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "simulate",
            "--variant",
            "two-hand",
            "--seed",
            str(seed),
            "--matches",
            str(matches),
            "--jsonl",
            "--tracking",
            "cards",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with Store.open(path) as s:
        for line in out.splitlines():
            s.import_match(json.loads(line))


def _owners(path: Path) -> dict[str, list[int]]:
    conn = sqlite3.connect(path)
    try:
        out: dict[str, list[int]] = {}
        for name, page, kind in conn.execute("SELECT name, pageno, pagetype FROM dbstat"):
            out.setdefault(str(name), []).append(int(page))
            if kind == "internal":
                out.setdefault(f"{name}/internal", []).append(int(page))
        return out
    finally:
        conn.close()


def _cells(path: Path, owners: dict[str, list[int]]) -> dict[tuple[int, int], list[range]]:
    """Each log entry's (match, seq) and the file bytes its cell takes (local part and any
    overflow pages), read off the undamaged file; checked against SQLite's own rows."""
    from referee.storage.pages import PageFile, decode_record, varint

    pf = PageFile(path, path.stat().st_size)
    u = pf.geo.usable
    out: dict[tuple[int, int], list[range]] = {}
    try:
        for page in owners["log_entry"]:
            b = pf.page(page)
            if b[0] != 0x0D:
                continue
            for k in range(int.from_bytes(b[3:5], "big")):
                p = int.from_bytes(b[8 + 2 * k : 10 + 2 * k], "big")
                total, i = varint(b, p)
                _rowid, i = varint(b, i)
                base = (page - 1) * PAGE
                spans = [range(base + p, base + i + min(total, u - 35))]
                payload = bytes(b[i : i + total])
                if total > u - 35:  # overflow: the bench's data never needs it
                    raise SystemExit("an entry overflows its page; the bench does not map it")
                values = decode_record(payload)
                assert values is not None
                out[(int(values[1]), int(values[2]))] = spans
    finally:
        pf.close()
    conn = sqlite3.connect(path)
    assert set(out) == {
        (int(m), int(q)) for m, q in conn.execute("SELECT match_id, seq FROM log_entry")
    }
    conn.close()
    return out


def _intact(data: bytes, base: bytes, cells: dict[tuple[int, int], list[range]]) -> int:
    return sum(
        all(r.stop <= len(data) and data[r.start : r.stop] == base[r.start : r.stop] for r in spans)
        for spans in cells.values()
    )


def _given_back(path: Path, truth: set[tuple[Any, ...]]) -> tuple[int, int]:
    if not path.exists():
        return 0, 0
    conn = sqlite3.connect(path)
    try:
        rows = set(conn.execute(COMPARED))
    except sqlite3.Error:
        return 0, 0
    finally:
        conn.close()
    return len(rows & truth), len(rows - truth)


def _sqlite_recover(damaged: Path, out: Path) -> tuple[int, int] | str:
    """SQLite's own recovery (the sqlite3 shell's .recover) into ``out``; a string says why
    it gave nothing (the shell's own words)."""
    shell = shutil.which("sqlite3")
    if shell is None:
        return "no sqlite3 shell"
    sql = subprocess.run([shell, str(damaged), ".recover"], capture_output=True, timeout=300)
    load = subprocess.run([shell, str(out)], input=sql.stdout, capture_output=True, timeout=300)
    said = (sql.stderr + load.stderr).decode(errors="replace").strip()
    if not out.exists() or (said and b"INSERT" not in sql.stdout):
        return said[:200] or "no output"
    return 0, 0


def probe(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--no-recover", action="store_true", help="skip SQLite's .recover")
    ap.add_argument("--json", default=str(Path(__file__).parent / "results" / "salvage_probe.json"))
    args = ap.parse_args(argv)
    from referee.storage.salvage import salvage

    load_before = Path("/proc/loadavg").read_text().split()[:3]
    work = Path(tempfile.mkdtemp(prefix="bezique-bench-probe-"))
    try:
        base_path = work / "base.sqlite3"
        _seed_database(base_path, args.seed, args.matches)
        base = base_path.read_bytes()
        owners = _owners(base_path)
        cells = _cells(base_path, owners)
        conn = sqlite3.connect(base_path)
        truth = set(conn.execute(COMPARED))
        conn.close()
        rows: list[dict[str, Any]] = []
        print(f"{len(cells)} log entries, {len(base) // PAGE} pages of {PAGE} bytes")
        recover_note: str | None = "skipped (--no-recover)" if args.no_recover else None
        if not args.no_recover:  # first on the undamaged file: is SQLite's own tool usable?
            tried = _sqlite_recover(base_path, work / "base.recovered.sqlite3")
            good = (
                0
                if isinstance(tried, str)
                else _given_back(work / "base.recovered.sqlite3", truth)[0]
            )
            if good < len(truth):
                recover_note = (
                    f"unusable here: on the undamaged file it gave back {good} of"
                    f" {len(truth)} entries ({tried if isinstance(tried, str) else 'no rows'})"
                )
                print(f"sqlite3 .recover: {recover_note}")
        recover_usable = recover_note is None
        print(
            f"{'damage':32} {'intact':>7} {'salvage':>8} {'%':>6} {'wrong':>5} {'s':>6}"
            f" {'.recover':>8} {'%':>6}"
        )
        for n, (name, damage) in enumerate(CASES.items()):
            rnd = random.Random(f"{args.seed}-{n}")
            data = damage(bytearray(base), owners, rnd)
            damaged = work / f"case{n}.sqlite3"
            damaged.write_bytes(data)
            intact = _intact(data, base, cells)
            out = work / f"case{n}.salvaged.sqlite3"
            t0 = time.perf_counter()
            error = None
            try:
                salvage(damaged, out)
            except Exception as exc:  # counted: the target is 0 tracebacks
                error = "".join(traceback.format_exception(exc))
            elapsed = time.perf_counter() - t0
            good, wrong = _given_back(out, truth)
            rec = None
            if recover_usable:
                rec_out = work / f"case{n}.recovered.sqlite3"
                if not isinstance(_sqlite_recover(damaged, rec_out), str):
                    rec = _given_back(rec_out, truth)
            row = {
                "damage": name,
                "intact": intact,
                "given_back": good,
                "wrong": wrong,
                "share": round(good / intact, 4) if intact else None,
                "seconds": round(elapsed, 2),
                "traceback": error,
                "sqlite_recover": None if rec is None else {"given_back": rec[0], "wrong": rec[1]},
            }
            rows.append(row)
            share = f"{100 * good / intact:5.1f}" if intact else "    -"
            rshare = f"{100 * rec[0] / intact:5.1f}" if rec and intact else "    -"
            print(
                f"{name:32} {intact:7} {good:8} {share:>6} {wrong:5} {elapsed:6.2f}"
                f" {rec[0] if rec else '-':>8} {rshare:>6}" + ("  TRACEBACK" if error else "")
            )
        intact_all = sum(r["intact"] for r in rows)
        good_all = sum(r["given_back"] for r in rows)
        rec_all = sum((r["sqlite_recover"] or {}).get("given_back", 0) for r in rows)
        load_after = Path("/proc/loadavg").read_text().split()[:3]
        summary = {
            "entries": len(cells),
            "pages": len(base) // PAGE,
            "intact": intact_all,
            "given_back": good_all,
            "share": round(good_all / intact_all, 4),
            "wrong": sum(r["wrong"] for r in rows),
            "tracebacks": sum(1 for r in rows if r["traceback"]),
            "cases_95_intact_below_95": [
                r["damage"]
                for r in rows
                if r["intact"] >= 0.95 * len(cells) and (r["share"] or 0) < 0.95
            ],
            "sqlite_recover_share": round(rec_all / intact_all, 4) if recover_usable else None,
            "sqlite_recover_note": recover_note,
            "load_average": {"before": load_before, "after": load_after},
            "python": sys.version.split()[0],
            "sqlite": sqlite3.sqlite_version,
            "date": time.strftime("%Y-%m-%d"),
        }
        print(
            f"{'all':32} {intact_all:7} {good_all:8} {100 * good_all / intact_all:6.2f}"
            f" {summary['wrong']:5}        {rec_all:8}"
        )
        print(json.dumps(summary))
        Path(args.json).write_text(json.dumps({"summary": summary, "cases": rows}, indent=1) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
