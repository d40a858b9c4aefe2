"""The phone build (issue 20) in real Chromium: built by scripts/build_phone.py, served on
127.0.0.1 by a plain static server, visited once, then used offline as an installed app.

One browser profile (a persistent context, as a phone keeps its browser's data) goes through:
the first visit (everything kept for offline use), a reload with the network off, the typical
two-hand deal played through the UI offline, the browser closed and reopened offline (the
match and its score are there), then a second build served in place of the first: it is
picked up, applied at the next start, and the match is still there. On the way the phone
makes the build's Python image (a memory snapshot of Pyodide after its imports), a later
start restores it, a damaged one is dropped for the usual start, and a new build's start
drops the old build's. No request may leave 127.0.0.1 at any point.

Screenshots (390×844, looked at): test-artifacts/screenshots/phone-01-… to phone-06-…."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS, SHOTS, by_id, wait_words

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from phone_page import new_two_hand_match  # noqa: E402
from phone_page import wait_home as home  # noqa: E402

from benchmarks.static_server import StaticServer  # noqa: E402

PHONE = {"width": 390, "height": 844}
WAIT = 60_000
# The device's settings file as IDBFS keeps it in IndexedDB (ui/device_settings.py).
SETTINGS_IN_INDEXEDDB = """(needle) => new Promise((done) => {
  const open = indexedDB.open("/home/pyodide/bezique");
  open.onerror = () => done(false);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("FILE_DATA")) { db.close(); return done(false); }
    const get = db.transaction("FILE_DATA").objectStore("FILE_DATA")
      .get("/home/pyodide/bezique/settings.json");
    get.onsuccess = () => {
      db.close();
      const v = get.result;
      done(!!v && !!v.contents && new TextDecoder().decode(v.contents).includes(needle));
    };
    get.onerror = () => { db.close(); done(false); };
  };
})"""
OFFLINE_STATES = "['ready', 'failed']"


def build(out: Path, stamp: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_phone.py"), "--out", str(out),
         "--compress", "gz", "--stamp", stamp],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1].split(": ", 1)[1])
    return summary


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("phone")
    first = build(root / "first", "first")
    second = build(root / "second", "second")
    return {"first": Path(first["out"]), "second": Path(second["out"]),
            "ids": (first["build"], second["build"])}  # fmt: skip


class Outside:
    """Every request a context made for a host other than 127.0.0.1, and those of them the
    page's Content-Security-Policy stopped before they were sent (Flet's client asks a CDN
    for a Rive runtime the app never uses)."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.stopped: list[str] = []

    def watch(self, ctx: BrowserContext) -> None:
        def far(url: str) -> bool:
            return url.startswith(("http:", "https:", "ws:", "wss:")) and "//127.0.0.1:" not in url

        def seen(req: Any) -> None:
            if far(req.url):
                self.urls.append(req.url)

        def failed(req: Any) -> None:
            if far(req.url) and "CSP" in str(req.failure or "").upper():
                self.stopped.append(req.url)

        ctx.on("request", seen)
        ctx.on("requestfailed", failed)

    def sent(self) -> list[str]:
        left = list(self.urls)
        for url in self.stopped:
            left.remove(url)
        return left


def phone(pw: Any, profile: Path, outside: Outside) -> tuple[BrowserContext, Page]:
    ctx = pw.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB",
    )  # fmt: skip
    outside.watch(ctx)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    return ctx, page


# Flet's python.js defines jsConnect, which Flutter's engine calls to start Python: held back
# until the page saw Python's worker say "initialized".
ENGINE_AFTER_PYTHON = """
(() => {
  let real = null;
  Object.defineProperty(globalThis, "jsConnect", {
    configurable: true,
    set(fn) { real = fn; },
    get() {
      return real && async function (...args) {
        while (!(window.beziqueOffline && window.beziqueOffline.pythonUpAt)) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return real.apply(this, args);
      };
    },
  });
})();
"""


def console_lines(page: Page) -> list[str]:
    """What the page and its workers log from now on (Python's worker marks a start from the
    phone's Python image with "bezique-mark image-restored")."""
    lines: list[str] = []
    page.on("console", lambda msg: lines.append(msg.text))
    page.on("worker", lambda worker: worker.on("console", lambda msg: lines.append(msg.text)))
    return lines


def image_made(page: Page) -> str:
    """Wait until the phone made this build's Python image (scripts/phone/python-image.js)."""
    page.wait_for_function(
        "() => { const s = (window.beziqueOffline || {}).image || '';"
        " return s === 'ready' || s === 'present' || s.startsWith('image-'); }",
        timeout=300_000,
    )
    return str(page.evaluate("window.beziqueOffline.image"))


