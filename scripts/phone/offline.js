// Bezique Referee (scripts/build_phone.py): the installed app's manifest in the phone's
// language, the offline cache's progress, and a new build's notice, shown in a small strip
// at the top that never takes a tap (pointer-events: none) and goes away by itself.
(function () {
  "use strict";
  var BUILD = "__BUILD_ID__";
  var ru = /^ru\b/i.test(navigator.language || "");
  var manifest = document.createElement("link");
  manifest.rel = "manifest";
  manifest.href = ru ? "manifest.ru.json" : "manifest.en.json";
  document.head.appendChild(manifest);
  var T = ru ? {
    progress: "Готовим для работы без сети: {done} из {total} МБ",
    ready: "Готово: приложение работает без сети",
    failed: "Не всё сохранено для работы без сети: откройте приложение ещё раз при сети",
    update: "Загружаем обновление: {done} из {total} МБ",
    updateReady: "Обновление готово: оно включится при следующем запуске",
    noWorker: "Этот браузер не сохранит приложение для работы без сети (нужен HTTPS)"
  } : {
    progress: "Getting ready for offline use: {done} of {total} MB",
    ready: "Ready: the app now works offline",
    failed: "Not everything was stored for offline use: open the app again while online",
    update: "Getting the update: {done} of {total} MB",
    updateReady: "An update is ready: it applies the next time the app starts",
    noWorker: "This browser will not keep the app for offline use (it needs HTTPS)"
  };
  var strip = null;
  var hideTimer = null;
  function mb(n) { return (n / 1048576).toFixed(n < 10485760 ? 1 : 0); }
  function say(text, seconds) {
    if (!strip) {
      strip = document.createElement("div");
      strip.id = "bezique-offline";
      strip.setAttribute("role", "status");
      strip.style.cssText = "position:fixed;left:8px;right:8px;top:calc(env(safe-area-inset-top,0px) + 4px);" +
        "z-index:2147483647;pointer-events:none;margin:0 auto;max-width:520px;padding:6px 12px;" +
        "border-radius:16px;background:rgba(32,33,36,.88);color:#fff;" +
        "font:14px/1.3 Roboto,system-ui,sans-serif;text-align:center";
      document.body.appendChild(strip);
    }
    strip.textContent = text;
    strip.style.display = "block";
    clearTimeout(hideTimer);
    if (seconds) hideTimer = setTimeout(function () { strip.style.display = "none"; }, seconds * 1000);
  }
  function fill(text, m) {
    return text.replace("{done}", mb(m.done || 0)).replace("{total}", mb(m.total || 0));
  }
  window.beziqueOffline = { build: BUILD, state: "starting", events: [] };
  // Python starts at once, beside Flutter's engine instead of after it: the page creates
  // Flet's Python worker now with the values python.js would send (they are this build's
  // constants), and hands it to python.js when Flutter asks for it, replaying what the
  // worker said meanwhile. The worker says "initialized" when the app is up.
  var NativeWorker = window.Worker;
  var workerUrl = new URL("python-worker.js", document.baseURI).href;
  var early = null;
  var pythonUp = new Promise(function (resolve) {
    function watch(w) {
      w.addEventListener("message", function (e) {
        if (e.data === "initialized") {
          window.beziqueOffline.pythonUpAt = performance.now();
          resolve();
        }
      });
    }
    // What the worker says before python.js takes it over is kept for python.js: from an
    // image, Python can be up before Flutter's engine asks for it, and a lost
    // "initialized" left the page waiting for ever.
    var earlyHeld = [];
    try {
      early = new NativeWorker(workerUrl, { type: "module" });
      early.onmessage = function (e) { earlyHeld.push(e); };
      watch(early);
      early.postMessage({
        pyodideUrl: flet.pyodideUrl,
        args: {},
        documentUrl: document.URL,
        appPackageUrl: flet.appPackageUrl,
        micropipIncludePre: flet.micropipIncludePre,
        pythonModuleName: flet.pythonModuleName
      });
    } catch (error) {
      early = null;
    }
    function Handed(real) {
      var held = earlyHeld;
      var handler = null;
      real.onmessage = function (e) { if (handler) handler(e); else held.push(e); };
      this.real = real;
      this.initSent = false;
      Object.defineProperty(this, "onmessage", {
        get: function () { return handler; },
        set: function (fn) {
          handler = fn;
          // After python.js's own set-up: it assigns onmessage before it defines what its
          // handler calls on "initialized", so a replay at once would throw.
          queueMicrotask(function () {
            while (handler && held.length) handler(held.shift());
          });
        }
      });
    }
    Handed.prototype.postMessage = function (data, transfer) {
      // python.js's own start message: the worker already started with the same values.
      if (!this.initSent && data && typeof data === "object" && "pyodideUrl" in data) {
        this.initSent = true;
        window.beziqueOffline.flutterArgs = JSON.stringify(data.args || null);
        return;
      }
      this.real.postMessage(data, transfer);
    };
    Handed.prototype.terminate = function () { this.real.terminate(); };
    Handed.prototype.addEventListener = function (t, f, o) { this.real.addEventListener(t, f, o); };
    Handed.prototype.removeEventListener = function (t, f, o) { this.real.removeEventListener(t, f, o); };
    var Watched = function (url, options) {
      if (early && new URL(String(url), document.baseURI).href === workerUrl) {
        var w = early;
        early = null;
        return new Handed(w);
      }
      var fresh = new NativeWorker(url, options);
      if (String(url).indexOf("python-worker.js") >= 0) watch(fresh);
      return fresh;
    };
    Watched.prototype = NativeWorker.prototype;
    window.Worker = Watched;
  });
  if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    window.beziqueOffline.state = "unsupported";
    window.addEventListener("load", function () { say(T.noWorker, 8); });
    return;
  }
  // This build's Python image (python-image.js): once the app is up and ready offline, and
  // the phone has none for this build, a background worker makes it a few seconds later;
  // the next start restores it instead of starting Python from scratch.
  var imageAsked = false;
  function makeImage() {
    var info = window.beziqueOffline;
    var key = new URL("__bezique_image__", document.baseURI).href;
    info.image = "checking";
    // Kept in the private file system (image-store.js), or in the cache by earlier builds.
    var inFiles = (navigator.storage && navigator.storage.getDirectory
      ? navigator.storage.getDirectory()
        .then(function (root) { return root.getDirectoryHandle("python-image"); })
        .then(function (dir) { return dir.getFileHandle("image-" + BUILD); })
        .then(function () { return true; })
      : Promise.resolve(false)).catch(function () { return false; });
    caches.open("bezique-image-" + BUILD)
      .then(function (cache) {
        return Promise.all([cache.match(key), cache.match(key + "_skipped"), inFiles]);
      })
      .then(function (found) {
        if (found[0] || found[2]) { info.image = "present"; return; }
        if (found[1]) { info.image = "image-skipped: this build cannot have one"; return; }
        info.image = "making";
        var maker = new NativeWorker(new URL("python-image.js", document.baseURI).href, { type: "module" });
        maker.onmessage = function (e) {
          var m = e.data || {};
          info.imageInfo = m;
          info.image = m.type === "image-ready" ? "ready" : m.type + ": " + m.why;
        };
        maker.onerror = function (e) { info.image = "image-failed: " + (e.message || "worker error"); };
        maker.postMessage({ pyodideUrl: flet.pyodideUrl });
      })
      .catch(function (error) { info.image = "image-failed: " + error; });
  }
  function imageLater() {
    if (imageAsked) return;
    imageAsked = true;
    pythonUp.then(function () { setTimeout(makeImage, IMAGE_DELAY_MS); });
  }
  var IMAGE_DELAY_MS = 3000; // the first screen and first taps go first
  var updating = false;
  navigator.serviceWorker.addEventListener("message", function (event) {
    var m = event.data || {};
    window.beziqueOffline.events.push(m.type);
    if (m.type === "offline-progress") {
      updating = m.build !== BUILD;
      say(fill(updating ? T.update : T.progress, m));
    } else if (m.type === "offline-ready") {
      if (m.build === BUILD) {
        window.beziqueOffline.state = "ready";
        imageLater();
        if (m.fresh) say(T.ready, 4); else if (strip && !updating) strip.style.display = "none";
      }
    } else if (m.type === "offline-failed") {
      if (m.build === BUILD) window.beziqueOffline.state = "failed";
      say(T.failed, 8);
    }
  });
  // The renderer the browser chose (flutter_bootstrap.js decides): only its files are kept.
  function rendererGroup() {
    var names = performance.getEntriesByType("resource").map(function (e) { return e.name; });
    function used(part) { return names.some(function (n) { return n.indexOf(part) >= 0; }); }
    if (used("main.dart.wasm") || used("canvaskit/skwasm")) return "skwasm";
    if (used("canvaskit/chromium/")) return "canvaskit-chromium";
    return "canvaskit";
  }
  function askToKeep(reg) {
    var worker = navigator.serviceWorker.controller || reg.active;
    if (worker) worker.postMessage({ type: "keep", group: rendererGroup() });
  }
  function updateReady() {
    window.beziqueOffline.state = "update-ready";
    say(T.updateReady, 8);
  }
  var base = document.baseURI;
  navigator.serviceWorker.register(new URL("sw.js", base).href, { scope: new URL(".", base).href })
    .then(function (reg) {
      // A build installed during an earlier visit waits: this start applies it, then
      // reloads once into it (nothing is lost: the matches are in IndexedDB).
      if (reg.waiting && navigator.serviceWorker.controller) {
        window.beziqueOffline.state = "applying-update";
        var reloaded = false;
        navigator.serviceWorker.addEventListener("controllerchange", function () {
          if (!reloaded) { reloaded = true; location.reload(); }
        });
        reg.waiting.postMessage({ type: "activate-update" });
        return;
      }
      reg.addEventListener("updatefound", function () {
        var next = reg.installing;
        if (!next || !navigator.serviceWorker.controller) return;
        next.addEventListener("statechange", function () {
          if (next.state === "installed") updateReady();
        });
      });
      // Once Python is up the page has fetched all it needs: storing the rest now downloads
      // nothing twice and takes nothing from the start.
      pythonUp.then(function () {
        navigator.serviceWorker.ready.then(function (ready) { askToKeep(ready); });
      });
    })
    .catch(function (error) {
      window.beziqueOffline.state = "unsupported";
      console.warn("Bezique Referee: no service worker:", error);
    });
})();
