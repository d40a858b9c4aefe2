        // Bezique Referee (scripts/build_phone.py), before Python starts the app:
        // - the packages zip, imported in place (main.py puts it on sys.path);
        // - the app archive, unpacked in the working folder (Flet's worker then skips it);
        // - the app's data folder, kept in the browser's IndexedDB (Emscripten's IDBFS) and
        //   read back now; ui/browser_storage.py writes it back after each commit. A browser
        //   that refuses storage (private mode) leaves the folder in memory, and the app
        //   says so.
        {
            console.log("bezique-mark pyodide-loaded " + Date.now());
            const FS = self.pyodide.FS;
            const zip = await (self.beziquePackages || fetch(new URL("packages.zip", self.location.href)));
            if (!zip.ok) throw new Error("packages.zip: HTTP " + zip.status);
            // canOwn: the file is this buffer, not a copy of it (16 MB).
            FS.writeFile("/home/pyodide/packages.zip", new Uint8Array(await zip.arrayBuffer()), { canOwn: true });
            // The app archive laid out by stored-zip.js; Flet's own unpacking only if not.
            try {
                const app = await (self.beziqueApp || fetch(new URL("app.zip", self.location.href)));
                if (app.ok && beziqueUnpackStored(FS, new Uint8Array(await app.arrayBuffer()), "/home/pyodide")) {
                    self.flet_js.bezique_app_unpacked = true;
                }
            } catch (error) {
                console.warn("Bezique Referee: app.zip left to Flet's worker:", error);
            }
            console.log("bezique-mark app-unpacked " + Date.now());
            const dataDir = "__DATA_DIR__";
            FS.mkdirTree(dataDir);
            try {
                FS.mount(FS.filesystems.IDBFS, {}, dataDir);
                await new Promise((resolve, reject) =>
                    FS.syncfs(true, (err) => (err ? reject(err) : resolve())));
                self.flet_js.storage = "idbfs";
            } catch (error) {
                self.flet_js.storage = "memory";
                self.flet_js.storageError = String(error && (error.message || error.name || error));
                console.warn("Bezique Referee: browser storage refused:", error);
            }
            console.log("bezique-mark storage-mounted " + Date.now());
        }
