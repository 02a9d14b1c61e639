// The text size and contrast (文字の大きさ・コントラスト): loaded in the page's head, not
// deferred, so that the device's choice is set on <html> before the first paint (no flash of
// the standard size). A signed-in login's saved choice (data-display-saved, from the server)
// wins and is kept on the device; without one, the device's choice is used and, when signed
// in, saved with the login for its other devices.
(function () {
  "use strict";
  var root = document.documentElement;
  var KEYS = { textSize: "shk-text-size", contrast: "shk-contrast" };
  var FIELDS = { textSize: "text_size", contrast: "contrast" };
  var CHOICES = { textSize: ["standard", "large", "xlarge"], contrast: ["standard", "high"] };

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function keep(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: this page only */ }
  }

  var toSave = {};
  Object.keys(KEYS).forEach(function (what) {
    if (root.hasAttribute("data-display-saved")) {
      keep(KEYS[what], root.dataset[what]);
      return;
    }
    var own = stored(KEYS[what]);
    if (own && CHOICES[what].indexOf(own) >= 0) {
      root.dataset[what] = own;
      if (own !== "standard" && root.hasAttribute("data-signed-in")) toSave[FIELDS[what]] = own;
    }
  });

  function send(form, fields) {
    if (!root.hasAttribute("data-signed-in") || !window.fetch) return;
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    fetch(form.action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" },
    }).then(function (answer) {
      if (answer.ok) root.setAttribute("data-display-saved", "");
    }).catch(function () { /* offline: the device keeps it; sent again on a later page */ });
  }

  function showPressed(form) {
    form.querySelectorAll("button[name]").forEach(function (button) {
      var what = button.name === "text_size" ? "textSize" : "contrast";
      button.setAttribute("aria-pressed", String(root.dataset[what] === button.value));
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-display-form]");
    if (!form) return;
    showPressed(form);
    if (Object.keys(toSave).length) send(form, toSave);
    form.addEventListener("click", function (event) {
      var button = event.target.closest("button[name]");
      if (!button) return;
      event.preventDefault();
      var what = button.name === "text_size" ? "textSize" : "contrast";
      root.dataset[what] = button.value;
      keep(KEYS[what], button.value);
      showPressed(form);
      var fields = {};
      fields[button.name] = button.value;
      send(form, fields);
    });
  });
})();
