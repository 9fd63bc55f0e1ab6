/* Behaviour shared by every page, without inline event handlers (the Content-Security-Policy
   allows scripts from our own origin only):
   - <select data-autosubmit> submits its form when changed (the language switch);
   - any element with data-print opens the browser's print dialog. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
      target.form.submit();
    }
  });
  document.addEventListener("click", function (event) {
    var trigger = event.target.closest && event.target.closest("[data-print]");
    if (trigger) {
      event.preventDefault();
      window.print();
    }
  });
})();
