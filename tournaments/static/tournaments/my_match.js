/* The player's pairing page with the live push (push.js): a pushed "pairing" (the own table of
   a round just published: {round, table, opponent}) shows at the top at once, and, for a
   player who asked for it, as a browser notification. Asking is a button (the browser's
   permission question only follows a click); the choice is kept in this browser
   (localStorage) per tournament. Labels come translated from the page's data attributes. */
(function () {
  "use strict";
  var box = document.querySelector("[data-push-pairing]");
  if (!box) { return; }
  var button = document.querySelector("[data-notify-toggle]");
  var key = "hkk-notify-" + box.getAttribute("data-tournament");

  function fill(template, data) {
    return template.replace("{round}", data.round).replace("{table}", data.table)
      .replace("{opponent}", data.opponent || "");
  }
  function optedIn() {
    try { return window.localStorage.getItem(key) === "1"; } catch (e) { return false; }
  }
  function store(on) {
    try {
      if (on) { window.localStorage.setItem(key, "1"); } else { window.localStorage.removeItem(key); }
    } catch (e) { /* private mode: not kept */ }
  }
  function label() {
    var on = optedIn() && window.Notification && Notification.permission === "granted";
    button.textContent = button.getAttribute(on ? "data-label-on" : "data-label-off");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  if (button && window.Notification) {
    button.hidden = false;
    label();
    button.addEventListener("click", function () {
      if (optedIn() && Notification.permission === "granted") { store(false); label(); return; }
      Notification.requestPermission().then(function (answer) {
        store(answer === "granted");
        label();
      });
    });
  }

  document.addEventListener("hkk:push", function (event) {
    if (event.detail.kind !== "pairing") { return; }
    var data = event.detail.data;
    var text = fill(box.getAttribute(data.opponent ? "data-label" : "data-label-bye"), data);
    box.querySelector("[data-push-pairing-text]").textContent = text;
    box.hidden = false;
    if (optedIn() && window.Notification && Notification.permission === "granted") {
      try {
        new Notification(box.getAttribute("data-title"), { body: text, tag: "hkk-pairing-" + data.round });
      } catch (e) { /* some phones allow notifications from a service worker only */ }
    }
  });
}());
