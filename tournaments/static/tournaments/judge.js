/* One-tap result entry: the "waived" toggle switches who goes first on the screen (the server
   computes the same from the right holder when the game is recorded). */
(function () {
  "use strict";
  var form = document.querySelector("[data-quick-game]");
  if (!form) { return; }
  var toggle = form.querySelector("input[name='quick-waived']");
  var first = document.getElementById("quick-first-name");
  if (!toggle || !first) { return; }
  function update() {
    first.textContent = toggle.checked ? form.dataset.other : form.dataset.holder;
    form.classList.toggle("is-waived", toggle.checked);
  }
  toggle.addEventListener("change", update);
  update();
}());
