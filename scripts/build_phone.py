"""Build the phone app: one static folder that runs the whole app in the phone's browser on
Pyodide (Flet's static mode), installable from a link and working offline afterwards.

    .venv/bin/python scripts/build_phone.py [--out dist/phone] [--base /]

Everything comes from the package registries (PyPI) and from the installed ``flet-web`` wheel,
which already holds the compiled Flet web client and the Pyodide 314 core: nothing is downloaded
from GitHub or a CDN, at build time or at run time. Why it does not call ``flet publish``
(docs/phone.md has the details): with ``--no-cdn`` it still downloads Pyodide, it writes a
module path the browser rejects, it leaves micropip to ask PyPI for every dependency on each
start, and Flet's service worker unregisters itself. This script does what publish does
(copy the client, patch ``index.html`` with Flet's own ``patch_index_html``, pack the app)
and then:

- packs the Python dependencies from PyPI with no package manager running on the phone: most
  as bytecode in ``packages.zip`` (imported in place), the compiled extensions and Babel (en/ru
  locale data only) with the app in ``app.zip``, which Flet's worker unpacks; bytecode made by
  Pyodide's own CPython under Node (``phone/compile.mjs``), the standard library's too;
- keeps only the renderer files a browser can choose (skwasm for Chromium, CanvasKit for the
  others), no source maps, no KaTeX or Cupertino fonts;
- adds a web manifest per language with the app's icons, and a service worker
  (``phone/sw.js``) that keeps every file for offline use and picks up a new build;
- starts Python beside Flutter's engine (``phone/offline.js``) and mounts the browser's
  IndexedDB under the app's data folder before the app starts (``phone/worker-boot.js``;
  ui/browser_storage.py keeps it in step after each write);
- writes ``offline.json`` (every file, its size, hash and group) and ``.br``/``.gz`` copies
  for hosts that serve precompressed files.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHONE = Path(__file__).resolve().parent / "phone"
PYODIDE_VERSION = "314.0.7"
PYODIDE_PLATFORM = "pyemscripten_2026_0_wasm32"
APP_MODULE = "main"  # the archive's main.py, which Flet's worker runs

# The distributions the phone build runs, each pinned to the version installed here, so the
# phone runs what the tests ran. Server-only ones (flet-web, uvicorn, psutil, brotli, segno,
# reportlab, rapidfuzz, platformdirs, httpx, oauthlib) are left out: the code that needs them
# is not reached in the browser (ui/runtime.py).
DISTRIBUTIONS = (
    "flet",
    "flet-charts",
    "repath",
    "six",
    "msgpack",
    "sqlalchemy",
    "typing-extensions",
    "alembic",
    "mako",
    "babel",
    "cyrtranslit",
)
# MarkupSafe (alembic → Mako) publishes no wasm wheel; its pure-Python fallback is used.
PURE_FROM_VENV = ("markupsafe",)
# Parts of packages that only their own test suites or type checkers import.
UNUSED = (
    "sqlalchemy/testing/",
    "sqlalchemy/ext/mypy/",
    "alembic/testing/",
)
BABEL_LOCALES = ("root", "en", "en_001", "en_150", "ru")

# Files of the client that no browser loads in this app: other renderer variants, debug
# symbols and maps, fonts it never draws, Flet's service worker stub.
CLIENT_SKIP = re.compile(
    r"(\.symbols$|\.map$|^canvaskit/(wimp|skwasm_heavy)\.|^canvaskit/experimental_webparagraph/"
    r"|^assets/packages/(flutter_math_fork|cupertino_icons)/|^assets/NOTICES$"
    r"|^flutter_service_worker\.js$|^manifest\.json$|^pyodide/)"
)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Which renderer files belong to which browser (flutter_bootstrap.js decides at run time);
# the service worker keeps only the group the phone's browser used.
RENDERER_GROUPS = {
    "skwasm": ("main.dart.mjs", "main.dart.wasm", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm"),
    "canvaskit-chromium": (
        "main.dart.js",
        "canvaskit/chromium/canvaskit.js",
        "canvaskit/chromium/canvaskit.wasm",
    ),
    "canvaskit": ("main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm"),
}
NOT_CACHED = ("offline.json", "sw.js", "version.json")
GZIP_SUFFIXES = (".js", ".mjs", ".wasm", ".json", ".html", ".zip", ".ttf", ".otf", ".txt")


class BuildError(RuntimeError):
    """Something the build needs is missing or not as expected (a Flet update moved it)."""


def log(msg: str) -> None:
    print(f"build-phone: {msg}", flush=True)


def web_client_dir() -> Path:
    import flet_web

    return Path(flet_web.__file__).resolve().parent / "web"


# ------------------------------------------------------------------------------------------
# Python packages


def download_wheels(dest: Path) -> list[Path]:
    """The pinned distributions for Pyodide's platform (wasm wheels where a package has
    compiled parts, pure wheels otherwise), from PyPI."""
    dest.mkdir(parents=True, exist_ok=True)
    pins = [f"{name}=={version(name)}" for name in DISTRIBUTIONS]
    cmd = [
        sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
        "--only-binary=:all:", "--platform", PYODIDE_PLATFORM, "--platform", "any",
        "--python-version", "3.14", "--implementation", "cp", "--abi", "cp314",
        "-d", str(dest), *pins,
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"pip download failed:\n{done.stderr[-2000:]}")
    wheels = sorted(dest.glob("*.whl"))
    names = {_dist_name(w) for w in wheels}
    missing = {n.replace("-", "_").lower() for n in DISTRIBUTIONS} - names
    if missing:
        raise BuildError(f"no wheel for {sorted(missing)}")
    return wheels


def _dist_name(wheel: Path) -> str:
    return wheel.name.split("-")[0].lower()


def _keep_in_package(dist: str, member: str) -> bool:
    """What of a wheel the phone needs: no metadata records, tests, type stubs; Babel's
    locale data only for the app's languages."""
    if member.endswith((".pyi", "py.typed")) or "/tests/" in member or member.startswith(UNUSED):
        return False
    if dist == "babel" and member.startswith("babel/locale-data/"):
        stem = member.rsplit("/", 1)[-1].removesuffix(".dat")
        return stem in BABEL_LOCALES
    return not (
        ".dist-info/" in member and not member.endswith(("METADATA", "entry_points.txt"))
    )


