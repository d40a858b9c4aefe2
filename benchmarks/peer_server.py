"""A static web server for the peer score pad that bench_phone.py measures (issue 14).

    python benchmarks/peer_server.py DIR PORT LOG

Serves the built folder DIR on 127.0.0.1:PORT the way this app's own server serves its web
client, so that the bytes compare like with like: gzip (level 9) for text files when the
browser accepts it, ``Cache-Control: no-cache`` with an ETag (a second load revalidates and
gets 304). Each response's body size goes to LOG as one line (``status bytes path``) so the
benchmark can also count what the peer's service worker fetched, which the page's own
network events do not show. A separate process, so that serving does not run inside the
benchmark's Playwright process.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".txt", ".map")
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")


class Files:
    """The folder's files, read and compressed once (the build does not change while served)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._cache: dict[Path, tuple[bytes, bytes | None, str]] = {}
        self._lock = threading.Lock()

    def get(self, url_path: str) -> tuple[Path, bytes, bytes | None, str] | None:
        rel = unquote(urlsplit(url_path).path).lstrip("/") or "index.html"
        path = (self.root / rel).resolve()
        if self.root not in path.parents and path != self.root:
            return None  # outside the folder
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            return None
        with self._lock:
            if path not in self._cache:
                body = path.read_bytes()
                packed = gzip.compress(body, 9, mtime=0) if path.suffix in COMPRESSIBLE else None
                etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
                self._cache[path] = (body, packed, etag)
            body, packed, etag = self._cache[path]
        return path, body, packed, etag


def make_handler(files: Files, log: Path) -> type[BaseHTTPRequestHandler]:
    log_lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            found = files.get(self.path)
            if found is None:
                self._send(404, b"not found", "text/plain", None, None)
                return
            path, body, packed, etag = found
            if self.headers.get("If-None-Match") == etag:
                self._send(304, b"", None, etag, None)
                return
            ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            use_gzip = packed is not None and "gzip" in self.headers.get("Accept-Encoding", "")
            self._send(200, packed if use_gzip and packed else body, ctype, etag, use_gzip)

        def _send(
            self, status: int, body: bytes, ctype: str | None, etag: str | None, gz: bool | None
        ) -> None:
            with log_lock, log.open("a", encoding="utf-8") as out:  # before the answer: a client
                out.write(f"{status} {len(body)} {self.path}\n")  # that has it finds it counted
            self.send_response(status)
            if ctype:
                self.send_header("Content-Type", ctype)
            if etag:
                self.send_header("ETag", etag)
                self.send_header("Cache-Control", "no-cache")
            if gz:
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the LOG file says what was served

    return Handler


def main() -> None:
    folder, port, log = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    if not (folder / "index.html").is_file():
        sys.exit(f"{folder}: no index.html (give the peer's built folder, e.g. its dist/)")
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(Files(folder), log))
    server.daemon_threads = True
    print(f"serving {folder} on http://127.0.0.1:{port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
