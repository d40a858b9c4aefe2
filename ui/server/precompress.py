"""Gzip and brotli copies of the web client's files, made once and kept in the user's cache.

Why: Flet serves its 14 MB web client uncompressed; over a table's Wi-Fi the first load is
mostly ``main.dart.wasm`` and the renderer's wasm, which brotli shrinks to about a third.
Compressing on each request would cost the laptop seconds of CPU per phone, so each file is
compressed once (brotli at its best quality takes tens of seconds for the whole client) into
``<cache>/<flet-web version>/<absolute source path>.br|.gz``. A copy counts only while its
modification time equals its source's, so an upgraded or edited file is never served stale.

``python -m ui.server.precompress`` makes every copy now (``run.sh`` does it after installing);
the server also starts it in a background process (one at a time, a lock file in the cache)
and serves the plain file until its copy is there; ``BEZIQUE_WEB_PRECOMPRESS=off`` stops that.
"""

from __future__ import annotations

import gzip
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ENCODINGS = ("br", "gzip")
SUFFIX = {"br": ".br", "gzip": ".gz"}
COMPRESSIBLE = {
    ".wasm",
    ".js",
    ".mjs",
    ".json",
    ".html",
    ".otf",
    ".ttf",
    ".bin",
    ".css",
    ".svg",
    ".txt",
}
MIN_SIZE = 1024
# Never requested by this app's client: Pyodide (Python in the browser), debug symbols and
# source maps, the third-party licence list (shown only by a licence page the app lacks).
SKIPPED_PARTS = ("pyodide",)
SKIPPED_SUFFIXES = (".symbols", ".map")
# What a phone asks for first (skwasm on Chromium, then CanvasKit for Safari and Firefox).
FIRST = (
    "main.dart.wasm",
    "canvaskit/skwasm.wasm",
    "canvaskit/skwasm.js",
    "main.dart.mjs",
    "flutter_bootstrap.js",
    "assets/fonts/MaterialIcons-Regular.otf",
    "main.dart.js",
    "canvaskit/canvaskit.wasm",
    "canvaskit/canvaskit.js",
)


def cache_root() -> Path:
    """The folder of compressed copies: ``BEZIQUE_WEB_CACHE`` or the user's cache folder."""
    env = os.environ.get("BEZIQUE_WEB_CACHE")
    if env:
        return Path(env)
    import platformdirs
    from flet_web.version import version  # type: ignore[import-untyped]

    return Path(platformdirs.user_cache_dir("bezique-referee", appauthor=False)) / f"web-{version}"


def copy_path(root: Path, source: Path, encoding: str) -> Path:
    """Where the ``encoding`` copy of ``source`` lives under ``root``."""
    absolute = source.resolve()
    return root.joinpath(*absolute.parts[1:]).with_name(absolute.name + SUFFIX[encoding])


def fresh_copy(root: Path, source: Path, encoding: str) -> Path | None:
    """The copy if it was made from this very version of ``source``, else ``None``."""
    copy = copy_path(root, source, encoding)
    try:
        return copy if copy.stat().st_mtime_ns == source.stat().st_mtime_ns else None
    except OSError:
        return None


def compressible(path: Path) -> bool:
    return (
        path.suffix.lower() in COMPRESSIBLE
        and not path.name.endswith(SKIPPED_SUFFIXES)
        and not any(p in SKIPPED_PARTS for p in path.parts)
    )


def files_to_compress(web_dirs: Iterable[Path]) -> Iterator[Path]:
    """Every compressible file of the web client, the ones a phone loads first first."""
    seen: set[Path] = set()
    dirs = list(web_dirs)
    for name in FIRST:
        for d in dirs:
            p = d / name
            if p.is_file() and p not in seen:
                seen.add(p)
                yield p
    for d in dirs:
        for p in sorted(d.rglob("*")):
            big = p.is_file() and p.stat().st_size >= MIN_SIZE
            if p not in seen and big and compressible(p.relative_to(d)):
                seen.add(p)
                yield p


def compress_bytes(data: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    import brotli  # type: ignore[import-untyped]

    return bytes(brotli.compress(data, quality=11))


def make_copy(root: Path, source: Path, encoding: str) -> Path | None:
    """Write one compressed copy atomically (another server may be writing the same one);
    ``None`` when compressing does not make it smaller."""
    if (done := fresh_copy(root, source, encoding)) is not None:
        return done
    data = source.read_bytes()
    packed = compress_bytes(data, encoding)
    if len(packed) >= len(data):
        return None
    copy = copy_path(root, source, encoding)
    copy.parent.mkdir(parents=True, exist_ok=True)
    tmp = copy.with_name(f"{copy.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(packed)
    st = source.stat()
    os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(tmp, copy)
    return copy


def compress_all(web_dirs: Iterable[Path], root: Path | None = None) -> int:
    """Make every missing copy: gzip of everything first (fast), then brotli. Returns how
    many files were compressed; a file that cannot be read or written is skipped and logged
    (the plain file is still served)."""
    root = root or cache_root()
    files = list(files_to_compress(web_dirs))
    made = 0
    root.mkdir(parents=True, exist_ok=True)
    with (root / ".lock").open("w") as lock:
        if not _try_lock(lock):  # one compressor at a time: servers started together
            return 0  # would repeat the same work
        for encoding in ("gzip", "br"):
            for f in files:
                try:
                    if fresh_copy(root, f, encoding) is None and make_copy(root, f, encoding):
                        made += 1
                except OSError as exc:
                    log.warning("could not compress %s (%s): it is served as it is", f, exc)
    return made


def _try_lock(fh: Any) -> bool:
    """An exclusive lock on an open file, without waiting (where the system has flock)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system: no lock, the work is repeatable
        return True
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def start_background() -> subprocess.Popen[bytes] | None:
    """Compress in a separate low-priority process (``nice`` 10), so the server answers at
    once and its sessions never wait for the interpreter lock; ``None`` when that cannot be
    started (the plain files are served)."""

    def lower_priority() -> None:
        os.nice(10)

    if os.environ.get("BEZIQUE_WEB_PRECOMPRESS", "").lower() in ("0", "off", "no"):
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "ui.server.precompress", "--quiet"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            preexec_fn=lower_priority if hasattr(os, "nice") else None,
        )
    except OSError as exc:
        log.warning("could not start compressing the web client: %s", exc)
        return None


def web_client_dirs(assets_dir: str | None) -> list[Path]:
    """Flet's web client folder and the app's own assets."""
    from flet_web import get_package_web_dir  # type: ignore[import-untyped]

    dirs = [Path(get_package_web_dir())]
    if assets_dir:
        dirs.append(Path(assets_dir))
    return dirs


def main(argv: list[str] | None = None) -> None:
    """Make every compressed copy now (after installing, so the first phone gets them)."""
    from ui.main import ASSETS_DIR

    made = compress_all(web_client_dirs(ASSETS_DIR))
    if "--quiet" not in (argv if argv is not None else sys.argv[1:]):
        print(f"web client: {made} compressed copies made in {cache_root()}")


if __name__ == "__main__":
    main()
