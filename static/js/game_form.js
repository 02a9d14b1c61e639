// The game form at the venue.
// - What is typed is kept in sessionStorage (per page, this tab only). When the session has
//   ended, the live check says so and links to the sign-in page; the form that opens right
//   after signing in puts the typed values back. Any other visit starts clean.
// - The form is sent once: a second Enter while the first is on its way does nothing.
// Without JavaScript the form still works; it only forgets on a session end.
(() => {
  const form = document.getElementById("game-form");
  if (!form) return;
  const key = form.dataset.draftKey;

  // The browser applies autofocus only at the first frame it draws; a key pressed before
  // that (typing on while the page loads) went to the page and was lost: focus at once.
  const first = form.querySelector("[autofocus]");
  if (first && document.activeElement === document.body) first.focus();

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

  // A 3-player rule set has no 北 rows (unless something is typed in them).
  const players = JSON.parse(document.getElementById("rule-set-players").textContent);
  const ruleSet = form.querySelector("[name=rule_set]");
  const showSeats = () => {
    const seats = players[ruleSet.value] || 4;
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
  const clearOfTheBar = () => {
    const atTheBottom = getComputedStyle(bar).top === "auto";
    const padding = atTheBottom ? bar.offsetHeight + 16 : 16;
    document.documentElement.style.scrollPaddingBottom = `${padding}px`;
    const field = document.activeElement;
    if (field && form.contains(field) && !bar.contains(field)) {
      field.scrollIntoView({ block: "nearest" });
    }
  };
  document.addEventListener("htmx:afterSettle", clearOfTheBar);
  window.addEventListener("resize", clearOfTheBar);

  const button = form.querySelector("button[type=submit]");
  form.addEventListener("submit", (event) => {
    if (form.dataset.sending) {
      event.preventDefault();
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
