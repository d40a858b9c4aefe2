// Bezique Referee (scripts/build_phone.py): where this build's Python image is kept.
//
// In the origin's private file system (OPFS) when the browser offers it to a worker with
// synchronous access, else in the browser's cache (as every build before did). The image is
// tens of MB and read on every start: from the cache that read went through the browser's
// cache backend and took 0.5–0.7 s of a 3 s start; a synchronous OPFS handle reads the same
// bytes in a worker about four times faster, and straight into their places in the whole
// image (image-pages.js's layout), so nothing is copied a second time.
//
// One file per build, "image-<build>", in the folder "python-image"; written under a
// temporary name and moved into place, so a half-written image is never read as one. A
// reader that finds the file held by another start (one handle at a time) does without the
// image this time: only an image that is damaged or does not restore is deleted.
const BEZIQUE_IMAGE_BUILD = "__BUILD_ID__";
const BEZIQUE_IMAGE_DIR = "python-image";
const BEZIQUE_IMAGE_FILE = "image-" + BEZIQUE_IMAGE_BUILD;
const BEZIQUE_IMAGE_CACHE = "bezique-image-" + BEZIQUE_IMAGE_BUILD;

function beziqueImageKey() {
  return new URL("__bezique_image__", self.location.href).href;
}

// The folder, or null where the browser has no OPFS with synchronous access here.
async function beziqueImageFolder(create) {
  if (!(self.navigator && navigator.storage && navigator.storage.getDirectory)) return null;
  if (!(self.FileSystemFileHandle && "createSyncAccessHandle" in FileSystemFileHandle.prototype)) {
    return null;
  }
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(BEZIQUE_IMAGE_DIR, { create });
  } catch (error) {
    return null; // not there yet (create false), or storage refused
  }
}

// Keep a packed image (image-pages.js); returns where: "opfs" or "cache".
async function beziqueImageWrite(packed) {
  const folder = await beziqueImageFolder(true);
  if (folder && typeof FileSystemFileHandle.prototype.move === "function") {
    const part = BEZIQUE_IMAGE_FILE + ".part";
    try {
      const file = await folder.getFileHandle(part, { create: true });
      const handle = await file.createSyncAccessHandle();
      try {
        handle.truncate(0);
        let at = 0;
        while (at < packed.length) at += handle.write(packed.subarray(at), { at });
        handle.flush();
      } finally {
        handle.close();
      }
      await file.move(BEZIQUE_IMAGE_FILE);
      // Earlier builds' images go (the service worker drops their caches the same way).
      for await (const name of folder.keys()) {
        if (name !== BEZIQUE_IMAGE_FILE) {
          try { await folder.removeEntry(name); } catch (e) { /* held by a start: next time */ }
        }
      }
      return "opfs";
    } catch (error) {
      console.warn("Bezique Referee: the private file system refused the image, using the cache:", error);
      try { await folder.removeEntry(part); } catch (e) { /* never made */ }
    }
  }
  const cache = await caches.open(BEZIQUE_IMAGE_CACHE);
  await cache.put(beziqueImageKey(), new Response(packed, {
    headers: { "Content-Type": "application/octet-stream", "Content-Length": String(packed.length) },
  }));
  return "cache";
}

// Where this build's image is kept: { file } (OPFS) or { response } (the cache), or null
// when the phone has none. Quick: nothing of the image is read yet.
async function beziqueImageFind() {
  const folder = await beziqueImageFolder(false);
  if (folder) {
    try {
      return { file: await folder.getFileHandle(BEZIQUE_IMAGE_FILE) };
    } catch (error) { /* none in OPFS: perhaps in the cache (made by an earlier build) */ }
  }
  try {
    const response = await (await caches.open(BEZIQUE_IMAGE_CACHE)).match(beziqueImageKey());
    return response ? { response } : null;
  } catch (error) {
    return null; // no cache in this browser
  }
}

// The whole image from where beziqueImageFind found it. Rejects with error.beziqueDamaged
// when what is kept is not an image (the caller deletes it); a file held by another start
// rejects without it (kept for the next start).
async function beziqueImageLoad(found) {
  let whole = null;
  if (found.file) {
    const handle = await found.file.createSyncAccessHandle(); // held elsewhere: rejects
    try {
      console.log("bezique-mark image-read " + Date.now());
      whole = beziqueReadPages(handle); // image-pages.js: read into place
    } finally {
      handle.close();
    }
  } else {
    const buffer = await found.response.arrayBuffer();
    console.log("bezique-mark image-read " + Date.now());
    whole = beziqueUnpackPages(new Uint8Array(buffer)); // image-pages.js
  }
  if (!whole) {
    console.warn("Bezique Referee: the Python image is damaged, starting without it");
    throw beziqueDamaged();
  }
  console.log("bezique-mark image-expanded " + Date.now());
  return whole;
}

function beziqueDamaged() {
  const error = new Error("the Python image is damaged");
  error.beziqueDamaged = true;
  return error;
}

// An image that is damaged or did not restore: gone from both places.
async function beziqueImageDrop() {
  const folder = await beziqueImageFolder(false);
  if (folder) {
    try { await folder.removeEntry(BEZIQUE_IMAGE_FILE); } catch (e) { /* not there */ }
  }
  try { await caches.delete(BEZIQUE_IMAGE_CACHE); } catch (e) { /* no cache */ }
}
