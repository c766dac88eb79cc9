// @ts-check
/**
 * WebSockets that reconnect by themselves (the lobby and the table).
 *
 * After an unexpected close the socket reconnects with a growing, jittered delay (0.5 s … 8 s); the
 * server sends a fresh snapshot on every (re)connect, so nothing needs replaying here.  Close codes that
 * mean "don't come back" (app/tables/protocol/close_codes.py CLOSE_CODES: 1000 game over, 1008 not authenticated, 4001
 * replaced, 4003 not seated, 4004 no game, 4005 table closed, 4401 session ended) stop the retries and are
 * reported to `onClose`.  `url` is async: each connect fetches a single-use ticket (api.socketUrl).  A ping
 * every 15 s keeps the table socket honest: no message for 45 s and it is treated as dropped.
 */

export const FINAL_CLOSE_CODES = new Set([1000, 1008, 4001, 4003, 4004, 4005, 4401]);

/**
 * @typedef {"connecting" | "open" | "reconnecting" | "closed"} SocketStatus
 * @typedef {{url: () => Promise<string>, onMessage: (msg: any) => void, onStatus?: (s: SocketStatus) => void,
 *   onClose?: (code: number, reason: string) => void, ping?: () => any, finalCodes?: Set<number>}} SocketOptions
 */

export class ReconnectingSocket {
  /** @param {SocketOptions} options */
  constructor(options) {
    this.options = options;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retryTimer = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.pingTimer = null;
    this.lastMessageAt = 0;
    /** @type {SocketStatus} */
    this.status = "connecting";
  }

  connect() {
    this.stopped = false;
    this.open();
    return this;
  }

  async open() {
    this.setStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    let url;
    try {
      url = await this.options.url();
    } catch (err) {
      if (this.stopped) return;
      // A 401 getting the ticket: the session ended; anything else (offline): try again later.
      if (/** @type {any} */ (err)?.status === 401) { this.setStatus("closed"); this.options.onClose?.(4401, "session ended"); return; }
      this.scheduleRetry();
      return;
    }
    if (this.stopped) return;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.lastMessageAt = Date.now();
      this.setStatus("open");
      this.startPing();
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.lastMessageAt = Date.now();
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.options.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      const final = (this.options.finalCodes ?? FINAL_CLOSE_CODES).has(e.code);
      if (this.stopped || final) {
        this.setStatus("closed");
        if (!this.stopped) this.options.onClose?.(e.code, e.reason);
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleRetry() {
    this.setStatus("reconnecting");
    const delay = Math.min(8000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => { this.retryTimer = null; if (!this.stopped) this.open(); }, delay);
  }

  startPing() {
    this.stopPing();
    const ping = this.options.ping;
    if (!ping) return;
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastMessageAt > 45000) {
        this.ws?.close(4000, "no answer");  // treated as dropped: reconnect
        return;
      }
      this.send(ping());
    }, 15000);
  }

  stopPing() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  /** @param {any} msg @returns {boolean} sent */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drop the connection as if the network failed (it reconnects). */
  drop() {
    this.ws?.close(4000, "dropped");
  }

  close() {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.stopPing();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, "bye");
    this.setStatus("closed");
  }

  /** @param {SocketStatus} s */
  setStatus(s) {
    this.status = s;
    this.options.onStatus?.(s);
  }
}
