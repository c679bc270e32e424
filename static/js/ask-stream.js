/* PolicyPal: stream the language model's answer into the chat page.
 *
 * Loaded only when a language model is configured; the chat form then carries
 * data-stream-url. The form is posted there with fetch and the reply is read as Server-Sent
 * Events: "delta" events show the model's text as it is written (a draft, marked as not yet
 * checked), the "answer" event replaces the answer area and the history with the checked answer
 * as the server renders it. Without fetch streams, or when the stream cannot be used, the form
 * goes the usual way (HTMX, or a plain POST), so the page works without this file.
 */
(function () {
  "use strict";

  if (!window.fetch || !window.TextDecoder || !window.ReadableStream) return;

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.id !== "ask-form" || !form.dataset.streamUrl) return;
    event.preventDefault();
    event.stopImmediatePropagation(); // keep HTMX from posting it as well
    ask(form);
  }, true);

  function ask(form) {
    var button = document.getElementById("ask-submit");
    var indicator = document.getElementById("ask-indicator");
    var body = new FormData(form);
    var draft = null;
    var finished = false;
    setBusy(true);

    fetch(form.dataset.streamUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "text/event-stream", "X-CSRFToken": body.get("csrfmiddlewaretoken") || "" }
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (!response.ok || response.redirected || type.indexOf("text/event-stream") !== 0 || !response.body) {
        throw new Error("no stream");
      }
      draft = showDraft(String(body.get("question") || ""));
      return readEvents(response.body.getReader(), function (name, data) {
        if (name === "delta") {
          draft.append(data.text || "");
        } else if (name === "answer") {
          finished = true;
          replace("answer-area", data.html);
          replace("history", data.history_html);
        } else if (name === "error") {
          finished = true;
          showError(data.message || "The server could not answer. Please try again.");
        }
      });
    }).then(function () {
      if (!finished) showError("The answer was cut off. Please try again.");
    }).catch(function () {
      if (draft === null) {
        submitPlain(form); // the stream is not available: post the form the ordinary way
      } else if (!finished) {
        showError("The connection was lost while the answer was being written. Please try again.");
      }
    }).then(function () {
      setBusy(false);
    });

    function setBusy(busy) {
      if (button) button.disabled = busy;
      if (indicator) indicator.classList.toggle("htmx-request", busy);
    }
  }

  // Reads "event: name" / "data: json" blocks separated by blank lines.
  function readEvents(reader, onEvent) {
    var decoder = new TextDecoder();
    var buffer = "";
    function dispatch(block) {
      var name = "message", data = [];
      block.split("\n").forEach(function (line) {
        if (line.indexOf("event:") === 0) name = line.slice(6).trim();
        else if (line.indexOf("data:") === 0) data.push(line.slice(5).replace(/^ /, ""));
      });
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    }
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) {
          if (buffer.trim()) dispatch(buffer);
          return;
        }
        buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n/g, "\n");
        var end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        return pump();
      });
    }
    return pump();
  }

  // The answer area while the model writes: the question, the text so far, a note that it is unchecked.
  function showDraft(question) {
    var area = document.getElementById("answer-area");
    var card = element("article", "card answer answer--draft");
    card.id = "answer-draft-card";
    var head = element("header", "answer__head");
    head.appendChild(element("p", "answer__question", question));
    head.appendChild(element("p", "answer__meta muted", "The language model is writing…"));
    var text = element("div", "answer__draft");
    text.id = "answer-draft";
    var note = element("p", "answer__draft-note");
    var spinner = element("span", "spinner");
    spinner.setAttribute("aria-hidden", "true");
    note.appendChild(spinner);
    note.appendChild(document.createTextNode("Draft: every sentence is checked against its source when the answer is complete."));
    card.appendChild(head);
    card.appendChild(text);
    card.appendChild(note);
    area.replaceChildren(card);
    return { append: function (piece) { text.textContent += piece; } };
  }

  function replace(id, html) {
    var old = document.getElementById(id);
    if (!old || !html) return;
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.firstElementChild;
    if (!fresh) return;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  }

  function showError(message) {
    var area = document.getElementById("answer-area");
    if (!area) return;
    var box = element("div", "alert alert--error", message);
    box.id = "request-error";
    box.setAttribute("role", "alert");
    var old = document.getElementById("request-error");
    if (old) old.remove();
    area.prepend(box);
  }

  function submitPlain(form) {
    HTMLFormElement.prototype.submit.call(form); // no submit event: neither this script nor HTMX sees it
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    node.className = className;
    if (text) node.textContent = text;
    return node;
  }
})();
