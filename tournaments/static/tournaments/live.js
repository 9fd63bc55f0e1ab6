/* Self-refreshing live page: every data-refresh seconds the content region is fetched again
   (?partial=1) and swapped in place, keeping the page's scroll position. While the live push
   stream is open (push.js: <html data-push="live">) the timer waits and the page follows the
   pushed events instead: a new round, standings version or a reset fetches the region (after
   a random wait of up to a second, so a whole venue does not ask in the same instant); results
   change the score cell of their tables in place. */
(function () {
  "use strict";
  var region = document.querySelector("[data-live-url]");
  if (!region) { return; }
  var seconds = parseInt(region.dataset.refresh, 10) || 30;
  /* pushed: the fetch follows a pushed event and must see the new data, so it asks the reverse
     proxy not to answer from its one-second copy (X-Live-Refresh, deploy/nginx/). */
  function refresh(pushed) {
    var headers = { "Accept": "text/html" };
    if (pushed) { headers["X-Live-Refresh"] = "push"; }
    fetch(region.dataset.liveUrl, { credentials: "same-origin", headers: headers })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          region.innerHTML = html;
          region.dataset.refreshedAt = new Date().toISOString();
        }
      })
      .catch(function () { /* try again at the next tick */ });
  }
  setInterval(function () {
    if (document.documentElement.getAttribute("data-push") !== "live") { refresh(); }
  }, seconds * 1000);

  var pending = null;
  function refreshSoon() {
    if (pending) { return; }
    pending = setTimeout(function () { pending = null; refresh(true); }, Math.random() * 1000);
  }
  function showResults(results) {
    var rows = region.querySelectorAll("[data-testid=live-pairings] tbody tr");
    var byTable = {};
    Array.prototype.forEach.call(rows, function (row) {
      byTable[row.cells[0].textContent.trim()] = row;
    });
    results.forEach(function (r) {
      var row = byTable[String(r.table)];
      if (row && row.cells.length > 3) { row.cells[3].textContent = r.a + "\u2013" + r.b; }
    });
  }
  document.addEventListener("hkk:push", function (event) {
    var kind = event.detail.kind;
    if (kind === "results") { showResults(event.detail.data.results || []); }
    else if (kind === "round" || kind === "standings" || kind === "reset") { refreshSoon(); }
  });
}());
