// The offline page: a check-in goes into the same queue the app's pages send from
// (same id rules, so it counts once), and the app reopens when the network is back.
(function () {
  var QUEUE = "lifesignal.queue";
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
    note.textContent = n ? "Check-in saved on this phone; it will be sent when you're back online." : "";
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.getElementById("offline-check-in").addEventListener("click", function () {
      var id = crypto.randomUUID ? crypto.randomUUID() : uuid();
      localStorage.setItem(QUEUE, JSON.stringify(queue().concat([{ id: id, clientAt: Date.now() }])));
      show();
    });
    show();
  });
  window.addEventListener("online", function () { location.href = "/"; });
})();
