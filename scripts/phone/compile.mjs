// Compiles the phone build's Python to bytecode with the very interpreter the phone runs
// (Pyodide's CPython, here under Node), so no phone compiles it at each start.
//   node compile.mjs PYODIDE_DIR TREE
// TREE/tar: the app and the packages that stay files; TREE/zip: the packages imported from
// packages.zip; both as sourceless .pyc where the sources were (sources removed);
// TREE/stdlib: Pyodide's standard library, which it ships as sources (the same).
import { pathToFileURL } from "node:url";

const [pyodideDir, tree] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/t");
py.FS.mount(py.FS.filesystems.NODEFS, { root: tree }, "/t");
await py.runPythonAsync(`
import compileall, os, py_compile, sys
sys.dont_write_bytecode = True  # the imports below must not leave __pycache__ in the trees
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
ok = compileall.compile_dir("/t/zip", quiet=2, legacy=True, invalidation_mode=mode,
                            stripdir="/t/zip", prependdir="/home/pyodide/packages.zip")
for root, _dirs, files in os.walk("/t/zip"):
    for f in files:
        if f.endswith(".py") and f + "c" in files:
            os.remove(os.path.join(root, f))
if os.path.isdir("/t/stdlib"):
    # Only the standard library modules the app imports get bytecode (sourceless): the rest
    # stay sources, which are smaller on the wire and compiled only if ever imported.
    import importlib, pkgutil
    sys.path[:0] = ["/t/tar/__pypackages__", "/t/tar", "/t/zip"]
    before = set(sys.modules)
    for root in ("ui", "referee"):
        pkg = importlib.import_module(root)
        for info in pkgutil.walk_packages(pkg.__path__, root + "."):
            if ".server" in info.name or info.name.endswith(("simulate_cli", ".cli")):
                continue
            try:
                importlib.import_module(info.name)
            except Exception as exc:
                print("not imported:", info.name, type(exc).__name__)
    importlib.import_module("alembic.command")  # a migration's imports
    used = set()
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None) or ""
        if f.startswith("/lib/python314.zip/"):
            used.add(f[len("/lib/python314.zip/"):])
    n = 0
    for rel in sorted(used):
        src = "/t/stdlib/" + rel
        if rel.endswith(".py") and os.path.exists(src):
            py_compile.compile(src, cfile=src + "c", dfile="/lib/python314.zip/" + rel,
                               invalidation_mode=mode, doraise=True)
            os.remove(src)
            n += 1
    print("standard library modules compiled:", n)
    # Tools for developers that the app never imports (and nothing above did).
    unused = ("pydoc.py", "pydoc_data/", "pdb.py", "doctest.py", "unittest/", "idlelib/",
              "turtle.py", "turtledemo/", "tkinter/", "ensurepip/", "venv/", "lib2to3/",
              "wsgiref/", "xmlrpc/", "curses/", "test/")
    import shutil
    for entry in unused:
        path = "/t/stdlib/" + entry.rstrip("/")
        if any(u.startswith(entry) for u in used):
            continue
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
# The app and the packages that stay files: sourceless as well (smaller on the wire; a
# traceback still names the file and line). main.py stays a source: Flet's worker runs it;
# so do the migrations: Alembic finds its revision scripts by their .py files.
ok = compileall.compile_dir("/t/tar", quiet=2, legacy=True, invalidation_mode=mode,
                            stripdir="/t/tar", prependdir="/home/pyodide") and ok
for root, _dirs, files in os.walk("/t/tar"):
    for f in files:
        path = os.path.join(root, f)
        keep = path == "/t/tar/main.py" or "/referee/storage/migrations/" in path
        if f.endswith(".py") and f + "c" in files and not keep:
            os.remove(path)
if os.path.exists("/t/tar/main.pyc"):
    os.remove("/t/tar/main.pyc")
print("compiled" if ok else "compiled, some files left as sources")
`);
