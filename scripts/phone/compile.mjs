// Compiles the phone build's Python to bytecode with the very interpreter the phone runs
// (Pyodide's CPython, here under Node), so no phone compiles it at each start.
//   node compile.mjs PYODIDE_DIR TREE
// TREE/tar: the app and the packages that stay files (sources kept, with __pycache__ .pyc
// of the unchecked-hash kind, used without looking at the sources); TREE/zip: the packages
// imported from packages.zip (sourceless .pyc where the sources were, sources removed).
import { pathToFileURL } from "node:url";

const [pyodideDir, tree] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/t");
py.FS.mount(py.FS.filesystems.NODEFS, { root: tree }, "/t");
await py.runPythonAsync(`
import compileall, os, py_compile, sys
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
ok = compileall.compile_dir("/t/zip", quiet=2, legacy=True, invalidation_mode=mode,
                            stripdir="/t/zip", prependdir="/home/pyodide/packages.zip")
for root, _dirs, files in os.walk("/t/zip"):
    for f in files:
        if f.endswith(".py") and f + "c" in files:
            os.remove(os.path.join(root, f))
ok = compileall.compile_dir("/t/tar", quiet=2, invalidation_mode=mode,
                            stripdir="/t/tar", prependdir="/home/pyodide") and ok
print("compiled" if ok else "compiled, some files left as sources")
`);
