// Bezique Referee (scripts/build_phone.py): Pyodide starts from this build's Python image
// when the phone has made one (python-image.js), and the usual way otherwise. An image
// that does not restore is deleted and the start goes on without it: a start never fails
// for want of an image.
//
// The image (40 MB) is read from the cache while Pyodide's WebAssembly is compiled (from
// V8's code cache on a phone that started before) and its JavaScript imported: loadPyodide
// waits for the image only when it makes the interpreter's memory. One after the other,
// the read and the compile were a third of the start before Python runs.
async function beziqueLoad(loadPyodide, options) {
  // The packages zip and the app archive are read from the cache while Pyodide loads
  // (worker-boot.js takes them).
  self.beziquePackages = fetch(new URL("packages.zip", self.location.href));
  self.beziqueApp = fetch(new URL("app.zip", self.location.href));
  beziqueCompileEarly();
  const cacheName = "bezique-image-__BUILD_ID__";
  const key = new URL("__bezique_image__", self.location.href).href;
  console.log("bezique-mark image-asked " + Date.now());
  let stored = null;
  try {
    stored = await (await caches.open(cacheName)).match(key);
  } catch (error) {
    stored = null; // no cache in this browser: the usual start
  }
  if (stored) {
    const image = stored.arrayBuffer().then((buffer) => {
      console.log("bezique-mark image-read " + Date.now());
      const whole = beziqueUnpackPages(new Uint8Array(buffer)); // image-pages.js
      if (!whole) {
        console.warn("Bezique Referee: the Python image is damaged, starting without it");
        throw new Error("the Python image is damaged");
      }
      console.log("bezique-mark image-expanded " + Date.now());
      return whole;
    });
    image.catch(() => {}); // its failure is loadPyodide's, below
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

// Pyodide fetches pyodide.asm.wasm and compiles it only once the image is in memory; this
// starts the compile at once and hands the compiled module to Pyodide's instantiation. Any
// failure here leaves Pyodide its own fetch and compile.
function beziqueCompileEarly() {
  const wasmUrl = new URL("pyodide.asm.wasm", new URL(self.pyodideUrl, self.location.href)).href;
  const realFetch = self.fetch;
  const compiled = WebAssembly.compileStreaming(realFetch(wasmUrl)).then((module) => {
    console.log("bezique-mark wasm-compiled " + Date.now());
    return module;
  });
  compiled.catch(() => {});
  const placeholder = Symbol("bezique-early-wasm");
  self.fetch = function (resource, init) {
    if (String(resource) === wasmUrl) {
      const response = new Response(new Uint8Array(0), {
        headers: { "Content-Type": "application/wasm" },
      });
      response[placeholder] = true;
      return Promise.resolve(response);
    }
    return realFetch.call(self, resource, init);
  };
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    const response = await source;
    if (response && response[placeholder]) {
      let module = null;
      try {
        module = await compiled;
      } catch (error) {
        console.warn("Bezique Referee: early compile failed, Pyodide compiles:", error);
      }
      if (module) {
        const instance = await WebAssembly.instantiate(module, imports);
        console.log("bezique-mark wasm-instantiated " + Date.now());
        return { module, instance };
      }
      return instantiateStreaming.call(WebAssembly, realFetch(wasmUrl), imports);
    }
    return instantiateStreaming.call(WebAssembly, response, imports);
  };
}
