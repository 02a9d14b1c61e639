// A hard word's meaning in one line: a tap on the word, or the keyboard's focus,
// shows it under the word (scoring.glossary, drawn by the term tag as a button with
// data-meaning); a tap elsewhere, Escape or moving on hides it. One line at a time, read out
// by a screen reader (role="status"). (Ruby on or off is static/js/display.js's.)
(() => {
  const said = document.createElement("span");
  said.id = "term-meaning";
  said.className = "term-meaning";
  said.setAttribute("role", "status");
  said.hidden = true;
  document.body.append(said);
  let shown = null;

  const hide = () => {
    if (!shown) return;
    shown.setAttribute("aria-expanded", "false");
    shown.removeAttribute("aria-describedby");
    shown = null;
    said.hidden = true;
    said.textContent = "";
  };
  const show = (word) => {
    if (shown === word) return;
    hide();
    shown = word;
    said.textContent = word.dataset.meaning;
    said.hidden = false;
    const box = word.getBoundingClientRect();
    const left = Math.max(8, Math.min(box.left, document.documentElement.clientWidth - said.offsetWidth - 8));
    said.style.left = `${left + window.scrollX}px`;
    said.style.top = `${box.bottom + window.scrollY + 4}px`;
    word.setAttribute("aria-expanded", "true");
    word.setAttribute("aria-describedby", said.id);
  };
  document.addEventListener("click", (event) => {
    const word = event.target.closest && event.target.closest("button.term");
    if (word) show(word);
    else hide();
  });
  document.addEventListener("focusin", (event) => {
    const word = event.target.closest && event.target.closest("button.term");
    if (word) show(word);
    else hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  window.addEventListener("resize", hide);
})();
