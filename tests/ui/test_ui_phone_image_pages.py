"""The phone's Python image is stored without its empty pages (scripts/phone/image-pages.js):
made whole again it must be the very same bytes, and a stored image that is cut short or is
not a paged image must be refused (the start then goes on without it), never restored. The
same goes for the reader that takes the pages from a file held with a synchronous handle
(``beziqueReadPages``, the private file system's way, image-store.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "phone" / "image-pages.js"

CHECK = """
const fs = require("fs");
eval(fs.readFileSync(process.argv[1], "utf8") +
     ";globalThis.pack = beziquePackPages; globalThis.unpack = beziqueUnpackPages;" +
     "globalThis.readPages = beziqueReadPages;");
// A synchronous access handle over bytes (OPFS's FileSystemSyncAccessHandle: getSize, and
// read into a view at an offset, returning how many bytes it read).
function handle(bytes) {
  return {
    reads: 0,
    getSize: () => bytes.length,
    read(view, { at }) {
      this.reads++;
      const n = Math.max(0, Math.min(view.length, bytes.length - at));
      view.set(bytes.subarray(at, at + n));
      return n;
    },
  };
}
const read = (bytes) => readPages(handle(bytes));
const out = {};
for (const [name, length] of [["pages", 64 * 4096], ["odd", 64 * 4096 - 123], ["tiny", 5]]) {
  const image = new Uint8Array(length);
  for (let i = 0; i < length; i += 3 * 4096) image.fill(7, i, Math.min(i + 4096, length));
  image[length - 1] = 9;  // the last, partial page is kept
  const stored = pack(image);
  const whole = unpack(stored);
  out[name] = {
    same: !!whole && whole.length === image.length && whole.every((b, i) => b === image[i]),
    smaller: stored.length < image.length || length < 4096,
    cut: unpack(stored.subarray(0, stored.length - 1)) === null,
    longer: unpack(new Uint8Array([...stored, 0])) === null,
    raw: unpack(image) === null,
    read_same: (() => { const w = read(stored); return !!w && w.length === image.length &&
                        w.every((b, i) => b === image[i]); })(),
    read_cut: read(stored.subarray(0, stored.length - 1)) === null,
    read_longer: read(new Uint8Array([...stored, 0])) === null,
    read_raw: read(image) === null,
  };
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_an_image_without_its_empty_pages_comes_back_whole_and_a_damaged_one_is_refused() -> None:
    done = subprocess.run(
        ["node", "-e", CHECK, str(SCRIPT)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for name, checks in result.items():
        assert all(checks.values()), (name, checks)