IMAGES_KEPT = """async () => {
    const out = [];
    const key = new URL("__bezique_image__", document.baseURI).href;
    for (const n of await caches.keys()) {
        if (n.startsWith("bezique-image-") && await (await caches.open(n)).match(key)) {
            out.push("cache:" + n);
        }
    }
    try {
        const root = await navigator.storage.getDirectory();
        const dir = await root.getDirectoryHandle("python-image");
        for await (const name of dir.keys()) out.push("opfs:" + name);
    } catch (e) { /* no folder yet */ }
    return out.sort();
}"""


def images_kept(page: Page) -> list[str]:
    """The Python images the phone keeps (scripts/phone/image-store.js): files in the private
    file system ("opfs:image-<build>"), caches of earlier builds' way ("cache:...")."""
    return list(page.evaluate(IMAGES_KEPT))


def look(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(800)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def offline_state(page: Page) -> str:
    page.wait_for_function(
        f"() => window.beziqueOffline && {OFFLINE_STATES}.includes(window.beziqueOffline.state)",
        timeout=300_000,
    )
    return str(page.evaluate("window.beziqueOffline.state"))


@pytest.fixture
def pw() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


def test_phone_build_installs_works_offline_keeps_matches_and_takes_an_update(
    builds: dict[str, Any], pw: Any, tmp_path: Path
) -> None:
    from bench_taps import EXPECTED, play

    first, second = builds["first"], builds["second"]
    first_id, second_id = builds["ids"]
    assert first_id != second_id
    outside = Outside()
    profile = tmp_path / "profile"
    with StaticServer(first) as srv:
        # The first visit: Home, and every file kept for offline use, with its progress shown.
        ctx, page = phone(pw, profile, outside)
        page.goto(srv.url)
        home(page)
        look(page, "phone-01-home-first-visit")
        assert offline_state(page) == "ready"
        events = page.evaluate("window.beziqueOffline.events")
        assert "offline-progress" in events
        assert page.evaluate("window.beziqueOffline.build") == first_id
        expect(by_id(page, "table-needs-server")).to_be_attached()
        expect(by_id(page, "device-name")).to_have_count(0)  # no table mode without a server

        # Offline from here: a reload starts the app from the service worker's cache.
        ctx.set_offline(True)
        page.reload()
        home(page)
        new_two_hand_match(page)
        play(page, "melds")  # the typical deal, one tap a declaration (bench_taps.py)
        page.wait_for_timeout(2500)  # longer than a sync may take before it is shown
        expect(by_id(page, "unsaved")).to_have_count(0)  # every entry reached IndexedDB
        look(page, "phone-02-deal-summary-offline")
        # Meanwhile the phone made this build's Python image, in the background.
        assert image_made(page) in ("ready", "present")
        # kept in the private file system, read with a synchronous handle at each start
        assert images_kept(page) == [f"opfs:image-{first_id}"]
        ctx.close()

        # The browser closed and reopened, still offline: Python starts from the image, and
        # the match and its score are there, read and shown by the restored interpreter.
        ctx, page = phone(pw, profile, outside)
        said = console_lines(page)
        ctx.set_offline(True)
        # Flutter's engine asks for Python only once Python is up, as on a phone whose
        # graphics start slowly (bench_offline's 4x): what Python's worker said meanwhile must
        # reach Flet's python.js (the page waited for ever for "initialized").
        ctx.add_init_script(ENGINE_AFTER_PYTHON)
        page.goto(srv.url)
        home(page)
        by_id(page, "resume-card").wait_for(timeout=WAIT)
        for name, points in EXPECTED.items():
            wait_words(page, "resume-card", name)
            wait_words(page, "resume-card", str(points))
        assert any(line.startswith("bezique-mark image-restored") for line in said), said
        # Python's WebAssembly was compiled while the image was read, and Pyodide took that
        # module (image-load.js) rather than fetching and compiling its own.
        assert any(line.startswith("bezique-mark wasm-instantiated") for line in said), said
        look(page, "phone-03-home-after-restart-offline")
        # The phone keeps its choices beside its matches (ui/device_settings.py): Russian
        # chosen here is what the next start shows, read without asking Flutter.
        by_id(page, "lang-toggle").click()
        expect(by_id(page, "new-match")).to_contain_text("Новая партия")
        page.wait_for_function(SETTINGS_IN_INDEXEDDB, arg='"lang": "ru"', timeout=WAIT)
        by_id(page, "resume").first.click()
        by_id(page, "summary-0").wait_for(timeout=WAIT)

        # An image damaged where it is kept (not even its page layout holds) is dropped: the
        # app starts the usual way, with everything there.
        page.evaluate(
            """async (id) => {
                const root = await navigator.storage.getDirectory();
                const dir = await root.getDirectoryHandle("python-image");
                const file = await dir.getFileHandle("image-" + id);
                const out = await file.createWritable();
                await out.write(new Uint8Array(4096).fill(7));
                await out.close();
            }""",
            first_id,
        )
        said.clear()
        page.goto(srv.url)  # Home (a reload would reopen the match its address names)
        home(page)
        by_id(page, "resume-card").wait_for(timeout=WAIT)
        for points in EXPECTED.values():
            wait_words(page, "resume-card", str(points))
        assert not any(line.startswith("bezique-mark image-restored") for line in said)
        assert any("image is damaged" in line for line in said), said  # image-store.js
        expect(by_id(page, "new-match")).to_contain_text("Новая партия")  # kept on the phone
        ctx.close()

        # A new build served in place of the first: picked up online, said to be ready...
        srv.serve(second)
        asked_before = len(srv.requests)
        ctx, page = phone(pw, profile, outside)
        page.goto(srv.url)
        home(page)
        page.wait_for_function(
            "() => window.beziqueOffline.state === 'update-ready'", timeout=300_000
        )
        look(page, "phone-04-update-ready")
        ctx.close()
        # Only what changed came over the network: the big files were the same (by hash).
        fetched = {r.split()[0].split("?")[0] for r in srv.requests[asked_before:]}
        assert "/index.html" in fetched
        assert not fetched & {"/packages.zip", "/app.zip", "/pyodide/pyodide.asm.wasm"}

        # ...and applied at the next start, offline; the match is still there.
        ctx, page = phone(pw, profile, outside)
        ctx.set_offline(True)
        page.goto(srv.url)
        page.wait_for_function(
            f"() => window.beziqueOffline && window.beziqueOffline.build === '{second_id}'",
            timeout=180_000,
        )
        home(page)
        by_id(page, "resume-card").wait_for(timeout=WAIT)
        for points in EXPECTED.values():
            wait_words(page, "resume-card", str(points))
        look(page, "phone-05-home-after-update")
        by_id(page, "resume").first.click()
        by_id(page, "summary-0").wait_for(timeout=WAIT)
        page.wait_for_timeout(2500)
        expect(by_id(page, "unsaved")).to_have_count(0)
        look(page, "phone-06-match-after-update")
        # The first build's Python image went with its files.
        assert not [k for k in images_kept(page) if first_id in k]
        ctx.close()
    assert outside.sent() == [], f"left 127.0.0.1: {outside.urls}, stopped: {outside.stopped}"


def test_phone_build_holds_only_what_the_browser_runs(builds: dict[str, Any]) -> None:
    """The folder: the fixed Pyodide URL, no Flet service worker, no KaTeX fonts, no unused
    renderer, Babel's en/ru data only, no micropip; the manifest in both languages."""
    out = builds["first"]
    index = (out / "index.html").read_text("utf-8")
    assert 'flet.pyodideUrl="/pyodide/pyodide.mjs"' in index
    assert "Content-Security-Policy" in index
    assert 'serviceWorkerVersion: "' not in (out / "flutter_bootstrap.js").read_text("utf-8")
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert not any("flutter_math_fork" in n or "cupertino" in n for n in names)
    assert not any(n.startswith(("canvaskit/wimp", "canvaskit/skwasm_heavy")) for n in names)
    assert not any(n.endswith((".symbols", ".map")) or "micropip" in n for n in names)
    assert "flutter_service_worker.js" not in names
    import zipfile

    with zipfile.ZipFile(out / "app.zip") as zf:
        locales = {n.rsplit("/", 1)[-1] for n in zf.namelist() if "/locale-data/" in n}
    assert locales == {"root.dat", "en.dat", "en_001.dat", "en_150.dat", "ru.dat"}
    for lang, name in (("en", "Bezique Referee"), ("ru", "Безик-судья")):
        manifest = json.loads((out / f"manifest.{lang}.json").read_text("utf-8"))
        assert manifest["name"] == name and manifest["display"] == "standalone"
        assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    listing = json.loads((out / "offline.json").read_text("utf-8"))
    paths = {f["path"] for f in listing["files"]}
    assert {"app.zip", "packages.zip", "pyodide/pyodide.asm.wasm", "index.html"} <= paths
    assert "sw.js" not in paths
