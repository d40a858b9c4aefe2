// While the app's websocket is down (server restarting, Wi-Fi gone), say so over the whole
// screen and let no tap or key through: Flet's web client would otherwise queue a tap made on
// the old screen (through its accessibility tree) and send it after reconnecting, to a session
// that may no longer show what was tapped. Texts come from the server (data/i18n). When the
// server answers but no longer lets this browser in (its link was retired by --new-table),
// the notice says so and asks for the host's new code.
//
// After a server restart the server starts a new session for this page, whose screen still
// holds the old session's controls: Flet's client then patches controls that are not there
// (the app's saved language and theme are never read back, P11). So when the first answer on
// a new websocket names another session than the page had, the page starts afresh (a reload,
// without Flet's kept session id), as a first visit does.
(() => {
  const texts = /*TEXTS*/ {};
  const chosen = () => {
    try {
      return JSON.parse(localStorage.getItem("flutter.bezique.lang") || "null");
    } catch (_e) {
      return null;
    }
  };
  // The language the app was last set to on this device, else the browser's.
  const words = () => {
    const lang = chosen() || ((navigator.language || "en").toLowerCase().startsWith("ru")
      ? "ru" : "en");
    return texts[lang] || texts.en || { title: "", body: "" };
  };
  let down = false;
  let restarting = false;  // the page is starting afresh: the old socket's messages are dropped
  let box = null;
  // Opaque: Flet's own spinner and "Working..." come up under it at the same moment, and
  // through a translucent layer they showed through the notice's words.
  const notice = () => {
    if (box) return box;
    box = document.createElement("div");
    box.id = "bezique-reconnecting";
    box.setAttribute("role", "alert");
    box.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;display:none;flex-direction:column;" +
      "align-items:center;justify-content:center;gap:12px;padding:24px;box-sizing:border-box;" +
      "background:#141414;color:#fff;font:20px/1.4 sans-serif;text-align:center";
    const title = document.createElement("strong");
    title.style.fontSize = "26px";
    box.append(title, document.createElement("div"));
    document.body.appendChild(box);
    return box;
  };
  // While down, ask the server now and then whether this browser's cookie still opens the
  // table (/table-check: only valid or not). A refused handshake (403) looks like a closed
  // socket to the page; after --new-table it would say "Reconnecting…" forever (P31).
  let refused = false;
  let polling = null;
  // Flet's client retries its websocket after 0.5 s, then doubles the wait each time without
  // a cap (1, 2, 4 … 32, 64 s): a phone whose server was away for half a minute would stay on
  // "Reconnecting…" for a minute more after the server is back. So when the server answers
  // this page's check twice in a row while the websocket is still down, the page starts
  // afresh at once (at most every 20 s): Flet's kept session id lets a server that still
  // holds the session give it back whole, and a restarted server starts a new one.
  let answered = 0;
  const RELOADED = "bezique.reconnect.reloaded";
  const restartPage = () => {
    let last = 0;
    try { last = Number(sessionStorage.getItem(RELOADED) || 0); } catch (_e) { /* none */ }
    if (Date.now() - last < 20000) return;
    try { sessionStorage.setItem(RELOADED, String(Date.now())); } catch (_e) { /* none */ }
    restarting = true;
    location.reload();
  };
  const serverAnswered = () => {
    if (!down || refused || restarting) return;
    answered += 1;
    if (answered >= 2) restartPage();
  };
  const check = () => {
    fetch("/table-check", { cache: "no-store", credentials: "same-origin" })
      .then((r) => {
        const json = r.headers.get("content-type") || "";
        const read = r.ok && json.includes("json") ? r.json() : Promise.resolve(null);
        return read.catch(() => null).then((j) => {
          setRefused(!!j && j.valid === false);
          serverAnswered();  // any answer says it is up (a plain server has no /table-check)
        });
      })
      .catch(() => {
        answered = 0;
        setRefused(false);  // no answer: the server is away, not refusing
      });
  };
  const setRefused = (value) => {
    if (!down || refused === value) return;
    refused = value;
    show(true);
  };
  const show = (on) => {
    down = on;
    if (on && polling === null) {
      polling = setInterval(check, 2000);
      check();
    } else if (!on && polling !== null) {
      clearInterval(polling);
      polling = null;
      refused = false;
      answered = 0;
    }
    if (!on && !box) return;
    const b = notice();
    if (on) {
      const t = words();
      b.children[0].textContent = refused ? t.refused_title : t.title;
      b.children[1].textContent = refused ? t.refused_body : t.body;
      b.dataset.state = refused ? "refused" : "away";
    }
    b.style.display = on ? "flex" : "none";
  };
  const block = (e) => {
    if (!down) return;
    e.stopImmediatePropagation();
    e.preventDefault();
  };
  for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "click",
      "touchstart", "touchend", "keydown", "keyup", "wheel"]) {
    window.addEventListener(type, block, { capture: true, passive: false });
  }
  // The session id in Flet's REGISTER_CLIENT answer: [0x00][msgpack [1, {session_id: …}]].
  const KEY = new TextEncoder().encode("session_id");
  const sessionIn = (data) => {
    if (!(data instanceof ArrayBuffer)) return null;
    const b = new Uint8Array(data);
    if (b[0] !== 0 || b[1] !== 0x92 || b[2] !== 1) return null;
    outer: for (let i = 3; i + KEY.length < b.length; i++) {
      for (let j = 0; j < KEY.length; j++) if (b[i + j] !== KEY[j]) continue outer;
      let k = i + KEY.length;
      let n;
      if (b[k] >= 0xa0 && b[k] <= 0xbf) { n = b[k] - 0xa0; k += 1; }
      else if (b[k] === 0xd9) { n = b[k + 1]; k += 2; }
      else return null;
      return new TextDecoder().decode(b.subarray(k, k + n));
    }
    return null;
  };
  let session = null;
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!new URL(String(url), location.href).pathname.endsWith("/ws")) return;
      this.addEventListener("message", (e) => {
        if (restarting) { e.stopImmediatePropagation(); return; }
        const id = sessionIn(e.data);
        if (id !== null && session !== null && id !== session) {
          // A new session behind an old screen: start the page afresh (notice stays up).
          restarting = true;
          e.stopImmediatePropagation();
          try { sessionStorage.removeItem("_flet_session_id"); } catch (_e) { /* none */ }
          location.reload();
          return;
        }
        if (id !== null) session = id;
        if (down) show(false);  // the server's first answer on a new socket: the app is back
      });
      this.addEventListener("close", () => show(true));
    }
  }
  window.WebSocket = Watched;
})();
