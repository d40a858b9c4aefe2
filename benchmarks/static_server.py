"""A plain static file server for the phone build (tests and bench_offline.py), as a static
host serves it: each file as it is, or its precompressed ``.br`` / ``.gz`` copy when the
browser accepts it (nginx's brotli_static / gzip_static; GitHub Pages compresses by itself),
with the MIME types browsers insist on for wasm and modules. It counts the bytes it sends, and
can be told to serve another folder in place (a new build deployed)."""

from __future__ import annotations

import mimetypes
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff2": "font/woff2",
}


class StaticServer:
    """``with StaticServer(folder) as s:`` serves ``folder`` on ``s.url`` (127.0.0.1)."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        self.folder = Path(folder)
        self.sent_bytes = 0
        self.requests: list[str] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(SimpleHTTPRequestHandler):
            def translate_path(self, path: str) -> str:
                rel = path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
                return str(outer.folder / rel)

            def send_head(self) -> Any:
                full = Path(self.translate_path(self.path))
                if full.is_dir():
                    full = full / "index.html"
                if not full.is_file():
                    self.send_error(404)
                    return None
                ctype = TYPES.get(full.suffix) or mimetypes.guess_type(full.name)[0]
                served, encoding = full, None
                accepted = self.headers.get("Accept-Encoding", "")
                for name, suffix in (("br", ".br"), ("gzip", ".gz")):
                    copy = full.with_name(full.name + suffix)
                    if name in accepted and copy.is_file():
                        served, encoding = copy, name
                        break
                f = served.open("rb")
                size = served.stat().st_size
                self.send_response(200)
                self.send_header("Content-Type", ctype or "application/octet-stream")
                if encoding:
                    self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(size))
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Last-Modified", self.date_time_string(int(full.stat().st_mtime)))
                self.end_headers()
                with outer._lock:
                    outer.sent_bytes += size
                    outer.requests.append(f"{self.path} {encoding or 'identity'} {size}")
                return f

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve(self, folder: Path) -> None:
        """Serve another folder from now on (a new build deployed in place)."""
        self.folder = Path(folder)

    def __enter__(self) -> StaticServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
