// Ruby (ふりがな) over the club's hard words and members' names, on or off: run in the head,
// before the page is drawn, so the page never jumps. A signed-in member's choice comes from
// the server (data-ruby on <html>) and is kept on this device too; otherwise the device's.
(() => {
  const KEY = "shirakaba:ruby";
  const root = document.documentElement;
  let on = false;
  try {
    if (root.dataset.ruby) localStorage.setItem(KEY, root.dataset.ruby);
    on = (root.dataset.ruby || localStorage.getItem(KEY)) === "on";
  } catch (error) {
    on = root.dataset.ruby === "on"; // storage refused: the server's word only
  }
  root.classList.toggle("ruby-on", on);
})();
