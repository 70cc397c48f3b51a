// The offline page: a check-in goes into the same queue the app's pages send from
// (same id rules, so it counts once), and the app reopens when the network is back.
// Its words come from the catalogue in every language (offline-words.js): the language the
// app last showed (app.js keeps it), else the browser's, else the page's English.
(function () {
  var QUEUE = "lifesignal.queue";
  var all = window.LIFESIGNAL_OFFLINE || {};
  function language() {
    var wanted = [];
    try { wanted.push(localStorage.getItem("lifesignal.lang") || ""); } catch (e) {}
    wanted = wanted.concat(navigator.languages || [navigator.language || ""]);
    for (var i = 0; i < wanted.length; i++) {
      var tag = (wanted[i] || "").toLowerCase();
      for (var key in all) { if (key.toLowerCase() === tag) return key; }
      var primary = tag.split("-")[0];
      if (primary && all[primary]) return primary;
    }
    return all.en ? "en" : null;
  }
  var lang = language();
  var words = (lang && all[lang]) || {};
  function say(key, fallback) { return words[key] || fallback; }
  function translate() {
    if (!lang) return;
    document.documentElement.lang = lang;
    document.documentElement.dir = words.dir || "ltr";
    var marked = document.querySelectorAll("[data-w]");
    for (var i = 0; i < marked.length; i++) {
      var text = words[marked[i].getAttribute("data-w")];
      if (text) marked[i].textContent = text;
    }
  }
  function queue() { try { return JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (e) { return []; } }
  function uuid() {
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }
  function show() {
    var note = document.getElementById("offline-saved");
    var n = queue().length;
    note.hidden = n === 0;
    note.textContent = n ? say("web.offline.saved", "Check-in saved on this phone; it will be sent when you're back online.") : "";
  }
  document.addEventListener("DOMContentLoaded", function () {
    translate();
    document.getElementById("offline-check-in").addEventListener("click", function () {
      var id = crypto.randomUUID ? crypto.randomUUID() : uuid();
      localStorage.setItem(QUEUE, JSON.stringify(queue().concat([{ id: id, clientAt: Date.now() }])));
      show();
    });
    show();
  });
  window.addEventListener("online", function () { location.href = "/"; });
})();
