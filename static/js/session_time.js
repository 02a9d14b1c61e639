// The warning before an organizer's session ends: a session ends after
// SESSION_COOKIE_AGE seconds without a request, so a few minutes before (five, or half the
// time when it is shorter) a dialog offers 「延長する」, which touches the session with a small
// POST. Nothing on the page is reloaded: a form being typed keeps what it holds, and the
// focus goes back to where it was when the dialog closes. Any request of the page (the live
// check) starts the count again.
(() => {
  const dialog = document.getElementById("session-warning");
  if (!dialog || typeof dialog.showModal !== "function") return;
  let seconds = Number(dialog.dataset.seconds);
  if (!(seconds > 0)) return;
  const lead = () => Math.min(300, seconds / 2);
  const soon = dialog.querySelector("[data-say=soon]");
  const ended = dialog.querySelector("[data-say=ended]");
  const extend = dialog.querySelector("[data-extend]");
  let warnTimer = 0;
  let endTimer = 0;

  const sayEnded = () => {
    soon.hidden = true;
    ended.hidden = false;
    extend.hidden = true;
    if (!dialog.open) dialog.showModal();
  };
  const warn = () => {
    soon.hidden = false;
    ended.hidden = true;
    extend.hidden = false;
    if (!dialog.open) dialog.showModal();
    extend.focus();
  };
  const count = () => {
    clearTimeout(warnTimer);
    clearTimeout(endTimer);
    warnTimer = setTimeout(warn, (seconds - lead()) * 1000);
    endTimer = setTimeout(sayEnded, seconds * 1000);
  };

  extend.addEventListener("click", async () => {
    const token = document.querySelector("[name=csrfmiddlewaretoken]");
    const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    try {
      const answer = await fetch(dialog.dataset.extendUrl, {
        method: "POST",
        headers: { "X-CSRFToken": headers["x-csrftoken"] || (token && token.value) || "" },
        credentials: "same-origin",
        redirect: "manual",
      });
      if (!answer.ok) throw new Error(String(answer.status));
      seconds = Number((await answer.json()).seconds) || seconds;
      dialog.close();
      count();
    } catch (error) {
      sayEnded();
    }
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
  // The page's own requests (htmx: the live check, the queue) reach the server too.
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status && xhr.status !== 401 && !dialog.open) count();
  });
  count();
})();
