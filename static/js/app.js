/* PolicyPal: small enhancements on top of HTMX. Every page works without this file. */
(function () {
  "use strict";

  function showError(target, message) {
    if (!target) return;
    var box = document.createElement("div");
    box.className = "alert alert--error";
    box.setAttribute("role", "alert");
    box.id = "request-error";
    box.textContent = message;
    var old = document.getElementById("request-error");
    if (old) old.remove();
    target.prepend(box);
  }

  // A partial request that landed on the login page (session expired): go there for real.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.responseURL && xhr.responseURL.indexOf("/login/") !== -1) {
      event.detail.shouldSwap = false;
      window.location.href = xhr.responseURL;
    }
  });

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 401 || status === 403) {
      window.location.reload();
      return;
    }
    showError(document.getElementById("answer-area") || document.getElementById("content"),
      "The server could not answer (error " + status + "). Please try again.");
  });

  document.addEventListener("htmx:sendError", function () {
    showError(document.getElementById("answer-area") || document.getElementById("content"),
      "The server cannot be reached. Check your connection and try again.");
  });

  // A form with data-confirm asks first (Retire on the version page); without JavaScript it posts directly.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // The policy list's bulk actions: "select every policy on this page", the count of selected
  // policies, and the group choices shown only for "change who may read them". Without this file
  // every control is simply visible and the confirm page says what was selected.
  function bulkRefresh(form) {
    if (!form) return;
    var boxes = form.querySelectorAll("input[name=ids]");
    var checked = form.querySelectorAll("input[name=ids]:checked").length;
    var all = form.querySelector("[data-select-all]");
    if (all) {
      all.checked = boxes.length > 0 && checked === boxes.length;
      all.indeterminate = checked > 0 && checked < boxes.length;
    }
    var label = form.querySelector("[data-selected-label]");
    var scope = form.querySelector("input[name=scope]");
    if (label) {
      label.textContent = scope && scope.checked ? "· all of them selected" : checked ? "· " + checked + " selected" : "";
    }
    var action = form.querySelector("[data-bulk-action]");
    var groups = form.querySelector("[data-bulk-groups]");
    if (action && groups) groups.hidden = action.value !== "groups";
  }

  function bulkInit(root) {
    var forms = (root || document).querySelectorAll ? (root || document).querySelectorAll("#bulk-form") : [];
    for (var i = 0; i < forms.length; i++) bulkRefresh(forms[i]);
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    var form = target && target.closest ? target.closest("#bulk-form") : null;
    if (!form) return;
    if (target.matches("[data-select-all]")) {
      var boxes = form.querySelectorAll("input[name=ids]");
      for (var i = 0; i < boxes.length; i++) boxes[i].checked = target.checked;
    }
    bulkRefresh(form);
  });
  document.addEventListener("DOMContentLoaded", function () { bulkInit(document); });
  document.addEventListener("htmx:afterSettle", function () { bulkInit(document); });

  // Enter in the question box submits the question; Shift+Enter starts a new line.
  // The question's length against its limit, as the asker types: the browser stops at the limit
  // (maxlength) and would otherwise cut a pasted question without a word.
  function questionCount(area) {
    var out = document.getElementById("question-count");
    if (!out || !(area.maxLength > 0)) return;
    var n = area.value.length, limit = area.maxLength;
    out.textContent = n.toLocaleString("en-GB") + " of " + limit.toLocaleString("en-GB") + " characters" +
      (n >= limit ? ": the limit, nothing more can be typed or pasted" : "");
    out.classList.toggle("field__count--near", n >= 0.9 * limit);
  }
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_question") questionCount(event.target);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var area = document.getElementById("id_question");
    if (area) questionCount(area);
  });

  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (box && box.id === "id_question" && event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      var form = box.form;
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
  });
})();
