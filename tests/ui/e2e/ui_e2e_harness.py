"""Start the real app server and drive it in Debian's headless Chromium.

The server is a separate process (``python -m ui.main --web``) so the test can stop and start
it again and see what a user sees after a restart. Waits are on states (HTTP answers, DOM
nodes, stable pixels), not on fixed sleeps.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_serving(url: str, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> bool:
    """Wait until ``url`` answers HTTP 200 (False when ``timeout`` passed first); raises when
    ``proc`` exits before."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server for {url} exited")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


class AppServer:
    """One ``python -m ui.main --web`` process on 127.0.0.1 and a free port."""

    def __init__(self, db_url: str, port: int, lang: str | None = "en") -> None:
        self.db_url = db_url
        self.port = port
        self.lang = lang
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = SHOTS.parent / f"server-{port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 60.0) -> float:
        """Start and wait for HTTP 200; returns the seconds it took."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", PYTHONUNBUFFERED="1")
        env.pop("DISPLAY", None)
        log = self.log_path.open("ab")
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ui.main",
                "--web",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                *(["--lang", self.lang] if self.lang else []),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            if wait_serving(self.url, timeout, self.proc):
                return time.monotonic() - t0
        except RuntimeError as exc:
            raise RuntimeError(f"app server exited: see {self.log_path}") from exc
        raise TimeoutError(f"app server did not answer on {self.url}")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


# Several phones are windows of one browser in some tests: without these Chromium stops
# painting the windows that are not in front, which a phone on the table never does.
FOREGROUND_ARGS = [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]


def launch(pw: Any, *, foreground: bool = False) -> Browser:
    """Debian's headless Chromium; ``foreground``: every window keeps painting."""
    args = [*CHROMIUM_ARGS, *FOREGROUND_ARGS] if foreground else CHROMIUM_ARGS
    browser: Browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
    return browser


PHONE = {"width": 412, "height": 915}
TABLET = {"width": 900, "height": 1000}


def open_app(
    browser: Browser, url: str, sent: list[bytes] | None = None, viewport: dict[str, int] = TABLET
) -> Page:
    """A fresh session with the accessibility tree switched on, ready to query. ``sent``
    collects every websocket frame the page sends (to know typed text reached the server)."""
    page = blank_page(browser, sent, viewport)
    load_app(page, url)
    return page


def blank_page(
    browser: Browser,
    sent: list[bytes] | None = None,
    viewport: dict[str, int] = TABLET,
    locale: str | None = None,
) -> Page:
    """A new browser context (its own Flet session, nothing cached) with an empty page."""
    ctx = browser.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]
    page = ctx.new_page()
    if sent is not None:

        def keep(payload: str | bytes) -> None:
            sent.append(payload.encode() if isinstance(payload, str) else payload)

        page.on("websocket", lambda ws: ws.on("framesent", keep))
    return page


def load_app(page: Page, url: str) -> None:
    """Open the app and switch Flutter's semantics tree on (the DOM the tests query)."""
    page.goto(url)
    page.wait_for_function("document.getElementById('loading') === null", timeout=60_000)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=60_000)
    placeholder.dispatch_event("click")


# A phone on poor Wi-Fi (issue 22): every message the server sends the page is held for
# window.__lagMs (0 until a test sets it) before the page (Flet's client and the app's own
# scripts) sees it; order is kept (one delay for all). Add it with page.add_init_script.
LAG = """
(() => {
  window.__lagMs = 0;
  const Native = window.WebSocket;
  class Lagging extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener("message", (e) => {
        if (e.__late) return;
        e.stopImmediatePropagation();
        const late = new MessageEvent("message", { data: e.data });
        late.__late = true;
        setTimeout(() => this.dispatchEvent(late), window.__lagMs);
      });
    }
  }
  window.WebSocket = Lagging;
})();
"""


def by_id(page: Page, identifier: str) -> Locator:
    return page.locator(f'[flt-semantics-identifier="{identifier}"]')


def tap(page: Page, identifier: str) -> None:
    loc = by_id(page, identifier).first
    loc.wait_for(state="visible", timeout=20_000)
    loc.click()


def tap_to(page: Page, identifier: str, shows: str, tries: int = 3) -> None:
    """Tap a navigation control until the screen it leads to shows ``shows``: a tap that lands
    while Flutter replaces the semantics node under it is lost, and navigating twice is
    harmless (never used for taps that record something)."""
    for attempt in range(tries):
        tap(page, identifier)
        try:
            by_id(page, shows).first.wait_for(state="visible", timeout=5_000)
            return
        except Exception:
            if attempt == tries - 1:
                raise


def wait_text(page: Page, identifier: str, text: str, timeout: float = 20_000) -> None:
    expect(by_id(page, identifier).first).to_contain_text(text, timeout=timeout)


def settle(page: Page, max_wait: float = 8.0) -> None:
    """Wait until two consecutive screenshots match: the pixels have caught up."""
    prev = page.screenshot()
    deadline = time.monotonic() + max_wait
    while time.monotonic() < deadline:
        time.sleep(0.25)
        cur = page.screenshot()
        if cur == prev:
            return
        prev = cur


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    vp = page.viewport_size or TABLET
    page.mouse.move(vp["width"] - 2, vp["height"] - 2)
    settle(page)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def wait_words(page: Page, identifier: str, text: str, timeout: float = 20_000) -> None:
    """Wait until a node's accessible text (its label and its content) contains ``text``:
    Flutter puts a group's own texts in aria-label and its children's in the DOM."""
    page.wait_for_function(
        """([id, text]) => {
            const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
            if (!e) return false;
            return ((e.getAttribute('aria-label') || '') + ' ' + e.innerText).includes(text);
        }""",
        arg=[identifier, text],
        timeout=timeout,
    )


