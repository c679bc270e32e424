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

  // Enter in the question box submits the question; Shift+Enter starts a new line.
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (box && box.id === "id_question" && event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      var form = box.form;
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
  });
})();
