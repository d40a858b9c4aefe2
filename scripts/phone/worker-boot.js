        // Bezique Referee (scripts/build_phone.py): the app's data folder is kept in the
        // browser's IndexedDB (Emscripten's IDBFS), read back before Python starts the app;
        // ui/browser_storage.py writes it back after each commit. A browser that refuses
        // storage (private mode) leaves the folder in memory, and the app says so.
        {
            const FS = self.pyodide.FS;
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
        }