def scroll_down(page: Page, pixels: int = 2000) -> None:
    """Scroll the Flutter canvas (the mouse wheel over the page body)."""
    vp = page.viewport_size or TABLET
    page.mouse.move(vp["width"] / 2, vp["height"] / 2)
    page.mouse.wheel(0, pixels)


def type_into_focus(page: Page, text: str, identifier: str, words: str) -> None:
    """Type on the keyboard into the field that took the focus by itself (a form that opens
    its number pad at once), after it has it: under load the focus comes later than the
    form, and keys typed before would reach nothing. Then wait for the effect."""
    page.wait_for_function(
        """() => {
            const a = document.activeElement;
            return !!a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA');
        }""",
        timeout=20_000,
    )
    page.keyboard.type(text)
    wait_words(page, identifier, words)


def type_until(page: Page, label: str, text: str, identifier: str, words: str) -> None:
    """Type into a field until the node ``identifier`` shows ``words`` (its effect): under
    load a fill can be lost, and a digit alone is no proof in the websocket frames."""
    for attempt in range(3):
        box = page.get_by_role("textbox", name=label)
        box.click()
        page.wait_for_timeout(200)  # the field takes the focus first
        box.fill(text)
        try:
            wait_words(page, identifier, words, timeout=8_000)
            return
        except Exception:
            if attempt == 2:
                raise


class Typist:
    """Types into Flet text fields and waits until the text reached the server (a websocket
    frame the page sent contains it), so the next tap never races the typing."""

    def __init__(self, page: Page, sent: list[bytes]) -> None:
        self.page = page
        self.sent = sent

    def type(self, label: str, text: str) -> None:
        box = self.page.get_by_role("textbox", name=label)
        needle = text.encode()
        for _attempt in range(3):  # under load a fill can be lost: type it again
            start = len(self.sent)
            box.click()
            box.fill(text)
            for _ in range(200):
                if any(needle in f for f in self.sent[start:]):
                    return
                self.page.wait_for_timeout(25)
            box.fill("")
        raise AssertionError(f"typed {text!r} never reached the server")


def start_two_hand_deal(page: Any, sent: list[bytes]) -> None:
    """From Home: a two-hand match of Anna and Boris, dealer and turn-up 9♥, the deal open.
    ``sent`` collects the page's websocket frames: each name is typed until the server has it."""
    tap(page, "new-match")
    for label, name in (("Player 1", "Anna"), ("Player 2", "Boris")):
        box = page.get_by_role("textbox", name=label)
        box.click()
        box.fill(name)
        deadline = time.monotonic() + 10
        while not any(name.encode() in f for f in sent) and time.monotonic() < deadline:
            page.wait_for_timeout(25)
    tap(page, "start-match")
    by_id(page, "start-deal").wait_for()
    if by_id(page, "turn-up-9H").count():
        tap(page, "turn-up-9H")
    else:  # a baseline checkout before the turn-up grid (benchmarks/bench_tap_ab.py)
        tap(page, "rank-9")
        tap(page, "suit-H")
    tap(page, "start-deal")
    by_id(page, "declare-1").wait_for()


def back_after_restart(page: Page, timeout: float = 90_000) -> None:
    """After a server restart the page starts afresh (ui/server/reconnect_notice.py reloads
    it when the server gives it a new session): wait for the fresh page and switch its
    accessibility tree on again, as ``load_app`` does. Should the tree be back already (the
    old page's tree went and came back without the placeholder), that is where the test goes
    on; what the page held is printed if neither comes, for the run's log."""
    # the old page's accessibility tree goes with the reload
    page.wait_for_function(
        "!document.querySelector('[flt-semantics-identifier]')", timeout=timeout, polling=100
    )
    page.wait_for_function("document.getElementById('loading') === null", timeout=timeout)
    try:
        page.wait_for_function(
            "document.querySelector('flt-semantics-placeholder') ||"
            " document.querySelector('[flt-semantics-identifier]')",
            timeout=timeout,
            polling=100,
        )
    except Exception:
        print("back_after_restart: neither the placeholder nor the tree came back", page.url,
              page.evaluate(PAGE_STATE))
        raise
    placeholder = page.locator("flt-semantics-placeholder")
    if placeholder.count():
        placeholder.dispatch_event("click")


PAGE_STATE = """() => ({
    ids: document.querySelectorAll('[flt-semantics-identifier]').length,
    loading: !!document.getElementById('loading'),
    notice: (document.getElementById('bezique-reconnecting') || {}).dataset?.state || null,
    noticeShown: (document.getElementById('bezique-reconnecting') || {}).style?.display || null,
    host: !!document.querySelector('flt-semantics-host'),
    reloaded: sessionStorage.getItem('bezique.reconnect.reloaded'),
    text: (document.body ? document.body.innerText : '').slice(0, 200),
    scripts: document.scripts.length,
})"""
