"""How the web client travels (issue 14's cold load): compressed copies made once and served
to browsers that take them, revalidation instead of a second download, no unused fonts, and no
request leaving the machine."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import raw_request

from ui.server import precompress
from ui.server.web_client import (
    CSP,
    UNUSED_FONT_FAMILIES,
    accepted_encodings,
    trimmed_font_manifest,
)

WEB = precompress.web_client_dirs(None)[0]


def test_accept_encoding_picks_brotli_then_gzip_and_honours_q0() -> None:
    def scope(value: str) -> Any:
        return {"type": "http", "headers": [(b"accept-encoding", value.encode())]}

    assert accepted_encodings(scope("gzip, deflate, br, zstd")) == ["br", "gzip"]
    assert accepted_encodings(scope("gzip")) == ["gzip"]
    assert accepted_encodings(scope("br;q=0, gzip")) == ["gzip"]
    assert accepted_encodings(scope("identity")) == []


def test_the_font_manifest_keeps_icons_and_roboto_but_no_math_or_cupertino_fonts() -> None:
    families = [f["family"] for f in trimmed_font_manifest(WEB)]
    assert "MaterialIcons" in families
    assert "Roboto" in families
    assert not [f for f in families if f.startswith(UNUSED_FONT_FAMILIES)]


def test_a_copy_is_used_only_while_its_source_is_unchanged(tmp_path: Path) -> None:
    src = tmp_path / "web" / "main.js"
    src.parent.mkdir()
    src.write_text("console.log('bezique');\n" * 200)
    root = tmp_path / "cache"
    copy = precompress.make_copy(root, src, "gzip")
    assert copy is not None and precompress.fresh_copy(root, src, "gzip") == copy
    assert gzip.decompress(copy.read_bytes()) == src.read_bytes()
    src.write_text("console.log('piquet');\n" * 200)
    os.utime(src, ns=(1, 1))
    assert precompress.fresh_copy(root, src, "gzip") is None


def test_files_that_do_not_shrink_get_no_copy(tmp_path: Path) -> None:
    src = tmp_path / "noise.js"
    src.write_bytes(os.urandom(4096))
    assert precompress.make_copy(tmp_path / "cache", src, "gzip") is None


def test_pyodide_symbols_and_maps_are_never_compressed() -> None:
    names = [p.relative_to(WEB).as_posix() for p in precompress.files_to_compress([WEB])]
    assert names[0] == "main.dart.wasm"
    assert not [n for n in names if n.startswith("pyodide/") or n.endswith((".symbols", ".map"))]


@pytest.fixture
def gzip_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache with gzip copies of what a phone loads (brotli at its best takes too long for a
    test), and no background compressor competing for the CPU."""
    root = tmp_path / "web-cache"
    for rel in precompress.FIRST[:6]:
        precompress.make_copy(root, WEB / rel, "gzip")
    monkeypatch.setenv("BEZIQUE_WEB_CACHE", str(root))
    monkeypatch.setenv("BEZIQUE_WEB_PRECOMPRESS", "off")
    yield root


@pytest.fixture
def served(gzip_cache: Path, tmp_path: Path) -> Iterator[Any]:
    from ui_e2e_harness import AppServer, free_port

    srv = AppServer(f"sqlite:///{tmp_path / 'web.sqlite3'}", free_port(), lang="en")
    srv.start()
    yield srv
    srv.stop()


def test_the_compressed_copy_is_served_to_a_browser_that_takes_it(served: Any) -> None:
    plain = (WEB / "main.dart.mjs").read_bytes()
    r = raw_request(served.port, "/main.dart.mjs", headers={"Accept-Encoding": "gzip, br"})
    assert r.status == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["vary"] == "Accept-Encoding"
    assert r.headers["content-type"].startswith("text/javascript")
    assert gzip.decompress(r.body) == plain
    bare = raw_request(served.port, "/main.dart.mjs")
    assert "content-encoding" not in bare.headers and bare.body == plain


