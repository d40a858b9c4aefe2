// Bezique Referee (scripts/build_phone.py): the Python image kept without its empty pages.
// A quarter of Pyodide's memory is zeros after the app's imports; reading 54 MB from the
// browser's cache is most of a start's first second, so the image is stored as a bitmap of
// its non-empty 4 KiB pages followed by those pages, and made whole again before restoring.
const BEZIQUE_PAGE = 4096;
const BEZIQUE_PAGED = 0x3150_5a42; // "BZP1", little-endian

function beziquePackPages(image) {
  const pages = Math.ceil(image.length / BEZIQUE_PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  const words = new Uint32Array(image.buffer, image.byteOffset, Math.floor(image.length / 4));
  let kept = 0;
  for (let p = 0; p < pages; p++) {
    const from = p * BEZIQUE_PAGE;
    const to = Math.min(from + BEZIQUE_PAGE, image.length);
    let used = false;
    if (to - from === BEZIQUE_PAGE && image.byteOffset % 4 === 0) {
      for (let w = from / 4; w < to / 4; w++) if (words[w] !== 0) { used = true; break; }
    } else {
      for (let i = from; i < to; i++) if (image[i] !== 0) { used = true; break; }
    }
    if (used) {
      bitmap[p >> 3] |= 1 << (p & 7);
      kept += to - from;
    }
  }
  const head = 16;
  const out = new Uint8Array(head + bitmap.length + kept);
  const view = new DataView(out.buffer);
  view.setUint32(0, BEZIQUE_PAGED, true);
  view.setUint32(4, BEZIQUE_PAGE, true);
  view.setUint32(8, image.length, true);
  view.setUint32(12, pages, true);
  out.set(bitmap, head);
  let at = head + bitmap.length;
  for (let p = 0; p < pages; p++) {
    if (!(bitmap[p >> 3] & (1 << (p & 7)))) continue;
    const from = p * BEZIQUE_PAGE;
    const chunk = image.subarray(from, Math.min(from + BEZIQUE_PAGE, image.length));
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// The whole image again; null when ``stored`` is not a paged image (or is damaged): the
// reader below, over the bytes in memory (the cache's way).
function beziqueUnpackPages(stored) {
  return beziqueReadPages({
    getSize: () => stored.length,
    read(view, { at }) {
      const n = Math.max(0, Math.min(view.length, stored.length - at));
      view.set(stored.subarray(at, at + n));
      return n;
    },
  });
}

// The whole image from a file held with a synchronous handle (image-store.js, OPFS: getSize,
// and read into a view at an offset): each run of non-empty pages read straight into its
// place in the whole image, nothing copied twice; null when it is not a paged image (or is
// damaged: cut short, too long, its layout broken).
function beziqueReadPages(handle) {
  const size = handle.getSize();
  if (size < 16) return null;
  const head = new Uint8Array(16);
  if (handle.read(head, { at: 0 }) !== 16) return null;
  const view = new DataView(head.buffer);
  if (view.getUint32(0, true) !== BEZIQUE_PAGED || view.getUint32(4, true) !== BEZIQUE_PAGE) {
    return null;
  }
  const length = view.getUint32(8, true);
  const pages = view.getUint32(12, true);
  if (pages !== Math.ceil(length / BEZIQUE_PAGE)) return null;
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  if (16 + bitmap.length > size || handle.read(bitmap, { at: 16 }) !== bitmap.length) return null;
  const image = new Uint8Array(length);
  const used = (p) => (bitmap[p >> 3] & (1 << (p & 7))) !== 0;
  let at = 16 + bitmap.length;
  for (let p = 0; p < pages; ) {
    if (!used(p)) { p++; continue; }
    let end = p + 1;
    while (end < pages && used(end)) end++;
    const from = p * BEZIQUE_PAGE;
    const run = Math.min(end * BEZIQUE_PAGE, length) - from;
    if (at + run > size || handle.read(image.subarray(from, from + run), { at }) !== run) {
      return null;
    }
    at += run;
    p = end;
  }
  return at === size ? image : null;
}
