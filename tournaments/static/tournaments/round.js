/* The round page follows the results as they are recorded. While the live push stream is open
   (push.js: <html data-push="live">) a "results" event of this round writes each recorded
   table's score into the games cell of its row (rows #table-N of the page shown; the draws
   with the page's own translated words, data-draw-one / data-draw-two), without a reload and
   without asking the server; a "round" event of this round (finished, unpublished), a new
   standings version or a "reset" fetches the page again (after a random wait of up to a
   second, so a whole venue does not ask in the same instant) and swaps in its table. Without
   the stream the table is fetched every data-refresh seconds instead (polling, the fallback).
   Only the pairings table is swapped: the page's forms, search and scroll position stay. No
   inline script: works under the strict Content-Security-Policy. */
(function () {
  "use strict";
  var region = document.querySelector("[data-round-tables]");
  if (!region) { return; }
  var round = parseInt(region.dataset.round, 10);
  var seconds = parseInt(region.dataset.refresh, 10) || 30;

  function draws(n) {
    if (!n) { return ""; }
    var label = n === 1 ? region.dataset.drawOne : region.dataset.drawTwo.replace("2", String(n));
    return " (" + label + ")";
  }
  function showResults(results) {
    results.forEach(function (r) {
      if (r.round !== round) { return; }
      var row = document.getElementById("table-" + r.table);
      if (!row || !region.contains(row)) { return; }
      var cell = row.querySelector("[data-games]");
      if (cell) {
        cell.textContent = r.a + "\u2013" + r.b + draws(r.draws);
        row.dataset.pushedAt = new Date().toISOString();
      }
    });
  }
  /* pushed: the fetch follows a pushed event and must see the new data, so it asks the reverse
     proxy not to answer from its one-second copy (X-Live-Refresh, deploy/nginx/). */
  function refresh(pushed) {
    var headers = { "Accept": "text/html" };
    if (pushed) { headers["X-Live-Refresh"] = "push"; }
    fetch(window.location.href, { credentials: "same-origin", headers: headers })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-round-tables]");
        if (fresh) {
          region.innerHTML = fresh.innerHTML;
          region.dataset.refreshedAt = new Date().toISOString();
        }
      })
      .catch(function () { /* try again at the next tick */ });
  }
  var pending = null;
  function refreshSoon() {
    if (pending) { return; }
    pending = setTimeout(function () { pending = null; refresh(true); }, Math.random() * 1000);
  }
  setInterval(function () {
    if (document.documentElement.getAttribute("data-push") !== "live") { refresh(); }
  }, seconds * 1000);
  document.addEventListener("hkk:push", function (event) {
    var kind = event.detail.kind;
    var data = event.detail.data || {};
    if (kind === "results") { showResults(data.results || []); }
    else if ((kind === "round" && data.round === round) || kind === "standings" || kind === "reset") {
      refreshSoon();
    }
  });
}());
