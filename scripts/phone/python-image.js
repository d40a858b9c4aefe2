// Bezique Referee (scripts/build_phone.py; the build id comes with image-store.js): makes
// this build's Python image on the phone, once, in the background, after a start that had
// the app ready offline.
//
// The image is Pyodide's memory snapshot (its experimental `_makeSnapshot` and
// `makeMemorySnapshot`) of an interpreter that has already imported what every start imports
// and loaded the app's data (ui/phone_app.py `prepare_image`). The next start restores it
// (python-worker.js, `beziqueLoad`) instead of starting Python and importing all that again.
// It is tens of MB of memory, so it is made on the phone, never downloaded, and kept
// (image-store.js: the origin's private file system, else the browser's cache) beside the
// build it belongs to; a new build makes a new one.
//
// The page (offline.js) posts { pyodideUrl }; the answer is { type: "image-ready", bytes,
// ms } or { type: "image-skipped", why } / { type: "image-failed", why }.
"use strict";

async function bytes(name) {
  const res = await fetch(new URL(name, self.location.href));
  if (!res.ok) throw new Error(name + ": HTTP " + res.status);
  return new Uint8Array(await res.arrayBuffer());
}

self.onmessage = async (event) => {
  const t0 = Date.now();
  try {
    const { loadPyodide } = await import(event.data.pyodideUrl);
    const py = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: console.warn });
    // The same files at the same places as a real start (python-worker.js): the packages
    // zip, and the app archive unpacked in the home folder (stored-zip.js), which is also the
    // working folder.
    py.FS.writeFile("/home/pyodide/packages.zip", await bytes("packages.zip"));
    const app = await bytes("app.zip");
    if (!beziqueUnpackStored(py.FS, app, "/home/pyodide")) {
      py.FS.writeFile("/home/pyodide/app.zip", app);
      py.runPython(`
import zipfile as _zipfile
with _zipfile.ZipFile("/home/pyodide/app.zip") as _zf:
    _zf.extractall("/home/pyodide")
del _zipfile, _zf
`);
    }
    const problems = py.runPython(`
import os as _os, sys as _sys
_os.chdir("/home/pyodide")
_sys.path.insert(0, "__pypackages__")
_sys.path.insert(1, "/home/pyodide/packages.zip")
from ui.phone_app import prepare_image as _prepare
_problems = ", ".join(_prepare())
del _os, _sys, _prepare
_problems
`);
    py.runPython("del _problems");
    if (problems) {
      // The same for every start of this build: remembered, so no start tries again.
      const cache = await caches.open(BEZIQUE_IMAGE_CACHE); // image-store.js
      await cache.put(beziqueImageKey() + "_skipped", new Response(problems));
      self.postMessage({ type: "image-skipped", why: "loaded: " + problems });
      return;
    }
    const whole = py.makeMemorySnapshot();
    const image = beziquePackPages(whole); // image-pages.js: without its empty pages
    const where = await beziqueImageWrite(image); // image-store.js: OPFS, else the cache
    self.postMessage({
      type: "image-ready", bytes: image.length, whole: whole.length, ms: Date.now() - t0, where,
    });
  } catch (error) {
    self.postMessage({ type: "image-failed", why: String(error && (error.message || error)) });
  } finally {
    self.close();
  }
};
