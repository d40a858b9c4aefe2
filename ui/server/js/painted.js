// What this page's screen shows, sent with every tap (issue 22). The server follows each
// drawing of a match screen with a small frame naming the match and log position it shows
// ([0x00][msgpack [127, "match:position"]]); it comes after the drawing on the same websocket,
// so once it has arrived the drawing has too. The page keeps it from Flet's client and puts
// it back in front of each frame the client sends ([0x02]["match:position"]), so the server
// judges a tap by what this screen showed when it was made, not by what the server has
// sent since (a phone whose messages arrive late would otherwise undo an entry it never
// showed). What the screen shows belongs to the page, not to one websocket: after a Wi-Fi gap
// the new websocket goes on saying what the screen last showed until the server says again
// (older than the truth, so a tap made meanwhile is refused rather than judged by a screen it
// has not drawn).
(() => {
  const MARK = 0x7f;
  const Base = window.WebSocket;
  const markIn = (data) => {
    if (!(data instanceof ArrayBuffer)) return null;
    const b = new Uint8Array(data);
    if (b.length < 4 || b[0] !== 0 || b[1] !== 0x92 || b[2] !== MARK) return null;
    if (b[3] === 0xc0) return "";
    if (b[3] < 0xa0 || b[3] > 0xbf) return null;
    return new TextDecoder().decode(b.subarray(4, 4 + (b[3] - 0xa0)));
  };
  const frame = (label) => {
    const text = new TextEncoder().encode(label);
    const out = new Uint8Array(text.length + 1);
    out[0] = 0x02;
    out.set(text, 1);
    return out;
  };
  let shown = null;  // what this page's screen shows, as the server last said
  class Shown extends Base {
    constructor(url, protocols) {
      super(url, protocols);
      this.beziqueFlet = new URL(String(url), location.href).pathname.endsWith("/ws");
      if (!this.beziqueFlet) return;
      this.addEventListener("message", (e) => {
        const label = markIn(e.data);
        if (label === null) return;
        e.stopImmediatePropagation();  // the app's own frame: Flet's client never sees it
        shown = label;
      });
    }
    send(data) {
      if (this.beziqueFlet && shown !== null && typeof data !== "string") {
        super.send(frame(shown));
      }
      super.send(data);
    }
  }
  window.WebSocket = Shown;
})();
