/* Live push: the page holds the tournament's event stream open (Server-Sent Events from
   [data-push-url]) and hands every event on as a "hkk:push" DOM event ({kind, data}) to the
   page's own scripts (live.js, clock.js, my_match.js). The browser reconnects by itself and
   sends the id of the last event it saw (Last-Event-ID), so nothing is missed. While the
   stream is open <html data-push="live">; when it drops, data-push="polling" and the pages'
   polling takes over again. A 204 (no ASGI server) or a 404 closes it for good: polling only.
   No inline script: works under the strict Content-Security-Policy (connect-src 'self'). */
(function () {
  "use strict";
  var el = document.querySelector("[data-push-url]");
  var root = document.documentElement;
  if (!el || !window.EventSource) { return; }
  var kinds = ["hello", "pairing", "round", "results", "standings", "clock", "reset"];
  var source = new EventSource(el.getAttribute("data-push-url"));
  kinds.forEach(function (kind) {
    source.addEventListener(kind, function (event) {
      var data = {};
      try { data = JSON.parse(event.data); } catch (e) { /* keep {} */ }
      root.setAttribute("data-push", "live");
      document.dispatchEvent(new CustomEvent("hkk:push", { detail: { kind: kind, data: data } }));
    });
  });
  source.addEventListener("open", function () { root.setAttribute("data-push", "live"); });
  source.addEventListener("error", function () { root.setAttribute("data-push", "polling"); });
}());
