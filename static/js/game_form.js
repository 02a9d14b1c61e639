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

  // The bar at the bottom (total and save) grows and shrinks with the live check: keep the
  // field being typed in above it.
  const bar = form.querySelector(".entry-bar");
  const clearOfTheBar = () => {
    document.documentElement.style.scrollPaddingBottom = `${bar.offsetHeight + 16}px`;
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
