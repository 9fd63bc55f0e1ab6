/* Fast result entry on the round page, by keyboard: after a table is recorded the server
   redirects to the next open table's row (#fast-N); this focuses that row, so Tab reaches its
   die roll and result buttons at once. Nothing is focused on a plain load, so a stray Enter
   submits nothing. No inline script: works under a strict Content-Security-Policy. Without
   JavaScript the row is still the fragment target, where the next Tab starts from. */
(function () {
  "use strict";
  var id = window.location.hash.slice(1);
  if (!/^fast-(\d+|results)$/.test(id)) { return; }
  var target = document.getElementById(id);
  if (target) { target.focus(); }
}());