def site_packages(wheels: Iterable[Path]) -> dict[str, bytes]:
    """``{path under __pypackages__: bytes}`` from the wheels, plus MarkupSafe's pure part."""
    files: dict[str, bytes] = {}
    for wheel in wheels:
        dist = _dist_name(wheel)
        with zipfile.ZipFile(wheel) as zf:
            for info in zf.infolist():
                if info.is_dir() or not _keep_in_package(dist, info.filename):
                    continue
                files[info.filename] = zf.read(info)
    for name in PURE_FROM_VENV:
        module = __import__(name)
        pkg = Path(module.__file__).resolve().parent
        for f in sorted(pkg.rglob("*.py")):
            files[f"{name}/{f.relative_to(pkg).as_posix()}"] = f.read_bytes()
    return files


def app_files() -> dict[str, bytes]:
    """The app itself: the engine, storage, the UI (without the server side, which the
    browser cannot run) and the data files, plus the entry module."""
    files: dict[str, bytes] = {}
    for package in ("referee", "ui"):
        for f in sorted((ROOT / package).rglob("*")):
            rel = f.relative_to(ROOT).as_posix()
            if (
                f.is_dir()
                or "__pycache__" in rel
                or rel.startswith(("ui/server/", "ui/assets/", "referee/club/"))
                or rel in NOT_ON_THE_PHONE
                or f.suffix in (".pyc", ".pyi")
            ):
                continue
            files[rel] = f.read_bytes()
    for f in sorted((ROOT / "data").rglob("*")):
        if f.is_file():
            files[f"referee/_data/{f.relative_to(ROOT / 'data').as_posix()}"] = f.read_bytes()
    files["referee/storage/tables.json"] = frozen_tables()
    files[f"{APP_MODULE}.py"] = (
        b"import sys\n\n"
        b"sys.path.insert(1, '/home/pyodide/packages.zip')  # the worker wrote it there\n\n"
        b"from ui.phone_app import run  # noqa: E402\n\nrun()\n"
    )
    return files


