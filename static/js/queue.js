// Games saved at the venue without a connection: kept in the browser's own database
// (IndexedDB, which outlives closing the browser and restarting the tablet), each with an id
// made on the device, and sent to the meet's send address (scoring/views/games.py::game_send)
// when the network comes back, when any page opens, or on a 「今すぐ送信」 tap.
//
// A kept game: { id, meet, sendUrl, formUrl, meetUrl, fields (the game form's fields as typed),
//   summary: { round, table, lines: [{ seat, name, score }] }, state, reason, stored, url,
//   replace, version, saved (when it was kept) }
// state: "queued" (to send), "sent" (送信済み, with url), "check" (要確認: reason, and stored,
//   the server's game, when the table was entered meanwhile).
// A meet stores a game for an id at most once (each kept game goes to its own meet), so sending
// twice (two tabs, a retry, a lost answer) gives the same game. Loaded on the organizer's pages only: a member's device keeps
// nothing to send.
(() => {
  const DB = "shirakaba-offline";
  const STORE = "games";
  const CHANGED = "shirakaba:queue";

  const open = () =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });

  // One transaction on the store; `work` gets the store and returns an IDBRequest or nothing.
  const withStore = async (mode, work) => {
    const db = await open();
    try {
      return await new Promise((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = work(transaction.objectStore(STORE));
        transaction.oncomplete = () => resolve(request ? request.result : undefined);
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      });
    } finally {
      db.close();
    }
  };

  // Every tab hears of a change (BroadcastChannel), this one too (a DOM event).
  const channel = "BroadcastChannel" in self ? new BroadcastChannel(CHANGED) : null;
  const changed = () => {
    document.dispatchEvent(new CustomEvent(CHANGED));
    if (channel) channel.postMessage("changed");
  };
  if (channel) channel.onmessage = () => document.dispatchEvent(new CustomEvent(CHANGED));

  const all = async () => {
    const items = (await withStore("readonly", (store) => store.getAll())) || [];
    return items.sort((a, b) => (a.saved < b.saved ? -1 : a.saved > b.saved ? 1 : 0));
  };
  const get = (id) => withStore("readonly", (store) => store.get(id));
  const put = async (item) => {
    await withStore("readwrite", (store) => store.put(item));
    changed();
  };
  const remove = async (id) => {
    await withStore("readwrite", (store) => store.delete(id));
    changed();
  };

  // An id made on the device: crypto.randomUUID where the page is a secure context, else a
  // version 4 UUID from crypto.getRandomValues (the same randomness).
  const newId = () => {
    if (self.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };

  // Ask the browser to keep this site's storage when it is short of space.
  const persist = () => {
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  };

  const cookie = (name) => {
    const found = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  };

  // What stopped the sending, for the page to say: "signed_out" (sign in, then it sends),
  // "not_organizer", "offline", "failed" (the server answered something else); "" when none.
  let stopped = "";
  let signIn = "";

  // A kept game the server can never take (its address not a send address, an answer that
  // is not the send address's JSON): kept as 要確認 with the reason, so the games after it
  // still go.
  const unsendable = async (item, reason) => {
    Object.assign(item, { state: "check", reason: "", problem: reason, stored: null });
    await put(item);
    return "";
  };
  const SEND_ADDRESS = /^\/meets\/\d+\/games\/send\/$/;

  const sendOne = async (item) => {
    if (!SEND_ADDRESS.test(String(item.sendUrl))) return unsendable(item, `${item.sendUrl}`);
    const body = new URLSearchParams(item.fields);
    body.set("sent_as", item.id);
    if (item.replace) {
      body.set("replace", item.replace);
      body.set("version", item.version);
    }
    let response;
    try {
      response = await fetch(item.sendUrl, {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: { "X-CSRFToken": cookie("csrftoken"), Accept: "application/json" },
      });
    } catch (error) {
      return "offline";
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch (error) {
      // Not the send address's JSON: Django's CSRF page (a token gone stale while offline,
      // 403) asks for a new sign-in like an ended session; a server in trouble (5xx, a proxy's
      // page) is tried again later; any other refusal (404, 400 for a request too large) can
      // never change: 要確認, and the next game goes.
      if (response.status === 403) return "signed_out";
      if (response.status >= 500 || response.status < 400) return "failed";
      return unsendable(item, `HTTP ${response.status}`);
    }
    const status = answer && answer.status;
    if (status === "signed_out" || status === "not_organizer") {
      if (answer.login) signIn = answer.login;
      return status;
    }
    if (status === "saved") {
      Object.assign(item, { state: "sent", url: answer.url, game: answer.game, reason: "", problem: "" });
      delete item.stored;
    } else if (status === "conflict") {
      Object.assign(item, { state: "check", reason: answer.reason, problem: "", stored: answer.stored || null });
    } else if (status === "refused") {
      Object.assign(item, { state: "check", reason: (answer.messages || []).join(" "), problem: "", stored: null });
    } else {
      return "failed";
    }
    await put(item);
    return "";
  };

  const sendQueued = async () => {
    let failed = "";
    for (const kept of await all()) {
      if (kept.state !== "queued") continue;
      const item = await get(kept.id); // another tab may have sent it meanwhile
      if (!item || item.state !== "queued") continue;
      const why = await sendOne(item);
      if (why === "failed") failed = why; // this one later; the others now
      else if (why) return why; // offline, or a sign-in needed: none can go
    }
    return failed;
  };

  // Send every queued game, one tab at a time (Web Locks where the browser has them; the
  // server takes each id once either way).
  const send = async () => {
    if (!navigator.onLine) {
      stopped = "offline";
    } else if (navigator.locks) {
      stopped = await navigator.locks.request("shirakaba-send", sendQueued);
    } else {
      stopped = await sendQueued();
    }
    changed();
    return stopped;
  };

  // Why this device cannot keep games, or "" when it can: a service worker (which keeps the
  // pages) needs a secure context (https://, or localhost), and the queue needs the browser's
  // database, which a private window may refuse. Asked once; on an insecure page nothing is
  // opened (not even the database), so such a page keeps nothing.
  let problem;
  const cannotKeep = () =>
    (problem ||= (async () => {
      if (!self.isSecureContext) return "insecure";
      if (!("serviceWorker" in navigator)) return "no_worker";
      try {
        (await open()).close();
      } catch (error) {
        return "no_storage";
      }
      return "";
    })());

  self.ShirakabaQueue = {
    CHANGED,
    cannotKeep,
    refused: "",
    all,
    get,
    put,
    remove,
    newId,
    persist,
    send,
    stopped: () => stopped,
    signIn: () => signIn,
  };
})();
