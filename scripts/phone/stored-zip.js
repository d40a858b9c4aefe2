// Bezique Referee (scripts/build_phone.py): the app archive (app.zip, a zip without
// compression of its own) laid out in Pyodide's file system by JavaScript. Flet's worker
// would fetch it again and unpack it with Python's zipfile and shutil: a third of a second
// of a phone's start for what is only copying bytes. Returns false (nothing written) for
// anything but a plain stored zip, and the worker then unpacks it the usual way. The files
// keep views of ``bytes`` (Emscripten's canOwn), which must not change afterwards.
function beziqueUnpackStored(FS, bytes, dir) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: the last 22 bytes when there is no comment.
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return false;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) return false;
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (method !== 0 || name.startsWith("/") || name.split("/").includes("..")) return false;
    if (view.getUint32(local, true) !== 0x04034b50) return false;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) return false;
    files.push([name, start, size]);
  }
  for (const [name, start, size] of files) {
    const path = dir + "/" + name;
    if (name.endsWith("/")) {
      FS.mkdirTree(path.slice(0, -1));
      continue;
    }
    const slash = path.lastIndexOf("/");
    if (slash > 0) FS.mkdirTree(path.slice(0, slash));
    FS.writeFile(path, bytes.subarray(start, start + size), { canOwn: true }); // no copy
  }
  return true;
}