def test_a_second_request_is_answered_not_modified(served: Any) -> None:
    first = raw_request(served.port, "/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
    assert first.headers["cache-control"] == "no-cache"
    again = raw_request(
        served.port,
        "/main.dart.wasm",
        headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]},
    )
    assert again.status == 304 and again.body == b""


def test_the_page_carries_a_policy_that_keeps_requests_here(served: Any) -> None:
    r = raw_request(served.port, "/")
    assert r.headers["content-security-policy"] == CSP.format(ws=f"ws://127.0.0.1:{served.port}")
    assert r.headers["cross-origin-embedder-policy"] == "require-corp"
    manifest = json.loads(raw_request(served.port, "/assets/FontManifest.json").body)
    assert not [f for f in manifest if f["family"].startswith(UNUSED_FONT_FAMILIES)]


def test_in_a_browser_nothing_leaves_the_machine_and_a_reload_costs_little(served: Any) -> None:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS, by_id

    offline = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, offline]
        )
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        loads = []
        for _ in range(2):
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            seen: dict[str, dict[str, Any]] = {}
            cdp.on(
                "Network.requestWillBeSent",
                lambda e, seen=seen: seen.setdefault(e["requestId"], {"url": e["request"]["url"]}),
            )
            cdp.on(
                "Network.loadingFinished",
                lambda e, seen=seen: seen.get(e["requestId"], {}).update(
                    bytes=e["encodedDataLength"]
                ),
            )
            cdp.on(
                "Network.loadingFailed",
                lambda e, seen=seen: seen.get(e["requestId"], {}).update(
                    blocked=e.get("blockedReason")
                ),
            )
            page.goto(served.url)
            page.wait_for_function("document.getElementById('loading') === null", timeout=60_000)
            page.locator("flt-semantics-placeholder").dispatch_event("click")
            by_id(page, "new-match").wait_for(timeout=60_000)
            page.wait_for_timeout(1000)
            loads.append(seen)
            page.close()
        browser.close()
    first, second = loads
    for req in [*first.values(), *second.values()]:
        url = req["url"]
        local = url.startswith((served.url, "blob:", "data:"))
        assert local or req.get("blocked") == "csp", url
    urls = [r["url"] for r in first.values()]
    assert not [u for u in urls if "katex" in u.lower() or "cupertino" in u.lower()]
    # The page's early downloads (ui/server/preload.py) are the loader's own: nothing twice.
    assert len(urls) == len(set(urls)), sorted(urls)
    assert sum(r.get("bytes", 0) for r in second.values()) < 200_000


def test_the_page_is_made_once_when_every_phone_asks_for_it_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a server restart every phone reloads at the same moment. Starlette looks paths
    up on worker threads; the page written again while another request had taken its size
    was served longer than its Content-Length, and the phone got an empty page."""
    import threading
    import time

    from ui.server import reconnect_notice, web_client

    made: list[int] = []
    real = reconnect_notice.inject

    def slow_inject(page: str) -> str:
        made.append(1)
        time.sleep(0.05)  # long enough for every thread to arrive while it is written
        return real(page)

    monkeypatch.setattr(web_client.reconnect_notice, "inject", slow_inject)
    files = web_client.WebClientFiles(assets_dir=None, cache_root=tmp_path / "cache")
    flet_page = tmp_path / "index.html"  # Flet's patched page, which ours is made from
    flet_page.write_text("<html><head><title>x</title></head><body></body></html>", "utf-8")
    start = threading.Barrier(8)
    found: list[tuple[str, int]] = []

    def ask() -> None:
        start.wait()
        path, st = files._with_reconnect_notice(flet_page, flet_page.stat())
        found.append((path, st.st_size))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1  # one writer
    size = Path(found[0][0]).stat().st_size
    assert all(n == size for _, n in found)  # every answer's size is the page's
