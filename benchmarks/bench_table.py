"""Benchmark of table mode: one match live on several devices of one server.

    python benchmarks/bench_table.py [--writes 15] [--devices 2 4 8]

For 2, 4 and 8 connected devices (browser contexts at phone size, alternately a scorer's deal
screen and a viewer's screen, all on one match), one device records a penalty again and
again; for each write the time from the writer's tap to the new score painted on every other
device (a MutationObserver on the score, then two animation frames; both ends on the same
clock: ``performance.timeOrigin + performance.now()``), median and 95th percentile over all
writes × other devices.

Server memory per device: the server's resident memory with 8 devices connected minus with 1,
divided by 7.

Unauthorised writes: every viewer context tries to write — it asks for the scorer's address
of the match (``/match/ID``, which can only take rights away) and taps whatever write button it
is shown — and the writes that reached storage are counted (0 expected). Unauthorised reads:
contexts that joined without a valid secret and were shown match data (counted when the
server has secret links; until then none are tried, and the count is of zero attempts).

Prints a table and, on its last line, the JSON object; also writes
benchmarks/results/bench_table.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui" / "e2e"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from ui_e2e_harness import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    AppServer,
    blank_page,
    by_id,
    free_port,
    load_app,
    tap,
)

from referee.storage import Store  # noqa: E402

PHONE = {"width": 390, "height": 844}
FOREGROUND_ARGS = [  # every phone at the table paints; background windows here would not
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]

WATCH_JS = """
(id) => {
  window.__painted = [];
  const q = () => document.querySelector(`[flt-semantics-identifier="${id}"]`);
  let last = q() ? q().innerText : null;
  const obs = new MutationObserver(() => {
    const e = q();
    const now = e ? e.innerText : null;
    if (now !== null && now !== last) {
      last = now;
      requestAnimationFrame(() => requestAnimationFrame(() => {
        window.__painted.push({text: now, at: performance.timeOrigin + performance.now()});
      }));
    }
  });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true,
                              attributes: true});
}
"""

TAP_JS = """
(id) => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const at = performance.timeOrigin + performance.now();
  (e.querySelector('[flt-tappable]') || e).click();
  return at;
}
"""


POP_JS = "(r) => { history.pushState(null, '', r); dispatchEvent(new PopStateEvent('popstate')); }"


def rss_kb(pid: int) -> int:
    """Resident memory of a process (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def join(browser: Any, url: str) -> Page:
    page = blank_page(browser, viewport=PHONE)
    load_app(page, url)
    return page


class Table:
    """A server, a match with a deal started, and devices joining it."""

    def __init__(self, browser: Any, tmp: str) -> None:
        self.url = f"sqlite:///{tmp}/bench-table.sqlite3"
        self.store = Store.open(self.url)
        self.mid = self.store.create_match("two-hand", ["Anna", "Boris"], target=10**6)
        self.store.start_deal(self.mid, "Anna", "9H")
        self.server = AppServer(self.url, free_port(), lang="en")
        self.server.start()
        self.browser = browser
        self.devices: list[tuple[Page, str]] = []  # page, the identifier showing the score

    def add(self, n: int) -> None:
        base = self.server.url.rstrip("/")
        while len(self.devices) < n:
            viewer = len(self.devices) % 2 == 1
            page = join(self.browser, f"{base}/{'view' if viewer else 'match'}/{self.mid}")
            ident = "viewer-total-0" if viewer else "deal-score-0"
            by_id(page, ident).wait_for(timeout=60_000)
            self.devices.append((page, ident))

    def close(self) -> None:
        for page, _ in self.devices:
            page.context.close()
        self.server.stop()
        self.store.close()


def latencies(table: Table, n: int, writes: int) -> list[float]:
    """Write on device 0 (a scorer), time until painted on devices 1..n-1."""
    writer = table.devices[0][0]
    others = table.devices[1:n]
    out: list[float] = []
    for page, ident in others:
        page.evaluate(WATCH_JS, ident)
    for _ in range(writes):
        before = table.store.log_position(table.mid)
        tap(writer, "penalty-0")
        by_id(writer, "offence-P-REVOKE").wait_for(timeout=20_000)
        t0 = float(writer.evaluate(TAP_JS, "offence-P-REVOKE"))
        for page, _ in others:
            page.wait_for_function("window.__painted.length > 0", timeout=30_000)
            painted = page.evaluate("window.__painted.shift()")
            out.append(float(painted["at"]) - t0)
        # every write landed once, and every screen shows storage's number
        assert table.store.log_position(table.mid) == before + 1
        by_id(writer, "offence-P-REVOKE").wait_for(state="detached", timeout=20_000)
        time.sleep(0.2)
    return out


def unauthorised_writes(table: Table) -> tuple[int, int]:
    """Each viewer asks for the scorer's address and taps any write button it gets; returns
    (writes that reached storage, attempts)."""
    got_through = attempts = 0
    for page, ident in table.devices:
        if ident != "viewer-total-0":
            continue
        before = table.store.log_position(table.mid)
        page.evaluate(POP_JS, f"/match/{table.mid}")
        page.wait_for_timeout(500)
        for button in ("penalty-0", "offence-P-REVOKE", "undo", "declare-0", "seven-0"):
            attempts += 1
            loc = by_id(page, button)
            if loc.count():
                loc.first.click()
                page.wait_for_timeout(300)
        if table.store.log_position(table.mid) != before:
            got_through += 1
    return got_through, attempts


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--writes", type=int, default=15)
    ap.add_argument("--devices", type=int, nargs="+", default=[2, 4, 8])
    args = ap.parse_args(argv)
    result: dict[str, Any] = {"devices": {}}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *FOREGROUND_ARGS]
        )
        table = Table(browser, tmp)
        try:
            assert table.server.proc is not None
            pid = table.server.proc.pid
            table.add(1)
            time.sleep(1.0)
            rss_one = rss_kb(pid)
            for n in sorted(args.devices):
                table.add(n)
                time.sleep(1.0)
                if n == max(args.devices):
                    rss_all = rss_kb(pid)
                times = latencies(table, n, args.writes)
                result["devices"][str(n)] = {
                    "p50_ms": round(statistics.median(times), 1),
                    "p95_ms": round(percentile(times, 0.95), 1),
                }
                print(
                    f"{n} devices: write → painted on the others: median "
                    f"{result['devices'][str(n)]['p50_ms']} ms, p95 "
                    f"{result['devices'][str(n)]['p95_ms']} ms ({len(times)} paints)",
                    flush=True,
                )
            extra = max(args.devices) - 1
            result["rss_mb_per_device"] = round((rss_all - rss_one) / 1024 / max(1, extra), 2)
            print(f"server memory per connected device: {result['rss_mb_per_device']} MB")
            through, tried = unauthorised_writes(table)
            result["unauthorised_writes"] = through
            result["unauthorised_reads"] = 0
            print(f"viewer write attempts: {tried}, reached storage: {through}")
            print("reads without a secret: not tried (no secret links on this server yet)")
        finally:
            table.close()
            browser.close()
    load = os.getloadavg()[0]
    out = ROOT / "benchmarks" / "results" / "bench_table.json"
    out.write_text(
        json.dumps({**result, "load_average": round(load, 2), "writes": args.writes}, indent=1)
    )
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
