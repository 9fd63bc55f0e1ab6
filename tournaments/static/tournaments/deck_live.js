/* Live validation of the player's deck list: while the player types or pastes,
   the list is sent (debounced) to POST /api/decks/validate/ with the event's format and the
   CSRF token; errors and warnings are shown next to their line numbers. The final submission
   is the ordinary form POST. Texts come from data-t-* attributes (translated server-side). */
(function () {
  "use strict";
  var root = document.querySelector("[data-live-validate]");
  if (!root) { return; }
  var textarea = root.querySelector("textarea");
  var out = document.getElementById("live-result");
  var tokenInput = root.querySelector("input[name=csrfmiddlewaretoken]");
  if (!textarea || !out || !tokenInput) { return; }
  var t = root.dataset;
  var timer = null;
  var sequence = 0;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  function issueItem(issue, level) {
    var li = el("li", { "class": "issue issue-" + level, "data-code": issue.code || "" });
    if (issue.line) {
      li.setAttribute("data-line", issue.line);
      li.appendChild(el("span", { "class": "lineno" }, t.tLine.replace("{line}", issue.line)));
      li.appendChild(document.createTextNode(" "));
    }
    li.appendChild(el("span", { "class": "issue-level" }, (level === "error" ? t.tError : t.tWarning) + ":"));
    li.appendChild(document.createTextNode(" " + issue.message));
    return li;
  }

  function byLine(a, b) { return (a.line || 0) - (b.line || 0); }

  /* The verdict is the tri-state "status" (legal / illegal / unverified), never a boolean:
     an unverified list is not illegal (a card the partial catalogue lacks, unknown facts). */
  var VERDICTS = {
    legal: { badge: "ok", text: function () { return t.tLegal; } },
    unverified: { badge: "unverified", text: function () { return t.tUnverified; } },
    illegal: { badge: "bad", text: function () { return t.tIllegal; } }
  };

  function render(data) {
    out.innerHTML = "";
    var status = VERDICTS.hasOwnProperty(data.status) ? data.status : "illegal";
    out.dataset.state = status;
    var head = el("p", { "class": "live-verdict" });
    head.appendChild(el("span", {
      "class": "badge " + VERDICTS[status].badge,
      "data-status": status,
      "data-testid": "live-verdict"
    }, VERDICTS[status].text()));
    if (data.counts) {
      head.appendChild(document.createTextNode(" " + t.tCounts
        .replace("{main}", data.counts.main).replace("{sideboard}", data.counts.sideboard)));
    }
    out.appendChild(head);
    if (status === "unverified") {
      var note = el("div", { "class": "unverified-note", "data-testid": "live-unverified" });
      note.appendChild(el("p", {}, t.tUnverifiedNote));
      var unknown = data.unknown_cards || [];
      if (unknown.length) {
        note.appendChild(el("p", {}, t.tUnknown));
        var names = el("ul", { "class": "unknown-cards", "data-testid": "live-unknown-cards" });
        unknown.forEach(function (name) { names.appendChild(el("li", {}, name)); });
        note.appendChild(names);
      }
      out.appendChild(note);
    }
    var errors = (data.errors || []).slice().sort(byLine);
    var warnings = (data.warnings || []).slice().sort(byLine);
    if (errors.length || warnings.length) {
      var list = el("ul", { "class": "issues live-issues", "data-testid": "live-issues" });
      errors.forEach(function (i) { list.appendChild(issueItem(i, "error")); });
      warnings.forEach(function (i) { list.appendChild(issueItem(i, "warning")); });
      out.appendChild(list);
    }
  }

  function check() {
    var text = textarea.value;
    if (!text.trim()) { out.innerHTML = ""; out.dataset.state = "empty"; return; }
    var mine = ++sequence;
    out.dataset.state = "checking";
    fetch(root.dataset.validateUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "X-CSRFToken": tokenInput.value
      },
      body: JSON.stringify({ format: root.dataset.format, text: text })
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (result) {
      if (mine !== sequence) { return; }
      if (result.ok) { render(result.data); return; }
      out.innerHTML = "";
      out.dataset.state = "error";
      out.appendChild(el("p", { "class": "message error" },
        result.data.detail || result.data.message || t.tFailed));
    }).catch(function () {
      if (mine !== sequence) { return; }
      out.dataset.state = "error";
      out.textContent = t.tFailed;
    });
  }

  textarea.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 400);
  });
  if (textarea.value.trim()) { check(); }
}());
