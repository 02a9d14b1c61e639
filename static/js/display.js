// How the pages read (the 「文字」 menu): the text size, the contrast and ruby (ふりがな over the
// club's hard words and members' names). Loaded in the page's head, not deferred, so that the
// device's choice is set on <html> before the first paint (no flash of the standard size, no
// jump when the readings come on). A signed-in login's saved choice (data-display-saved, from
// the server, which reads it from the session) wins and is kept on the device; without one,
// the device's choice is used and, when signed in, saved with the login for its other devices.
//
// On the device (localStorage), one key a setting: shk-text-size (standard|large|xlarge),
// shk-contrast (standard|high), shk-ruby (off|on). The ruby choice an older page kept under
// shirakaba:ruby is moved to shk-ruby once.
(function () {
  "use strict";
  var root = document.documentElement;
  var KEYS = { textSize: "shk-text-size", contrast: "shk-contrast", ruby: "shk-ruby" };
  var FIELDS = { textSize: "text_size", contrast: "contrast", ruby: "show_ruby" };
  var CHOICES = {
    textSize: ["standard", "large", "xlarge"],
    contrast: ["standard", "high"],
    ruby: ["off", "on"],
  };
  var BY_FIELD = { text_size: "textSize", contrast: "contrast", show_ruby: "ruby" };

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function keep(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: this page only */ }
  }
  function showRuby() {
    root.classList.toggle("ruby-on", root.dataset.ruby === "on");
  }

  var older = stored("shirakaba:ruby");
  if (older !== null) {
    if (stored(KEYS.ruby) === null && CHOICES.ruby.indexOf(older) >= 0) keep(KEYS.ruby, older);
    try { window.localStorage.removeItem("shirakaba:ruby"); } catch (e) { /* kept: read again */ }
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
      if (own !== CHOICES[what][0] && root.hasAttribute("data-signed-in")) toSave[FIELDS[what]] = own;
    }
  });
  showRuby();

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

  // The menu's buttons are pressed when they are the choice; the footer's ruby switch is
  // pressed when ruby is on, says so, and sends the other value.
  function showPressed(forms) {
    forms.forEach(function (form) {
      form.querySelectorAll("button[name]").forEach(function (button) {
        var what = BY_FIELD[button.name];
        button.setAttribute("aria-pressed", String(root.dataset[what] === button.value));
      });
      var toggle = form.querySelector("button[data-ruby-toggle]");
      if (!toggle) return;
      var on = root.dataset.ruby === "on";
      toggle.setAttribute("aria-pressed", String(on));
      form.elements.show_ruby.value = on ? "off" : "on";
      var state = toggle.querySelector(".ruby-state");
      state.textContent = "：" + (on ? state.dataset.on : state.dataset.off);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var forms = Array.prototype.slice.call(document.querySelectorAll("[data-display-form]"));
    if (!forms.length) return;
    showPressed(forms);
    if (Object.keys(toSave).length) send(forms[0], toSave);
    forms.forEach(function (form) {
      form.addEventListener("click", function (event) {
        var button = event.target.closest("button[name], button[data-ruby-toggle]");
        if (!button) return;
        event.preventDefault();
        var field = button.name || "show_ruby";
        var what = BY_FIELD[field];
        var value = button.name ? button.value : form.elements.show_ruby.value;
        root.dataset[what] = value;
        showRuby();
        keep(KEYS[what], value);
        showPressed(forms);
        var fields = {};
        fields[field] = value;
        send(form, fields);
      });
    });
  });
})();
