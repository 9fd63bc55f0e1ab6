/* Round clock: every [data-clock] counts down from the server's values (data-seconds-left,
   data-state) and re-reads them from data-clock-url every 20 seconds, so pauses and
   extensions show up. No inline script: works under a strict Content-Security-Policy.
   Without JavaScript the server-rendered time left and end time stay visible.
   Keyboard on the projector view: "f" toggles full screen. When the time runs out the live
   region after the clock announces "time is up" to screen readers.
   With the live push stream open (push.js, <html data-push="live">) the 20-second polls wait:
   a pushed "clock" event sets the state at once (a table's clock adds its own extension,
   data-extension), and the projector moves on when a "round" event names another round. */
(function () {
  "use strict";
  var clocks = Array.prototype.slice.call(document.querySelectorAll("[data-clock]"));
  if (!clocks.length) { return; }

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function format(seconds) {
    var s = Math.max(0, Math.round(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return (h ? h + ":" + pad(m) : pad(m)) + ":" + pad(r);
  }

  /* "time is up" is said once, by the live region after the clock, when a running clock
     reaches zero (or the server says so); not when the page loads with the time already up. */
  function announceOver(el) {
    var region = el.nextElementSibling;
    if (!region || !region.hasAttribute("data-clock-announce")) { return; }
    region.textContent = el.getAttribute("data-label-over") || "";
  }

  function setState(el, state, secondsLeft) {
    if (el.dataset.announced !== "1" && state === "over" && el.dataset.state && el.dataset.state !== "over") {
      el.dataset.announced = "1";
      announceOver(el);
    }
    if (state === "running") { el.dataset.announced = "0"; }
    el.dataset.state = state;
    el.dataset.deadline = String(Date.now() + secondsLeft * 1000);
    el.dataset.secondsLeft = String(secondsLeft);
    var label = el.querySelector("[data-clock-state]");
    var text = el.getAttribute("data-label-" + state.replace("_", "-"));
    if (label && text) { label.textContent = text; }
  }

  function tick() {
    clocks.forEach(function (el) {
      var display = el.querySelector("[data-clock-display]");
      if (!display) { return; }
      var left = parseInt(el.dataset.secondsLeft, 10) || 0;
      if (el.dataset.state === "running") {
        left = Math.max(0, (parseInt(el.dataset.deadline, 10) - Date.now()) / 1000);
        if (left <= 0) { setState(el, "over", 0); }
      }
      display.textContent = format(left);
      el.classList.toggle("clock-low", el.dataset.state === "running" && left < 300);
      el.classList.toggle("clock-over", el.dataset.state === "over");
    });
  }

  function sync(el) {
    if (!el.dataset.clockUrl) { return; }
    fetch(el.dataset.clockUrl, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) { if (body) { setState(el, body.state, body.seconds_left); tick(); } })
      .catch(function () { /* keep counting; try again later */ });
  }

  function live() { return document.documentElement.getAttribute("data-push") === "live"; }

  /* A pushed clock change: {round, table, state, seconds_left}. A round-wide change reaches a
     table's clock with the table's extension added; a running round past its time may still
     run at an extended table, so that clock asks the server. */
  function pushed(el, data) {
    var url = el.dataset.clockUrl || "";
    var round = (url.match(/rounds\/(\d+)\/clock/) || [])[1];
    var table = (url.match(/[?&]table=(\d+)/) || [])[1];
    if (String(data.round) !== round) { return; }
    if (data.table !== null && data.table !== undefined && String(data.table) !== table) { return; }
    var extra = data.table === null || data.table === undefined ? (parseInt(el.dataset.extension, 10) || 0) : 0;
    if (data.state === "over" && extra > 0) { sync(el); return; }
    setState(el, data.state, data.seconds_left + (data.state === "not_started" ? 0 : extra));
    tick();
  }
  document.addEventListener("hkk:push", function (event) {
    if (event.detail.kind === "clock") {
      clocks.forEach(function (el) { pushed(el, event.detail.data); });
    }
  });

  clocks.forEach(function (el) {
    setState(el, el.dataset.state, parseInt(el.dataset.secondsLeft, 10) || 0);
    setInterval(function () { if (!live()) { sync(el); } }, 20000);
  });
  tick();
  setInterval(tick, 1000);

  /* The projector of the current round follows the event: every 20 seconds it reads the
     current round's projector page and moves there once another round is published. */
  var followUrl = document.body.getAttribute("data-follow-url");
  if (followUrl) {
    document.addEventListener("hkk:push", function (event) {
      var data = event.detail.data;
      if (event.detail.kind === "round" && data.status === "published" &&
          String(data.round) !== document.body.getAttribute("data-round")) {
        window.location.assign(followUrl);
      }
    });
    setInterval(function () {
      if (live()) { return; }
      fetch(followUrl, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) { return; }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var round = doc.body && doc.body.getAttribute("data-round");
          if (round && round !== document.body.getAttribute("data-round")) { window.location.assign(followUrl); }
        })
        .catch(function () { /* try again later */ });
    }, 20000);
  }

  var full = document.querySelector("[data-fullscreen]");
  function toggleFull() {
    if (!document.fullscreenElement && document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().catch(function () {});
    } else if (document.exitFullscreen) {
      document.exitFullscreen().catch(function () {});
    }
  }
  if (full) {
    full.addEventListener("click", toggleFull);
    document.addEventListener("keydown", function (e) {
      if (e.key === "f" && !e.ctrlKey && !e.metaKey && !e.altKey) { toggleFull(); }
    });
  }
}());
