// Bezique Referee's service worker (scripts/build_phone.py writes the build id): keeps every
// file the phone's browser uses for offline starts, and picks up a new build.
//
// - First visit: nothing is downloaded twice. The page, once the app is up, says which
//   renderer its browser used ("keep"); the worker then stores the common files and that
//   renderer's, asking the HTTP cache first (the page just loaded most of them), and reports
//   its progress to the page ("getting ready for offline use: 8 of 14 MB").
// - Every request is answered from this build's cache when it is there, else from the
//   network (and kept if it belongs to the build).
// - A new build: the browser installs the new worker, which stores the new build's files for
//   the same renderer before it counts as installed; the page then says an update is ready,
//   and the next start activates it (the matches live in IndexedDB, untouched by caches).
"use strict";

const BUILD = "__BUILD_ID__";
const CACHE = "bezique-" + BUILD;
const IMAGE = "bezique-image-" + BUILD; // made on the phone by python-image.js
const META = "__bezique_meta__";
const SCOPE = new URL(self.registration.scope);

let listing = null; // offline.json of this build

async function files() {
  if (listing === null) {
    const cache = await caches.open(CACHE);
    let res = await cache.match(META + "/offline.json");
    if (!res) {
      res = await fetch(new URL("offline.json?build=" + BUILD, SCOPE), { cache: "no-store" });
      if (!res.ok) throw new Error("offline.json: HTTP " + res.status);
      await cache.put(META + "/offline.json", res.clone());
    }
    listing = await res.json();
  }
  return listing.files;
}

async function readGroup(cacheName) {
  const cache = await caches.open(cacheName);
  const res = await cache.match(META + "/group");
  return res ? (await res.text()) : null;
}

function wanted(all, group) {
  return all.filter((f) => f.groups.includes("common") || f.groups.includes(group));
}

async function tell(message) {
  const clients = await self.clients.matchAll({ includeUncontrolled: true, type: "window" });
  for (const c of clients) c.postMessage(message);
}

// An earlier build's cache and file list, for the files an update did not change.
async function earlier() {
  for (const name of await caches.keys()) {
    if (!name.startsWith("bezique-") || name === CACHE) continue;
    const cache = await caches.open(name);
    const res = await cache.match(META + "/offline.json");
    if (!res) continue;
    const shas = new Map((await res.json()).files.map((f) => [f.path, f.sha]));
    return { cache, shas };
  }
  return null;
}

// Store every wanted file not yet in this build's cache; report progress by bytes. An
// update copies the files whose content did not change from the build before.
async function keep(group, network) {
  const cache = await caches.open(CACHE);
  await cache.put(META + "/group", new Response(group));
  const list = wanted(await files(), group);
  const total = list.reduce((n, f) => n + f.size, 0);
  const before = network ? await earlier() : null;
  let done = 0;
  const missing = [];
  for (const f of list) {
    const url = new URL(f.path, SCOPE).href;
    if (await cache.match(url)) {
      done += f.size;
      continue;
    }
    if (before && f.sha && before.shas.get(f.path) === f.sha) {
      const old = await before.cache.match(url);
      if (old) {
        await cache.put(url, old);
        done += f.size;
        continue;
      }
    }
    missing.push(f);
  }
  if (missing.length === 0) {
    await tell({ type: "offline-ready", build: BUILD, total, fresh: false });
    return;
  }
  await tell({ type: "offline-progress", build: BUILD, done, total });
  let failed = 0;
  const queue = missing.slice();
  async function worker() {
    while (queue.length) {
      const f = queue.shift();
      const url = new URL(f.path, SCOPE).href;
      try {
        const res = await fetch(url, { cache: network ? "no-cache" : "force-cache" });
        if (!res.ok) throw new Error("HTTP " + res.status);
        await cache.put(url, res);
        done += f.size;
        await tell({ type: "offline-progress", build: BUILD, done, total });
      } catch (e) {
        failed += 1;
      }
    }
  }
  await Promise.all([worker(), worker(), worker()]);
  if (failed) {
    await tell({ type: "offline-failed", build: BUILD, done, total, failed });
    if (network) throw new Error(failed + " files could not be stored");
  } else {
    await tell({ type: "offline-ready", build: BUILD, total, fresh: true });
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // An update: store the new build for the renderer the phone uses before installing.
    const names = (await caches.keys()).filter(
      (n) => n.startsWith("bezique-") && !n.startsWith("bezique-image-") && n !== CACHE);
    let group = null;
    for (const n of names) group = group || (await readGroup(n));
    if (group) await keep(group, true);
    else await self.skipWaiting(); // the first visit: take over the page at once
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // An earlier build's files and its Python image (python-image.js) go; this build's stay.
    for (const n of await caches.keys()) {
      if (n.startsWith("bezique-") && n !== CACHE && n !== IMAGE) await caches.delete(n);
    }
    // ... and from the private file system (image-store.js keeps it there where it can).
    try {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("python-image");
      for await (const name of dir.keys()) {
        if (name !== "image-" + BUILD) {
          try { await dir.removeEntry(name); } catch (e) { /* held by a start: next time */ }
        }
      }
    } catch (e) { /* no such folder, or no private file system here */ }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "keep" && typeof msg.group === "string") {
    event.waitUntil(keep(msg.group, false).catch((e) => tell({ type: "offline-failed", build: BUILD, error: String(e) })));
  } else if (msg.type === "activate-update") {
    self.skipWaiting();
  } else if (msg.type === "build") {
    event.source && event.source.postMessage({ type: "build", build: BUILD });
  }
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  let path = url.pathname.slice(SCOPE.pathname.length);
  if (req.mode === "navigate") path = "index.html";
  if (path === "sw.js" || path === "offline.json") return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const key = new URL(path, SCOPE).href;
    const hit = await cache.match(key);
    if (hit) return hit;
    const res = await fetch(req.mode === "navigate" ? key : req);
    if (res.ok && res.type === "basic") {
      try {
        const known = (await files()).some((f) => f.path === path);
        if (known) await cache.put(key, res.clone());
      } catch (e) { /* offline.json unreachable: serve without keeping */ }
    }
    return res;
  })());
});
