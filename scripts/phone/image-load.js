// Bezique Referee (scripts/build_phone.py): Pyodide starts from this build's Python image
// when the phone has made one (python-image.js), and the usual way otherwise. An image
// that does not restore is deleted and the start goes on without it: a start never fails
// for want of an image.
async function beziqueLoad(loadPyodide, options) {
  // The packages zip and the app archive are read from the cache while Pyodide loads
  // (worker-boot.js takes them).
  self.beziquePackages = fetch(new URL("packages.zip", self.location.href));
  self.beziqueApp = fetch(new URL("app.zip", self.location.href));
  const cacheName = "bezique-image-__BUILD_ID__";
  const key = new URL("__bezique_image__", self.location.href).href;
  let image = null;
  console.log("bezique-mark image-asked " + Date.now());
  try {
    const res = await (await caches.open(cacheName)).match(key);
    if (res) image = new Uint8Array(await res.arrayBuffer());
  } catch (error) {
    image = null; // no cache in this browser: the usual start
  }
  if (image) {
    console.log("bezique-mark image-read " + Date.now());
    image = beziqueUnpackPages(image); // image-pages.js: null when damaged
    if (!image) {
      console.warn("Bezique Referee: the Python image is damaged, starting without it");
      try { await caches.delete(cacheName); } catch (e) { /* gone already */ }
    }
  }
  if (image) {
    console.log("bezique-mark image-expanded " + Date.now());
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: image });
      console.log("bezique-mark image-restored " + Date.now());
      return py;
    } catch (error) {
      console.warn("Bezique Referee: the Python image did not restore, starting without it:", error);
      try { await caches.delete(cacheName); } catch (e) { /* gone already */ }
    }
  }
  return loadPyodide(options);
}