def frozen_tables() -> bytes:
    """The storage's tables as the phone loads them (referee/storage/tables.py): made here from
    the SQLModel models, so the phone's start needs neither SQLModel nor pydantic."""
    sys.path.insert(0, str(ROOT))
    from referee.storage.models import METADATA
    from referee.storage.tables import freeze

    return freeze(METADATA)


# The app's modules a phone never runs: the simulator (tests' generator) and the command lines;
# the club's engine (referee/club/, above) too, until a phone screen uses it: its openskill is
# not among the phone's distributions; the SQLModel models, whose tables the phone gets frozen
# (frozen_tables), with neither SQLModel nor pydantic among its distributions.
NOT_ON_THE_PHONE = frozenset(
    {
        "referee/simulate.py",
        "referee/simulate_cli.py",
        "referee/cli.py",
        "referee/storage/cli.py",
        "referee/storage/models.py",
    }
)
# Packages that must stay files: compiled extensions (a zip cannot hold them) and Babel,
# which opens its locale data by path. The rest is imported straight from packages.zip.
AS_FILES = ("babel/", "msgpack/")


def split_trees(app: dict[str, bytes], packages: dict[str, bytes], tree: Path) -> None:
    """``tree/tar``: what the app archive (app.zip) unpacks (the app, and in
    ``__pypackages__`` the packages that must be files); ``tree/zip``: packages.zip."""
    for name, data in app.items():
        _write(tree / "tar" / name, data)
    for name, data in packages.items():
        part = "tar/__pypackages__" if name.startswith(AS_FILES) else "zip"
        _write(tree / part / name, data)


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def precompile(tree: Path) -> bool:
    """Bytecode made by Pyodide's own CPython under Node (scripts/phone/compile.mjs): a phone
    then never compiles the ~1,000 modules at start (about two thirds of the imports' time).
    Without Node the build ships sources, which work, only slower to start."""
    node = shutil.which("node")
    if node is None:
        log("no Node.js here: shipping sources, not bytecode (the app starts slower)")
        return False
    done = subprocess.run(
        [node, str(PHONE / "compile.mjs"), str(web_client_dir() / "pyodide"), str(tree)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BuildError(f"compiling with Pyodide failed:\n{done.stderr[-2000:]}")
    log(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "compiled")
    return True


def stored_zip(items: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip without compression of its own: the host compresses it on the wire (brotli
    packs a stored zip far better than a deflated one), the cache keeps it plain, and the
    phone reads or unpacks it with no inflating at each start."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in items:
            zf.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def folder_items(folder: Path) -> Iterable[tuple[str, bytes]]:
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            yield f.relative_to(folder).as_posix(), f.read_bytes()


def unpack_stdlib(source: Path, dest: Path) -> None:
    """Pyodide's standard library zip (sources) into ``dest``, to be compiled with the rest
    and packed again as a stored zip under the same name."""
    with zipfile.ZipFile(source) as zf:
        for info in zf.infolist():
            if not info.is_dir():
                _write(dest / info.filename, zf.read(info))


# ------------------------------------------------------------------------------------------
# The web client


def copy_client(src: Path, out: Path) -> None:
    for f in sorted(src.rglob("*")):
        rel = f.relative_to(src).as_posix()
        if f.is_dir() or CLIENT_SKIP.search(rel):
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
    for name in PYODIDE_FILES:
        (out / "pyodide").mkdir(exist_ok=True)
        shutil.copyfile(src / "pyodide" / name, out / "pyodide" / name)
    # The font manifest the server mode serves: no math or Cupertino fonts, no-CDN Roboto.
    sys.path.insert(0, str(ROOT))
    from ui.server.web_client import trimmed_font_manifest

    (out / "assets/FontManifest.json").write_text(json.dumps(trimmed_font_manifest(src)), "utf-8")
    # The app's own assets (the suit font) at the root, where Flet's client looks for them.
    for f in sorted((ROOT / "ui/assets").rglob("*")):
        if f.is_file():
            target = out / f.relative_to(ROOT / "ui/assets")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)


def _replace_once(text: str, old: str, new: str, where: str) -> str:
    if text.count(old) != 1:
        raise BuildError(f"{where}: expected one {old[:60]!r} (has Flet changed?)")
    return text.replace(old, new)


def patch_client(out: Path, base: str, build_id: str) -> None:
    """Flet's own index patch (static mode, no CDN), then the fixes and additions above."""
    from flet_web.patch_index import patch_index_html

    index = out / "index.html"
    patch_index_html(
        str(index),
        base_href=base,
        app_name="Bezique Referee",
        app_description="Bezique score keeper, referee and rule book",
        pyodide=True,
        pyodide_script_path=f"{APP_MODULE}.py",
        pyodide_version=PYODIDE_VERSION,
        app_package_url="app.zip",
        no_cdn=True,
    )
    page = index.read_text("utf-8")
    # Flet writes a bare module specifier; the worker's import() needs a path.
    page = _replace_once(
        page,
        'flet.pyodideUrl="pyodide/pyodide.mjs";',
        f'flet.pyodideUrl="{base}pyodide/pyodide.mjs";',
        "index.html",
    )
    page = _replace_once(
        page,
        '<link rel="manifest" href="manifest.json">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        "index.html (manifest)",
    )
    page = _replace_once(
        page,
        '<link rel="apple-touch-icon" href="icons/apple-touch-icon-192.png">',
        '<link rel="apple-touch-icon" href="icons/apple-touch-icon-192.png">\n'
        f'  <meta name="theme-color" content="{THEME}">',
        "index.html (icon)",
    )
    boot = (PHONE / "offline.js").read_text("utf-8").replace("__BUILD_ID__", build_id)
    page = _replace_once(
        page,
        '<script src="python.js"></script>',
        f'<script>\n{boot}\n</script>\n  <script src="python.js"></script>',
        "index.html (python.js)",
    )
    index.write_text(page, "utf-8")
    # Flutter's loader would register Flet's self-unregistering worker over ours.
    bootstrap = out / "flutter_bootstrap.js"
    text = bootstrap.read_text("utf-8")
    text, n = re.subn(
        r"\n\s*serviceWorkerSettings: \{\s*serviceWorkerVersion: [^}]*\},", "", text, count=1
    )
    if n != 1 or 'serviceWorkerVersion: "' in text:
        raise BuildError("flutter_bootstrap.js: serviceWorkerSettings not removed")
    bootstrap.write_text(text, "utf-8")
    # The worker: the browser's storage mounted before Python starts the app.
    worker = out / "python-worker.js"
    text = worker.read_text("utf-8")
    sys.path.insert(0, str(ROOT))
    from ui.browser_storage import DATA_DIR  # the app's data folder, kept in IndexedDB

    mount = (PHONE / "worker-boot.js").read_text("utf-8").replace("__DATA_DIR__", DATA_DIR)
    text = _replace_once(
        text,
        '        self.pyodide.registerJsModule("flet_js", flet_js);',
        mount + '\n        self.pyodide.registerJsModule("flet_js", flet_js);',
        "python-worker.js",
    )
    # Python from this build's image when the phone has made one (python-image.js).
    text = _replace_once(
        text,
        "self.pyodide = await loadPyodide({",
        "self.pyodide = await beziqueLoad(loadPyodide, {",
        "python-worker.js (loadPyodide)",
    )
    # The app archive unpacked by JavaScript (stored-zip.js) when it could be.
    text = _replace_once(
        text,
        '        if "script" not in py_args:',
        '        if getattr(flet_js, "bezique_app_unpacked", False):\n'
        "            pass  # laid out by stored-zip.js\n"
        '        elif "script" not in py_args:',
        "python-worker.js (app archive)",
    )
    image_load = (PHONE / "image-load.js").read_text("utf-8")
    unpack = (PHONE / "stored-zip.js").read_text("utf-8")
    pages = (PHONE / "image-pages.js").read_text("utf-8")
    kept = (PHONE / "image-store.js").read_text("utf-8").replace("__BUILD_ID__", build_id)
    worker.write_text("\n".join((pages, kept, image_load, unpack, text)), "utf-8")
    maker = (PHONE / "python-image.js").read_text("utf-8")
    (out / "python-image.js").write_text("\n".join((maker, pages, kept, unpack)), "utf-8")
    # Pyodide 314's snapshot restore copies the image into the module's memory without
    # growing it first (the memory is the module's own export, so loadPyodide's
    # INITIAL_MEMORY is ignored): grow it to the image's size, as upstream means it to be.
    core = out / "pyodide" / "pyodide.asm.mjs"
    core.write_text(
        _replace_once(
            core.read_text("utf-8"),
            "Module.HEAP8.set(t)",
            "(Module.HEAP8.length<t.length&&growMemory(t.length),Module.HEAP8.set(t))",
            "pyodide.asm.mjs (restoreSnapshot)",
        ),
        "utf-8",
    )


THEME = "#2E7D32"
# Every request stays on the host the app came from: Flet's client asks a CDN for a Rive
# runtime the app never uses, and the policy stops the browser from sending it.
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' "
    "blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' "
    "data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'"
)
def manifest_names(lang: str) -> tuple[str, str, str]:
    """The installed app's name, short name and description, from the translation files (the
    title the app shows, so the icon and the screen say the same)."""
    sys.path.insert(0, str(ROOT))
    from ui.i18n import Translator

    t = Translator(lang)
    return t("app.title"), t("phone.app_short"), t("phone.app_description")


def write_manifests(out: Path, base: str) -> None:
    """A web manifest per language (the page links the one of the phone's language): the
    installed app's name is the player's language."""
    for lang in ("en", "ru"):
        name, short, description = manifest_names(lang)
        manifest = {
            "id": base,
            "name": name,
            "short_name": short,
            "description": description,
            "lang": lang,
            "start_url": base,
            "scope": base,
            "display": "standalone",
            "background_color": "#FFFFFF",
            "theme_color": THEME,
            "orientation": "portrait",
            "icons": [
                {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
                {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
                {
                    "src": "icons/icon-maskable-512.png",
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        }
        (out / f"manifest.{lang}.json").write_text(
            json.dumps(manifest, ensure_ascii=False, indent=1), "utf-8"
        )
    icons = out / "icons"
    for f in sorted((PHONE / "icons").glob("*.png")):
        shutil.copyfile(f, icons / f.name)


def file_list(out: Path) -> list[dict[str, object]]:
    """Every file the service worker may keep, with its size and group: ``common`` files are
    kept on every phone, a renderer group only on the phones whose browser uses it."""
    owner: dict[str, str] = {}
    for group, names in RENDERER_GROUPS.items():
        for n in names:
            owner.setdefault(n, group)
    entries = []
    for f in sorted(out.rglob("*")):
        rel = f.relative_to(out).as_posix()
        if f.is_dir() or rel in NOT_CACHED or rel.endswith((".gz", ".br")):
            continue
        groups = [g for g, names in RENDERER_GROUPS.items() if rel in names]
        digest = hashlib.sha256(f.read_bytes()).hexdigest()[:16]  # an update reuses the same
        entries.append(
            {"path": rel, "size": f.stat().st_size, "sha": digest, "groups": groups or ["common"]}
        )
    return entries


def build_id_of(folders: Sequence[Path], base: str) -> str:
    """A hash of every file that goes into the build and of its base path: a new build has a
    new id exactly when something a phone would run changed. A file among ``folders`` counts
    as itself (this script: its patches change what the phone runs)."""
    h = hashlib.sha256(base.encode())
    for folder in folders:
        if folder.is_file():
            h.update(hashlib.sha256(folder.read_bytes()).digest())
            continue
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                h.update(f.relative_to(folder).as_posix().encode())
                h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()[:16]


def precompress(out: Path, kinds: Sequence[str] = ("gz", "br")) -> None:
    """``.br`` and ``.gz`` beside each compressible file, for hosts that serve precompressed
    copies (nginx's brotli_static/gzip_static, Netlify, the benchmark's server): brotli takes
    a first visit from 17 to 13 MB. GitHub Pages compresses by itself (gzip)."""
    import brotli  # type: ignore[import-untyped]

    for f in sorted(out.rglob("*")):
        if f.is_file() and f.suffix in GZIP_SUFFIXES and f.stat().st_size > 1024:
            raw = f.read_bytes()
            copies = []
            if "gz" in kinds:
                copies.append((".gz", gzip.compress(raw, compresslevel=9, mtime=0)))
            if "br" in kinds:  # quality 11: slow (minutes for the build), 10% smaller
                copies.append((".br", brotli.compress(raw, quality=11)))
            for suffix, data in copies:
                if len(data) < len(raw) * 0.9:
                    f.with_name(f.name + suffix).write_bytes(data)


def build(
    out: Path,
    base: str = "/",
    wheels_dir: Path | None = None,
    compress: Sequence[str] = ("gz", "br"),
    stamp: str = "",
) -> dict[str, object]:
    """The whole build into ``out`` (replaced); returns a summary for the log and tests."""
    if not base.startswith("/") or not base.endswith("/"):
        raise BuildError(f"--base must start and end with '/': {base!r}")
    src = web_client_dir()
    if not (src / "pyodide" / "pyodide.asm.wasm").exists():
        raise BuildError(f"{src}: no Pyodide core in the flet-web wheel")
    stage = Path(tempfile.mkdtemp(prefix="bezique-phone-", dir=out.parent))
    try:
        log("copying the Flet web client and Pyodide")
        copy_client(src, stage)
        with tempfile.TemporaryDirectory() as tmp:
            log("getting the packages for Pyodide (PyPI)")
            wheels = download_wheels(wheels_dir or Path(tmp))
            packages = site_packages(wheels)
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            split_trees(app_files(), packages, tree)
            unpack_stdlib(src / "pyodide/python_stdlib.zip", tree / "stdlib")
            precompile(tree)
            (stage / "app.zip").write_bytes(stored_zip(folder_items(tree / "tar")))
            (stage / "packages.zip").write_bytes(stored_zip(folder_items(tree / "zip")))
            (stage / "pyodide/python_stdlib.zip").write_bytes(
                stored_zip(folder_items(tree / "stdlib"))
            )
        write_manifests(stage, base)
        # One id for the page, the service worker and the file list: the sources' hash.
        build_id = build_id_of([stage, PHONE, Path(__file__).resolve()], base + stamp)
        patch_client(stage, base, build_id)
        sw = (PHONE / "sw.js").read_text("utf-8")
        (stage / "sw.js").write_text(sw.replace("__BUILD_ID__", build_id), "utf-8")
        files = file_list(stage)
        (stage / "offline.json").write_text(
            json.dumps({"build": build_id, "base": base, "files": files}, indent=0), "utf-8"
        )
        precompress(stage, compress)
        if out.exists():
            shutil.rmtree(out)
        os.replace(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    common = sum(int(str(f["size"])) for f in files if "common" in f["groups"])  # type: ignore[operator]
    return {"out": str(out), "build": build_id, "files": len(files), "common_bytes": common}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "dist" / "phone"), help="the folder to write")
    p.add_argument(
        "--base", default="/", help="the path the folder is served under (GitHub Pages: /REPO/)"
    )
    p.add_argument("--wheels", default=None, help="keep the downloaded wheels in this folder")
    p.add_argument(
        "--stamp", default="", help="a label that makes this build new (a release name)"
    )
    p.add_argument(
        "--compress",
        default="gz,br",
        help="precompressed copies to write: gz,br (default), gz (quick, for tests) or none",
    )
    args = p.parse_args(argv)
    out = Path(args.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        kinds = [k for k in args.compress.split(",") if k in ("gz", "br")]
        wheels = Path(args.wheels) if args.wheels else None
        summary = build(out, args.base, wheels, kinds, args.stamp)
    except BuildError as exc:
        print(f"build-phone: {exc}", file=sys.stderr)
        return 1
    log(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
