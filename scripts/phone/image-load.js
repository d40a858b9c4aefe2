// Bezique Referee (scripts/build_phone.py): Pyodide starts from this build's Python image
// when the phone has made one (python-image.js), and the usual way otherwise. An image
// that does not restore is deleted and the start goes on without it: a start never fails
// for want of an image.
//
// The image (40 MB) is read from where it is kept (image-store.js: the private file system,
// else the cache) while Pyodide's WebAssembly is compiled (from V8's code cache on a phone
// that started before) and its JavaScript imported: loadPyodide waits for the image only when
// it makes the interpreter's memory. One after the other, the read and the compile were a
// third of the start before Python runs.
async function beziqueLoad(loadPyodide, options) {
  // The packages zip and the app archive are read from the cache while Pyodide loads
  // (worker-boot.js takes them).
  self.beziquePackages = fetch(new URL("packages.zip", self.location.href));
  self.beziqueApp = fetch(new URL("app.zip", self.location.href));
  beziqueCompileEarly();
  console.log("bezique-mark image-asked " + Date.now());
  let found = null;
  try {
    found = await beziqueImageFind(); // image-store.js: OPFS, else the cache
  } catch (error) {
    found = null; // no storage to look in: the usual start
  }
  if (found) {
    const image = beziqueImageLoad(found);
    image.catch(() => {}); // its failure is loadPyodide's, below
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: image });
      console.log("bezique-mark image-restored " + Date.now());
      return py;
    } catch (error) {
      // Read but not restored, or damaged: deleted. Not readable now (another start holds
      // the file): kept for the next start.
      const readable = await image.then(() => true, (e) => Boolean(e && e.beziqueDamaged));
      console.warn("Bezique Referee: the Python image did not restore, starting without it:", error);
      if (readable) {
        try { await beziqueImageDrop(); } catch (e) { /* gone already */ }
      }
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
