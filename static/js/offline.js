// The organizer's pages at a venue without Wi-Fi, on every organizer's page:
// - registers the service worker (/sw.js) and, on a meet's page opened online, tells it to keep
//   that meet's page, its draw and its game forms on the device;
// - the band at the top while offline;
// - the queue (static/js/queue.js): 「未送信 2 件」, its list (edit or drop a game, 要確認 with
//   both versions side by side), 「今すぐ送信」, and sending whenever a page opens or the
//   network comes back;
// - signing out with unsent games asks first and names them.
(() => {
  const queue = self.ShirakabaQueue;
  const panel = document.getElementById("queue");
  if (!queue || !panel) return;
  const texts = document.getElementById("queue-texts").content;
  const text = (key, values = {}) => {
    const found = texts.querySelector(`[data-text="${key}"]`);
    const template = found ? found.textContent : key;
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  };
  const element = (tag, attributes = {}, ...children) => {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
    made.append(...children);
    return made;
  };

  const unsent = (items) => items.filter((item) => item.state !== "sent");
  const summaryOf = (item) => (item && typeof item.summary === "object" && item.summary) || {};

  // 「2026年11月25日（水） 1回戦 1卓」: the queue is the device's, for every meet.
  const where = (item) => {
    const summary = summaryOf(item);
    const place = text("where", { round: summary.round ?? "?", table: summary.table ?? "?" });
    return summary.meet_label ? `${summary.meet_label} ${place}` : place;
  };

  // --- signing out with games not sent ----------------------------------------------------
  // Attached at once, not after the device's check below: a tap on ログアウト just after the
  // page opens still asks (the check's answer is awaited inside).
  for (const form of document.querySelectorAll("form[data-sign-out]")) {
    form.addEventListener("submit", async (event) => {
      if (form.dataset.confirmed) return;
      event.preventDefault();
      const items = (await queue.cannotKeep()) ? [] : await queue.all().catch(() => []);
      const waiting = unsent(items);
      if (waiting.length && !window.confirm(text("sign_out_warning", { n: waiting.length, games: waiting.map(where).join("、") }))) return;
      form.dataset.confirmed = "1";
      // What was sent is on the server: it leaves the device with the organizer.
      for (const item of items) if (item.state === "sent") await queue.remove(item.id).catch(() => {});
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        navigator.serviceWorker.controller.postMessage({ type: "forget" });
      }
      form.requestSubmit();
    });
  }

  // --- a device that cannot keep games says so, once, and keeps nothing --------------------
  // (not https://, no service worker, or a private window refusing the browser's database)
  const band = document.getElementById("offline-band");
  const notice = document.getElementById("offline-unavailable");
  queue.cannotKeep().then((problem) => {
    if (!problem) return start();
    queue.refused = problem;
    band.textContent = text("band_cannot_keep");
    const showBand = () => {
      band.hidden = navigator.onLine;
      document.body.classList.toggle("is-offline", !navigator.onLine);
    };
    showBand();
    window.addEventListener("offline", showBand);
    window.addEventListener("online", showBand);
    if (sessionStorage.getItem("shirakaba-cannot-keep-read") === problem) return;
    notice.querySelector(".notice-text").textContent = text(`cannot_keep_${problem}`);
    notice.hidden = false;
    notice.querySelector("button").addEventListener("click", () => {
      notice.hidden = true;
      sessionStorage.setItem("shirakaba-cannot-keep-read", problem);
    });
  });

  function start() {
  // --- the service worker, and the pages it keeps ---------------------------------------
  const keepList = document.getElementById("offline-keep");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(panel.dataset.worker, { scope: "/" }).catch(() => {});
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "kept") document.body.dataset.kept = event.data.kept;
    });
    if (keepList && navigator.onLine) {
      const urls = new Set(JSON.parse(keepList.textContent));
      for (const link of document.querySelectorAll("a[data-keep-offline]")) urls.add(link.getAttribute("href"));
      navigator.serviceWorker.ready.then((registration) =>
        registration.active.postMessage({ type: "keep", urls: [...urls] }),
      );
    }
  }

  // --- the band at the top -----------------------------------------------------------------
  // Its height, as --band-height, is where what sticks to the top of the window stops (the game
  // form's Save bar): the band wraps to two or three lines on a phone.
  const measureBand = () =>
    document.documentElement.style.setProperty("--band-height", `${band.offsetHeight}px`);
  const showBand = () => {
    band.hidden = navigator.onLine;
    document.body.classList.toggle("is-offline", !navigator.onLine);
    measureBand();
  };
  if ("ResizeObserver" in window) new ResizeObserver(measureBand).observe(band);
  showBand();
  window.addEventListener("offline", showBand);
  window.addEventListener("online", () => {
    showBand();
    queue.send();
  });

  // --- the queue's panel ---------------------------------------------------------------------
  const count = panel.querySelector(".queue-count");
  const list = panel.querySelector(".queue-list");
  const signIn = panel.querySelector(".queue-sign-in");
  const problem = panel.querySelector(".queue-problem");
  const queued = (items) => items.filter((item) => item.state === "queued");
  // Only the site's own addresses go into a link (a kept item is data, not trusted code).
  const own = (url) => (typeof url === "string" && /^\/[^/\\]/.test(url) ? url : "#");
  // A kept game's lines: seat, name, score, and (settled on the device) place and P, with the
  // chombo and big hands under the player's name. The server's version of a 要確認 game has
  // seat, name and score only.
  const notesOf = (row) => {
    const notes = [];
    if (Number(row.chombo) > 0) notes.push(text("chombo", { n: Number(row.chombo) }));
    if (row.hands) notes.push(String(row.hands));
    return notes.length ? [element("span", { class: "queue-notes" }, notes.join("・"))] : [];
  };
  const lines = (rows) =>
    Array.isArray(rows) &&
    element(
      "table",
      { class: "queue-lines" },
      element(
        "tbody",
        {},
        ...rows.map((row) =>
          element(
            "tr",
            {},
            element("th", { scope: "row" }, String(row.seat)),
            element("td", { class: "queue-name" }, String(row.name), ...notesOf(row)),
            element("td", { class: "num" }, Number(row.score).toLocaleString("ja-JP")),
            element(
              "td",
              { class: "num queue-p" },
              row.total ? text("settled", { place: row.place, total: row.total }) : "",
            ),
          ),
        ),
      ),
    );
  const button = (label, action, item, kind = "secondary") =>
    element("button", { type: "button", class: `button ${kind} small`, "data-action": action, "data-id": item.id }, label);

  const drawItem = (item) => {
    const state = { queued: text("queued"), sent: text("sent"), check: text("check") }[item.state] || "?";
    const head = element(
      "p",
      { class: "queue-head" },
      element("strong", {}, where(item)),
      " ",
      element("span", { class: `badge state-${item.state}` }, state),
    );
    const entry = element("li", { class: `queue-item state-${item.state}`, "data-id": item.id }, head);
    if (item.state === "sent") {
      entry.append(element("p", {}, element("a", { href: own(item.url) }, text("open"))));
      return entry;
    }
    if (item.state === "check") {
      const reason = item.problem ? text("unsendable", { detail: item.problem }) : item.reason;
      entry.append(element("p", { class: "check bad", role: "alert" }, String(reason || "")));
      if (item.stored) {
        entry.append(
          element(
            "div",
            { class: "queue-versions" },
            element("div", {}, element("h4", {}, text("this_device")), lines(summaryOf(item).lines) || ""),
            element(
              "div",
              {},
              element("h4", {}, element("a", { href: own(item.stored.url) }, text("saved_one"))),
              lines(item.stored.lines) || "",
            ),
          ),
        );
      } else {
        entry.append(lines(summaryOf(item).lines) || "");
      }
      const actions = element("p", { class: "actions" });
      if (item.stored) {
        actions.append(button(text("keep_mine"), "keep-mine", item, "primary"), " ");
        actions.append(button(text("keep_stored"), "drop", item), " ");
      } else {
        actions.append(button(text("send_again"), "send-again", item, "primary"), " ");
      }
      actions.append(element("a", { class: "button secondary small", href: `${own(item.formUrl)}#queued=${item.id}` }, text("edit")), " ");
      if (!item.stored) actions.append(button(text("drop"), "drop", item));
      entry.append(actions);
      return entry;
    }
    entry.append(lines(summaryOf(item).lines) || "");
    entry.append(
      element(
        "p",
        { class: "actions" },
        element("a", { class: "button secondary small", href: `${own(item.formUrl)}#queued=${item.id}` }, text("edit")),
        " ",
        button(text("drop"), "drop", item),
      ),
    );
    return entry;
  };

  // On a meet's page, the tables whose games wait on this device say so, and their button
  // opens the kept game (entering the table afresh would keep it twice).
  const markTables = (items) => {
    for (const badge of document.querySelectorAll(".game.empty .queued-badge")) badge.remove();
    for (const cell of document.querySelectorAll(".game.empty[data-round]")) {
      const { meet, round, table } = cell.dataset;
      const item = unsent(items).find((kept) => {
        const summary = summaryOf(kept);
        return String(kept.meet) === meet && String(summary.round) === round && String(summary.table) === table;
      });
      const link = cell.querySelector("a.button[data-keep-offline]");
      if (link && !link.dataset.enter) link.dataset.enter = link.getAttribute("href");
      if (link) link.setAttribute("href", item ? `${own(item.formUrl)}#queued=${item.id}` : link.dataset.enter);
      if (item) cell.querySelector("h3").append(" ", element("span", { class: "badge queued-badge" }, text(item.state === "check" ? "check" : "unsent_short")));
    }
  };

  const draw = async () => {
    let items;
    try {
      items = await queue.all();
    } catch (error) {
      return; // no IndexedDB (a private window in some browsers): nothing is kept
    }
    const waiting = unsent(items);
    const toCheck = items.filter((item) => item.state === "check").length;
    panel.hidden = items.length === 0;
    count.textContent = text("unsent", { n: queued(items).length }) + (toCheck ? ` ・ ${text("to_check", { n: toCheck })}` : "");
    panel.classList.toggle("has-unsent", waiting.length > 0);
    list.replaceChildren(
      ...items.map((item) => {
        try {
          return drawItem(item);
        } catch (error) {
          // A kept game that cannot be read (an older version's, or edited by hand): it can
          // still be dropped.
          return element("li", { class: "queue-item state-check", "data-id": item.id }, element("p", {}, text("unreadable")), button(text("drop"), "drop", item));
        }
      }),
    );
    if (location.hash === "#queue" && waiting.length) panel.querySelector("details").open = true;
    const stopped = queue.stopped();
    signIn.hidden = stopped !== "signed_out";
    const link = signIn.querySelector("a");
    link.href = `${queue.signIn() || link.dataset.login}?next=${encodeURIComponent(location.pathname + location.search)}`;
    problem.hidden = !["not_organizer", "failed"].includes(stopped);
    problem.textContent = stopped === "not_organizer" ? text("not_organizer") : text("failed");
    markTables(items);
  };
  document.addEventListener(queue.CHANGED, draw);

  panel.addEventListener("click", async (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.dataset.action === "send") {
      await queue.send();
      return;
    }
    if (target.dataset.action === "clear-sent") {
      for (const item of await queue.all()) if (item.state === "sent") await queue.remove(item.id);
      return;
    }
    const item = await queue.get(target.dataset.id);
    if (!item) return;
    if (target.dataset.action === "drop") {
      const question = item.stored ? text("keep_stored_confirm", { where: where(item) }) : text("drop_confirm", { where: where(item) });
      if (window.confirm(question)) await queue.remove(item.id);
    } else if (target.dataset.action === "keep-mine") {
      Object.assign(item, { state: "queued", replace: item.stored.game, version: item.stored.version, reason: "" });
      await queue.put(item);
      await queue.send();
    } else if (target.dataset.action === "send-again") {
      Object.assign(item, { state: "queued", reason: "" });
      await queue.put(item);
      await queue.send();
    }
  });

  draw();
  queue.send(); // any page that opens sends what waits
  // A network that is up but reached nothing sends no "online" event: try again now and then
  // while games wait.
  setInterval(async () => {
    if (!navigator.onLine) return;
    const items = await queue.all().catch(() => []);
    if (items.some((item) => item.state === "queued")) queue.send();
  }, 30_000);
  }
})();
