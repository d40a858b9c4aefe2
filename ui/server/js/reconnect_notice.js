// While the app's websocket is down (server restarting, Wi-Fi gone), say so over the whole
// screen and let no tap or key through: Flet's web client would otherwise queue a tap made on
// the old screen (through its accessibility tree) and send it after reconnecting, to a session
// that may no longer show what was tapped. Texts come from the server (data/i18n).
(() => {
  const texts = /*TEXTS*/ {};
  const lang = (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
  const t = texts[lang] || texts.en || { title: "", body: "" };
  let down = false;
  let box = null;
  const notice = () => {
    if (box) return box;
    box = document.createElement("div");
    box.id = "bezique-reconnecting";
    box.setAttribute("role", "alert");
    box.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;display:none;flex-direction:column;" +
      "align-items:center;justify-content:center;gap:12px;padding:24px;box-sizing:border-box;" +
      "background:rgba(20,20,20,0.88);color:#fff;font:20px/1.4 sans-serif;text-align:center";
    const title = document.createElement("strong");
    title.textContent = t.title;
    title.style.fontSize = "26px";
    const body = document.createElement("div");
    body.textContent = t.body;
    box.append(title, body);
    document.body.appendChild(box);
    return box;
  };
  const show = (on) => {
    down = on;
    if (on || box) notice().style.display = on ? "flex" : "none";
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
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!new URL(String(url), location.href).pathname.endsWith("/ws")) return;
      // The first answer on a new socket is the server's: the app is back.
      this.addEventListener("message", () => { if (down) show(false); });
      this.addEventListener("close", () => show(true));
    }
  }
  window.WebSocket = Watched;
})();
