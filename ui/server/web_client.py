"""Flet's web client as this app serves it: compressed copies when the browser takes them,
cache headers that let a second load cost almost nothing, no fonts the app never shows, and a
Content-Security-Policy that keeps every request on this server.

Why each:
- ``main.dart.wasm`` and the renderer are 12 MB plain and ~3.4 MB as brotli (precompress.py).
- Cache: each file is revalidated (``no-cache`` + ETag, a 304 of a few hundred bytes): the
  client's files keep their names across Flet versions, so a long ``max-age`` could pair a new
  server with an old client; revalidating costs one small request per file.
- Flet's client lists KaTeX's math fonts (640 KB) and Cupertino icons (210 KB) in its font
  manifest, and Flutter fetches every listed font at start; this app shows neither.
- The page announces the files Flutter's loader would ask for one after another, so they
  download at once (preload.py).
- The Rive animation runtime in Flet's client asks a public CDN for ``rive_native.js`` even
  with ``no_cdn``; the policy's ``script-src 'self'`` stops the browser from sending it (the app
  shows no Rive animation), so nothing leaves the table's network. The policy is about where
  requests go: inline scripts (Flet's index.html has some) and eval (browser test drivers poll
  with it) stay allowed.
"""

from __future__ import annotations

import json
import mimetypes
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flet_web.fastapi.flet_app_manager import app_manager  # type: ignore[import-untyped]
from flet_web.fastapi.flet_static_files import FletStaticFiles  # type: ignore[import-untyped]
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.types import Scope

from ui.server import painted, precompress, preload, reconnect_notice

FONT_MANIFEST = "assets/FontManifest.json"
UNUSED_FONT_FAMILIES = ("packages/flutter_math_fork/", "packages/cupertino_icons/")
REVALIDATE = "no-cache"

CSP = (
    "default-src 'self'; "
    "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval'; "
    "style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; "
    "font-src 'self' data:; "
    "connect-src 'self' {ws}; "
    "worker-src 'self' blob:; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'none'; object-src 'none'"
)


def accepted_encodings(scope: Scope) -> list[str]:
    """The encodings of ``Accept-Encoding`` this server has copies for, best first."""
    offered = Headers(scope=scope).get("accept-encoding", "")
    names = set()
    for part in offered.split(","):
        name, _, params = part.strip().partition(";")
        if params.strip().replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        names.add(name.strip().lower())
    return [e for e in precompress.ENCODINGS if e in names]


def trimmed_font_manifest(web_dir: Path) -> list[dict[str, Any]]:
    """Flet's font manifest without the families this app never draws, plus the Roboto that
    Flet adds for ``no_cdn``."""
    fonts: list[dict[str, Any]] = json.loads((web_dir / FONT_MANIFEST).read_text("utf-8"))
    kept = [f for f in fonts if not str(f.get("family", "")).startswith(UNUSED_FONT_FAMILIES)]
    kept.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    return kept


class WebClientFiles(FletStaticFiles):  # type: ignore[misc]  # Flet's class is untyped
    """Flet's static files (its patched index.html first) with the changes above."""

    def __init__(
        self,
        *,
        assets_dir: str | None,
        cache_root: Path | None = None,
        app_fonts: Sequence[str] = (),
    ) -> None:
        super().__init__(assets_dir=assets_dir, no_cdn=True, websocket_endpoint_path="ws")
        self.cache_root = cache_root or precompress.cache_root()
        web_dir = Path(precompress.web_client_dirs(None)[0])
        own = Path(tempfile.mkdtemp(prefix="bezique-web-"))
        app_manager.add_temp_dir(str(own))  # removed when the server shuts down
        self.font_manifest = own / "FontManifest.json"
        manifest = trimmed_font_manifest(web_dir)
        self.font_manifest.write_text(json.dumps(manifest), "utf-8")
        self.early_fonts = preload.font_urls(manifest, app_fonts)
        self.index_html = own / "index.html"
        self._index_from: tuple[str, int] | None = None
        self._index_lock = threading.Lock()

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        if path.replace(os.sep, "/") == FONT_MANIFEST:
            return str(self.font_manifest), self.font_manifest.stat()
        full, st = super().lookup_path(path)
        if full and st is not None and Path(full).name == "index.html":
            return self._with_reconnect_notice(Path(full), st)
        return full, st

    def _with_reconnect_notice(
        self, source: Path, st: os.stat_result
    ) -> tuple[str, os.stat_result]:
        """Flet's patched index.html with the reconnect notice's script
        (ui/server/reconnect_notice.py) and the early downloads (preload.py), made once per
        version of it."""
        # Starlette looks paths up on worker threads: after a restart every phone asks for
        # the page at once, and a page written while another request had taken its size was
        # served longer than its Content-Length (an empty page on the phone). One writer,
        # and the new page replaces the old in one step.
        with self._index_lock:
            if self._index_from != (str(source), st.st_mtime_ns):
                page = reconnect_notice.inject(source.read_text("utf-8"))
                page = painted.inject(page)  # what the screen shows goes with each tap
                page = preload.patch_index(page, self.early_fonts)
                fresh = self.index_html.with_name("index.html.new")
                fresh.write_text(page, "utf-8")
                os.replace(fresh, self.index_html)
                self._index_from = (str(source), st.st_mtime_ns)
            return str(self.index_html), self.index_html.stat()

    def file_response(
        self,
        full_path: Any,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        source = Path(full_path)
        media_type = mimetypes.guess_type(source.name)[0] or "application/octet-stream"
        if media_type.startswith("text/") or media_type.endswith(("javascript", "json")):
            media_type += "; charset=utf-8"
        headers = {"Cache-Control": REVALIDATE, "Vary": "Accept-Encoding"}
        if source.name == "index.html":
            headers["Content-Security-Policy"] = csp_for(scope)
        served, served_stat = source, stat_result
        for encoding in accepted_encodings(scope):
            copy = precompress.fresh_copy(self.cache_root, source, encoding)
            if copy is not None:
                headers["Content-Encoding"] = encoding
                served, served_stat = copy, copy.stat()
                break
        response = FileResponse(
            served,
            status_code=status_code,
            stat_result=served_stat,
            media_type=media_type,
            headers=headers,
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return Response(status_code=304, headers=not_modified_headers(response.headers))
        return response


def csp_for(scope: Scope) -> str:
    """The policy for one page load: its own websocket address explicitly (older Safari does
    not count ``ws:`` as ``'self'``). The Host was checked by the host guard already."""
    host = Headers(scope=scope).get("host", "")
    return CSP.format(ws=f"ws://{host}" if host else "")


def not_modified_headers(headers: Any) -> dict[str, str]:
    keep = ("cache-control", "etag", "last-modified", "vary", "content-location", "expires")
    return {k: v for k, v in headers.items() if k in keep}
