// The game form at the venue.
// - What is typed is kept in sessionStorage (per page, this tab only). When the session has
//   ended, the live check says so and links to the sign-in page; the form that opens right
//   after signing in puts the typed values back. Any other visit starts clean.
// - The form is sent once: a second Enter while the first is on its way does nothing.
// - Offline, the live check runs here (static/js/entry_check.js, the server's check
//   in JavaScript, held to the same table of cases) and a save goes into the device's queue
//   (static/js/queue.js) when the check lets it, refused with the server's words when not.
//   A game opened from the queue (#queued=<id>) is changed there, never saved twice.
// Without JavaScript the form still works; it only forgets on a session end.
(() => {
  const form = document.getElementById("game-form");
  if (!form) return;
  const key = form.dataset.draftKey;

  // The browser applies autofocus only at the first frame it draws; a key pressed before
  // that (typing on while the page loads) went to the page and was lost: focus at once.
  // A refused save: the focus goes to what was refused, the first field named
  // (its error read with it through aria-describedby), else the message at the top.
  const errorSummary = document.getElementById("error-summary");
  const stale = document.querySelector(".form-errors[role=alert]:not([hidden])");
  const refused = errorSummary && errorSummary.dataset.firstRefused;
  const first = refused ? document.getElementById(refused) : errorSummary || stale || form.querySelector("[autofocus]");
  if (first && document.activeElement === document.body) {
    const folded = first.closest("details:not([open])");
    if (folded) folded.open = true;
    if (first.matches(".form-errors") && !first.hasAttribute("tabindex")) first.tabIndex = -1;
    first.focus();
  }
  if (errorSummary) {
    errorSummary.addEventListener("click", (event) => {
      const link = event.target.closest("a[href^='#']");
      const field = link && document.getElementById(link.hash.slice(1));
      if (!field) return;
      event.preventDefault();
      const folded = field.closest("details:not([open])");
      if (folded) folded.open = true;
      field.focus();
    });
  }

  const values = () => {
    const kept = {};
    for (const el of form.elements) {
      if (!el.name || el.name === "csrfmiddlewaretoken") continue;
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked) kept[el.name] = el.value;
      } else {
        kept[el.name] = el.value;
      }
    }
    return kept;
  };

  const putBack = (kept) => {
    for (const el of form.elements) {
      if (!el.name || !(el.name in kept)) continue;
      if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === kept[el.name];
      else el.value = kept[el.name];
    }
  };

  const keep = () => {
    try {
      sessionStorage.setItem(key, JSON.stringify(values()));
    } catch (error) {
      // Storage full or refused: the form works as before.
    }
  };

  const cameFromSignIn = () => {
    try {
      return new URL(document.referrer).pathname === form.dataset.loginPath;
    } catch (error) {
      return false;
    }
  };

  const kept = sessionStorage.getItem(key);
  if (kept && !("bound" in form.dataset) && cameFromSignIn()) {
    putBack(JSON.parse(kept));
    document.getElementById("draft-note").hidden = false;
    // Check the restored values once htmx listens (it starts on DOMContentLoaded).
    document.addEventListener("DOMContentLoaded", () => htmx.trigger(form, "change"));
  } else if (!("bound" in form.dataset)) {
    sessionStorage.removeItem(key);
  }
  form.addEventListener("input", keep);
  form.addEventListener("change", keep);

  // The 錯和 and 満貫以上 rows say whose they are: the name as typed at once, then the member
  // the live check found (its "seat-names").
  const showName = (seat, name) => {
    const span = form.querySelector(`.seat-name[data-seat="${seat}"]`);
    if (span) span.textContent = name;
  };
  form.addEventListener("input", (event) => {
    const typed = /^seat-(\d)-player$/.exec(event.target.name || "");
    if (typed) showName(typed[1], event.target.value.trim());
  });
  document.addEventListener("htmx:afterSettle", () => {
    const found = document.getElementById("seat-names");
    if (found) JSON.parse(found.textContent).forEach((name, seat) => showName(seat, name));
  });

  // The unit the scores are typed in is said above the scores, where the eye is while typing
  // (the choice itself is at the top, scrolled away on a phone), and follows the choice.
  const unitNow = form.querySelector("[data-unit-now]");
  if (unitNow) {
    form.addEventListener("change", (event) => {
      if (event.target.name !== "unit") return;
      const hundreds = event.target.value === "hundreds";
      unitNow.textContent = hundreds ? unitNow.dataset.hundreds : unitNow.dataset.points;
      unitNow.classList.toggle("hundreds", hundreds);
    });
  }

  // --- seats from the dice ---------------------------------------------------------------------
  // The form from the draw opens with the drawn players in the draw's order; the seats are
  // decided at the table by the dice (the record sheet: 「席（東南西北）はサイコロで決めて書き入れて
  // ください」). Tap who sat 東, then 南, …: the last one takes the seat left. Each player's row
  // (name, score, chombo, hands, guest) moves with them to their seat.
  const dice = document.getElementById("dice-seats");
  if (dice) {
    const diceText = (key, values = {}) => {
      const found = document.getElementById("dice-texts").content.querySelector(`[data-text="${key}"]`);
      return found.textContent.trim().replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
    };
    const say = dice.querySelector(".dice-say");
    const buttons = dice.querySelector(".dice-players");
    const again = dice.querySelector("[data-dice-again]");
    const labels = [...form.querySelectorAll(":scope > .seat-rows > table.entry tr[data-seat] th.seat")].map((th) => th.textContent.trim());
    const fields = ["player", "score", "chombo", "hands", "guest"];
    const seated = () =>
      [0, 1, 2, 3].filter((seat) => {
        const row = form.querySelector(`table.entry tr[data-seat="${seat}"]`);
        return !row.hidden && form.elements[`seat-${seat}-player`].value.trim();
      });
    const rowOf = (seat) =>
      Object.fromEntries(
        fields.map((f) => {
          const el = form.elements[`seat-${seat}-${f}`];
          return [f, el.type === "checkbox" ? el.checked : el.value];
        }),
      );
    const putRow = (seat, values) => {
      for (const f of fields) {
        const el = form.elements[`seat-${seat}-${f}`];
        if (el.type === "checkbox") el.checked = values[f];
        else el.value = values[f];
      }
      showName(seat, values.player.trim());
    };
    let order = []; // the seats (as the rows stand) of the players tapped, 東 first
    let seats = [];
    const draw = () => {
      buttons.replaceChildren(
        ...seats.map((seat) => {
          const at = order.indexOf(seat);
          const button = document.createElement("button");
          button.type = "button";
          button.className = `button dice-player ${at < 0 ? "secondary" : "primary"}`;
          button.dataset.seat = seat;
          button.setAttribute("aria-pressed", String(at >= 0));
          button.disabled = at >= 0 || order.length === seats.length;
          const where = document.createElement("span");
          where.className = "dice-where";
          where.textContent = at >= 0 ? labels[at] : "";
          button.append(where, form.elements[`seat-${seat}-player`].value.trim());
          return button;
        }),
      );
      const done = order.length === seats.length;
      say.textContent = done ? diceText("done") : diceText("next", { seat: labels[order.length] });
      again.hidden = order.length === 0;
    };
    const start = () => {
      order = [];
      seats = seated();
      dice.hidden = seats.length < 2;
      draw();
    };
    // A form sent back by the server (a refused save): the rows hold the
    // seats as they were set, so the panel says so and offers to set them again.
    const asSet = () => {
      start();
      order = [...seats];
      draw();
      say.textContent = diceText("kept");
      again.hidden = false;
    };
    buttons.addEventListener("click", (event) => {
      const button = event.target.closest("button.dice-player");
      if (!button || button.disabled) return;
      order.push(Number(button.dataset.seat));
      const left = seats.filter((seat) => !order.includes(seat));
      if (left.length === 1) order.push(left[0]); // the last one takes the seat left
      if (order.length === seats.length) {
        const rows = Object.fromEntries(seats.map((seat) => [seat, rowOf(seat)]));
        order.forEach((from, to) => putRow(seats[to], rows[from]));
        order = [...seats]; // each row's player now sits at that row's seat
        keep();
        if (self.htmx) htmx.trigger(form, "change"); // the live check (the device's offline)
        draw();
        return;
      }
      draw();
    });
    again.addEventListener("click", start);
    form.querySelector("[name=rule_set]").addEventListener("change", () => {
      if (order.length === 0) setTimeout(start); // after the 北 rows are shown or hidden
    });
    // A name changed by hand (a substitute sat in): the buttons follow, until a tap.
    form.addEventListener("input", (event) => {
      if (/^seat-\d-player$/.test(event.target.name || "") && order.length === 0) start();
    });
    if ("seated" in dice.dataset) asSet();
    else start();
  }

  // What the check on the device needs (scoring/entry_check.py), read once: the rule sets'
  // parameters, the members, the texts.
  const checkData = JSON.parse(document.getElementById("entry-check-data").textContent);

  // A 3-player rule set has no 北 rows (unless something is typed in them).
  const ruleSet = form.querySelector("[name=rule_set]");
  const showSeats = () => {
    const seats = (checkData.rule_sets[ruleSet.value] || {}).players || 4;
    for (const row of form.querySelectorAll("tr[data-seat]")) {
      const seat = row.dataset.seat;
      const typed = ["player", "score"].some((f) => form.elements[`seat-${seat}-${f}`].value.trim());
      row.hidden = Number(seat) >= seats && !typed;
    }
  };
  ruleSet.addEventListener("change", showSeats);

  // The bar at the bottom (total and save) grows and shrinks with the live check: keep the
  // field being typed in above it. In landscape the bar stands beside the rows instead.
  const bar = form.querySelector(".entry-bar");
  // A live check taller than its box (large text on a phone) scrolls inside it: it is then a
  // stop of the keyboard's too, so that the arrow keys scroll it (it holds no control).
  const scrollsByKeys = () => {
    const box = document.getElementById("settlement");
    if (!box) return;
    if (box.scrollHeight > box.clientHeight + 1) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
  };
  scrollsByKeys();
  // A phone at large text (特大, the browser's 200 %; the CSS says so in --compact-at-foot):
  // kept at the screen's foot, the bar is the sum and Save only (with the places and P it took
  // half the screen, one seat row above it); where it rests in the page's flow, under the seat
  // rows, Save stands above the sum and the places and P follow, in the flow, not kept.
  const landscape = matchMedia("(orientation: landscape) and (min-width: 56rem)");
  const seatRows = form.querySelector(":scope > .seat-rows");
  const atTheFoot = () => {
    const box = document.getElementById("settlement");
    const compact =
      !landscape.matches && box && getComputedStyle(box).getPropertyValue("--compact-at-foot").trim() === "1";
    bar.toggleAttribute("data-compact", Boolean(compact));
    if (!compact) {
      bar.removeAttribute("data-foot");
      return;
    }
    // The bar's height without the places and P (hidden while it is kept at the foot).
    const table = box.querySelector(".results.preview");
    const shown = table && table.getClientRects().length > 0;
    const apart = shown ? table.offsetHeight + parseFloat(getComputedStyle(table).marginTop) : 0;
    // Its place in the flow starts where the seat rows end: kept at the foot while that
    // place is not in view with room for the sum and Save.
    const foot = seatRows.getBoundingClientRect().bottom + bar.offsetHeight - apart > innerHeight;
    if (foot !== bar.hasAttribute("data-foot")) {
      bar.toggleAttribute("data-foot", foot);
      scrollsByKeys();
    }
  };
  window.addEventListener("scroll", atTheFoot, { passive: true });
  atTheFoot();
  const clearOfTheBar = () => {
    atTheFoot();
    scrollsByKeys();
    // Kept at the screen's foot: in portrait always, except the compact bar at rest in the
    // flow under the seat rows (its top is the offline band's, never "auto", so ask the mode).
    const atTheBottom = bar.hasAttribute("data-compact") ? bar.hasAttribute("data-foot") : !landscape.matches;
    const padding = atTheBottom ? bar.offsetHeight + 16 : 16;
    document.documentElement.style.scrollPaddingBottom = `${padding}px`;
    const field = document.activeElement;
    if (field && form.contains(field) && !bar.contains(field)) {
      field.scrollIntoView({ block: "nearest" });
      atTheFoot();
    }
  };
  document.addEventListener("htmx:afterSettle", clearOfTheBar);
  window.addEventListener("resize", clearOfTheBar);
  // The field that takes the focus comes to rest above the bar.
  form.addEventListener("focusin", clearOfTheBar);

  // A tablet in landscape (the bar beside the rows): a new form opens with the four seat rows
  // in view, scrolled down to them when the window is too short for the page's head too. Not
  // when the form has something to say at its top (refused, a date ahead, a kept game).
  const rowsInView = () => {
    const rows = [...form.querySelectorAll(":scope > .seat-rows > table.entry tbody tr")].filter((tr) => !tr.hidden);
    const last = rows[rows.length - 1];
    if (!last || last.getBoundingClientRect().bottom <= innerHeight) return;
    last.scrollIntoView({ block: "end" });
  };
  const saysSomething = () =>
    "bound" in form.dataset || location.hash || form.querySelector(".meet-ahead, .form-errors:not([hidden])");
  if (landscape.matches && window.scrollY === 0 && !saysSomething()) {
    if (document.readyState === "complete") rowsInView();
    else window.addEventListener("load", rowsInView, { once: true });
  }

  // --- offline: the check on the device, and the queue --------------------------------------
  const queue = self.ShirakabaQueue;
  const checker = self.ShirakabaCheck;
  const settlement = () => document.getElementById("settlement");
  const checkHere = () => {
    const result = checker.check(checker.read(form), checkData);
    settlement().innerHTML = checker.render(result, checkData);
    const names = result.seat_names || [];
    names.forEach((name, seat) => showName(seat, name));
    scrollsByKeys();
    return result;
  };
  // Offline: the browser says so, or the live check just failed to reach the server (a
  // network that is up but reaches nothing); the next live check that gets through clears it.
  let unreachable = false;
  const offline = () => !navigator.onLine || unreachable;
  if (checker) {
    // No live check from the server while offline: the device's.
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (!navigator.onLine && event.detail.elt === form) {
        event.preventDefault();
        checkHere();
      }
    });
    document.addEventListener("htmx:sendError", (event) => {
      if (event.detail.elt !== form) return;
      unreachable = true;
      checkHere();
    });
    document.addEventListener("htmx:afterRequest", (event) => {
      if (event.detail.elt === form && event.detail.xhr && event.detail.xhr.status) unreachable = false;
    });
    window.addEventListener("offline", checkHere);
  }

  const refusal = document.getElementById("offline-refusal");
  const refuse = (messages) => {
    refusal.replaceChildren(
      ...messages.map((message) => {
        const line = document.createElement("p");
        line.textContent = message;
        return line;
      }),
    );
    refusal.hidden = messages.length === 0;
    if (messages.length) {
      // Refused on the device: the focus goes to the words, read out.
      refusal.tabIndex = -1;
      refusal.focus();
      refusal.scrollIntoView({ block: "nearest" });
    }
  };

  const seatLabels = [...form.querySelectorAll("tr[data-seat] th.seat")].map((th) => th.textContent.trim());
  const summary = (result) => {
    const lines = [];
    for (let seat = 0; seat < 4; seat += 1) {
      const name = (result.seat_names || [])[seat] || form.elements[`seat-${seat}-player`].value.trim();
      const points = (result.points || [])[seat];
      if (!name && points == null) continue;
      // Places and P as the device settled them, chombo and big hands: read back at the table.
      const settled = (result.settled || [])[seat] || {};
      lines.push({
        seat: seatLabels[seat],
        name,
        score: points == null ? "" : points,
        place: settled.place || "",
        total: settled.total || "",
        chombo: settled.chombo || 0,
        hands: settled.hands || "",
      });
    }
    return {
      meet_label: form.dataset.meetLabel,
      round: form.elements.round_no.value.trim(),
      table: form.elements.table_no.value.trim(),
      lines,
    };
  };

  const queuedId = () => (/^#queued=([\w-]+)$/.exec(location.hash) || [])[1];
  const keepInQueue = async () => {
    const result = checkHere();
    if (result.refusal.length) {
      refuse(result.refusal);
      return;
    }
    refuse([]);
    const id = form.dataset.queuedId || queue.newId();
    const before = form.dataset.queuedId ? await queue.get(id) : null;
    if (form.dataset.queuedId && (!before || before.state === "sent")) {
      // Sent (or dropped) from another tab meanwhile: a change now would be lost.
      refuse([document.getElementById("queued-gone").content.textContent.trim()]);
      return;
    }
    const item = {
      ...(before || {}),
      id,
      meet: form.dataset.meet,
      sendUrl: form.dataset.sendUrl,
      meetUrl: form.dataset.meetUrl,
      formUrl: before ? before.formUrl : location.pathname + location.search,
      fields: values(),
      summary: summary(result),
      state: "queued",
      reason: "",
      saved: before ? before.saved : new Date().toISOString(),
    };
    if (form.dataset.game && !before) {
      // A stored game changed offline: it replaces that game when sent, if nobody changed it.
      item.replace = form.dataset.game;
      item.version = form.elements.version.value;
    }
    await queue.put(item);
    queue.persist();
    sessionStorage.removeItem(key);
    if (!offline()) await queue.send();
    location.href = `${form.dataset.meetUrl}#queue`;
  };

  if (queue && queuedId()) {
    queue.get(queuedId()).then((item) => {
      if (!item || item.state === "sent") return;
      putBack(item.fields);
      form.dataset.queuedId = item.id;
      document.getElementById("queued-note").hidden = false;
      showSeats();
      if (checker) checkHere();
    });
  }

  const button = form.querySelector("button[type=submit]");
  form.addEventListener("submit", (event) => {
    if (form.dataset.sending) {
      event.preventDefault();
      return;
    }
    if (queue && queue.refused && offline()) {
      // This device cannot keep games (static/js/offline.js says why): nothing is kept, and
      // the form stays as typed for when the connection is back.
      event.preventDefault();
      refuse([document.getElementById("cannot-keep").content.textContent.trim()]);
      return;
    }
    if (queue && checker && (offline() || form.dataset.queuedId)) {
      event.preventDefault();
      // Once, as online: a second tap while the first is kept does nothing.
      form.dataset.sending = "1";
      keepInQueue().finally(() => {
        if (!refusal.hidden) delete form.dataset.sending; // refused: it may be sent again
      });
      return;
    }
    keep();
    form.dataset.sending = "1";
    button.setAttribute("aria-disabled", "true");
    button.classList.add("is-busy");
  });
  // Back to this page from the next one: it may be sent again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    delete form.dataset.sending;
    button.removeAttribute("aria-disabled");
    button.classList.remove("is-busy");
  });
})();
