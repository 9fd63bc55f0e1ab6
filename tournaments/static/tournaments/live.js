/* Self-refreshing live page: every data-refresh seconds the content region is fetched again
   (?partial=1) and swapped in place, keeping the page's scroll position. */
(function () {
  "use strict";
  var region = document.querySelector("[data-live-url]");
  if (!region) { return; }
  var seconds = parseInt(region.dataset.refresh, 10) || 30;
  function refresh() {
    fetch(region.dataset.liveUrl, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          region.innerHTML = html;
          region.dataset.refreshedAt = new Date().toISOString();
        }
      })
      .catch(function () { /* try again at the next tick */ });
  }
  setInterval(refresh, seconds * 1000);
}());
