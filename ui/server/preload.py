"""Early downloads for the web client's page: the files Flutter's loader asks for one after
another, announced in the page's head so the browser fetches them all at once.

Why: without it the requests form a chain. ``flutter_bootstrap.js`` arrives, runs, imports
``main.dart.mjs`` and only once that module has run asks for ``main.dart.wasm`` (2.1 MB, the
biggest file); the font manifest is asked for after the wasm has been compiled and started,
its fonts after the manifest, and the app's suit font only when the server's first page
message names it (its arrival lays every text out again). On a throttled phone each link of
the chain is hundreds of milliseconds of an idle network.

The page cannot know in advance which renderer Flutter's loader will pick (skwasm needs
WasmGC and a Chromium engine; Safari and Firefox get CanvasKit with the JavaScript build), so
a small inline script, run before the loader, makes the same choice the loader makes
(flutter.js's ``supportsWasmGC``, browser engine, ``ImageDecoder`` and ``Intl.v8BreakIterator``
tests) and adds ``<link rel=preload|modulepreload>`` for that renderer's files only. A wrong
guess costs a download, never a wrong page: the loader still fetches what it needs itself,
and a preloaded response is used only when its request matches (same URL, ``crossorigin``
as ``fetch()`` sends it, module scripts through ``modulepreload``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

SCRIPT = """<script>
(function () {
  // Early downloads for Flutter's loader (ui/server/preload.py says why).
  var d = document, fonts = %(fonts)s;
  function add(rel, href, as) {
    var l = d.createElement("link");
    l.rel = rel;
    l.href = href;
    if (as) { l.as = as; if (as === "fetch") { l.crossOrigin = "anonymous"; } }
    d.head.appendChild(l);
  }
  try {
    var ua = navigator.userAgent;
    var blink = navigator.vendor === "Google Inc." || ua.indexOf("Edg/") >= 0;
    var gc = WebAssembly.validate(new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,95,1,120,0]));
    var asked = (window.flet && flet.webRenderer) || "auto";
    var base = (window.flet && flet.canvasKitBaseUrl) || "canvaskit/";
    if (base.charAt(base.length - 1) !== "/") { base += "/"; }
    var codecs = typeof ImageDecoder !== "undefined" && blink;
    var breaks = typeof Intl.v8BreakIterator !== "undefined" &&
      typeof Intl.Segmenter !== "undefined";
    if (gc && blink && (asked === "auto" || asked === "skwasm")) {
      var skwasm = base + (codecs && breaks ? "skwasm" : "skwasm_heavy");
      add("modulepreload", "main.dart.mjs");
      add("preload", "main.dart.wasm", "fetch");
      add("modulepreload", skwasm + ".js");
      add("preload", skwasm + ".wasm", "fetch");
    } else if (asked === "auto" || asked === "canvaskit") {
      var ck = base + (codecs && breaks ? "chromium/" : "");
      add("preload", "main.dart.js", "script");
      add("modulepreload", ck + "canvaskit.js");
      add("preload", ck + "canvaskit.wasm", "fetch");
    }
  } catch (e) { /* no early downloads: the loader fetches everything itself */ }
  for (var i = 0; i < fonts.length; i++) { add("preload", fonts[i], "fetch"); }
})();
</script>
"""


def font_urls(manifest: Iterable[dict[str, Any]], app_fonts: Iterable[str]) -> list[str]:
    """The URLs Flutter fetches the fonts with: its font manifest, every font listed in it
    (under ``assets/``), then the app's own fonts (``page.fonts`` paths, from the site root)."""
    urls = ["assets/FontManifest.json"]
    for family in manifest:
        for font in family.get("fonts") or []:
            asset = font.get("asset") if isinstance(font, dict) else None
            if isinstance(asset, str) and f"assets/{asset}" not in urls:
                urls.append(f"assets/{asset}")
    urls += [f.lstrip("/") for f in app_fonts]
    return urls


def script(fonts: Iterable[str]) -> str:
    """The inline script (fonts as a JSON list: no markup can break out of it)."""
    encoded = json.dumps(list(fonts)).replace("<", "\\u003c")
    return SCRIPT % {"fonts": encoded}


def patch_index(html: str, fonts: Iterable[str]) -> str:
    """Flet's index.html with the script just after Flet's configuration (which it reads) and
    before every other script; unchanged when the page has no configuration marker left
    (the script would then run before ``flet`` exists, and is better left out)."""
    config_end = html.find("</script>", html.find("flet.webRenderer"))
    if config_end < 0:
        return html
    at = config_end + len("</script>")
    return html[:at] + "\n" + script(fonts) + html[at:]
