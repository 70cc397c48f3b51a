// LifeSignal: small enhancements on top of plain forms. Everything works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  function fmt(seconds) {
    var s = Math.abs(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600),
      m = Math.floor((s % 3600) / 60), r = Math.floor(s % 60);
    var text = d > 0 ? d + " d " + h + " h" : h > 0 ? h + " h " + m + " min" : m > 0 ? m + " min " + r + " s" : r + " s";
    return seconds >= 0 ? text + " left" : "overdue by " + text;
  }

  // Live countdown, using the server's clock (the page says what time the server had).
  function countdowns() {
    var status = document.getElementById("status");
    var out = document.getElementById("countdown");
    if (!status || !out) return;
    var deadline = Number(status.dataset.deadline), skew = Number(status.dataset.serverNow) - Date.now();
    var period = Number(status.dataset.period);
    function tick() {
      var left = Math.floor((deadline - (Date.now() + skew)) / 1000);
      out.textContent = fmt(left);
      if (status.classList.contains("tone-alert") || status.classList.contains("tone-paused")) return;
      var tone = left <= 0 ? "overdue" : left <= Math.min(period / 4, 7200) ? "close" : "plenty";
      var label = { overdue: "Overdue", close: "Getting close", plenty: "Plenty of time" }[tone];
      if (!status.classList.contains("tone-" + tone)) {
        status.className = status.className.replace(/tone-\w+/, "tone-" + tone);
        status.querySelector(".status-label").textContent = label;
      }
    }
    tick();
    clearInterval(window.__lsTick);
    window.__lsTick = setInterval(tick, 1000);
  }

  // Resend countdown on the code page.
  function resend() {
    var button = document.getElementById("resend"), wait = document.getElementById("resend-wait");
    if (!button || !wait) return;
    var at = Number(button.dataset.resendAt);
    function tick() {
      var left = Math.ceil((at - Date.now()) / 1000);
      if (left > 0) { button.disabled = true; wait.textContent = "You can ask for a new code in " + left + " s"; setTimeout(tick, 1000); }
      else { button.disabled = false; wait.textContent = ""; }
    }
    tick();
  }

  // SOS: five quick taps raise it; holding for three seconds clears it. Both show progress.
  function sos() {
    var button = document.getElementById("sos");
    if (button) {
      var progress = document.getElementById("sos-progress"), taps = 0, timer;
      button.addEventListener("click", function (event) {
        event.preventDefault();
        taps += 1; progress.value = taps; progress.textContent = taps + " of 5";
        clearTimeout(timer);
        timer = setTimeout(function () { taps = 0; progress.value = 0; }, 1500);
        if (taps >= 5) {
          var form = document.getElementById("sos-form");
          document.getElementById("sos-confirm").checked = true;
          form.submit();
        }
      });
    }
    var clear = document.getElementById("sos-clear");
    if (clear) {
      var bar = document.getElementById("clear-progress"), start = 0, raf = 0;
      var hold = Number(clear.dataset.hold) || 3000;
      function step() {
        var p = Math.min(100, ((Date.now() - start) / hold) * 100);
        bar.value = p; bar.textContent = Math.round(p) + "%";
        if (p >= 100) { document.getElementById("clear-confirm").checked = true; document.getElementById("sos-clear-form").submit(); return; }
        raf = requestAnimationFrame(step);
      }
      function down(event) { event.preventDefault(); start = Date.now(); cancelAnimationFrame(raf); raf = requestAnimationFrame(step); }
      function up() { cancelAnimationFrame(raf); if (bar.value < 100) { bar.value = 0; bar.textContent = "0%"; } }
      clear.addEventListener("pointerdown", down);
      clear.addEventListener("pointerup", up);
      clear.addEventListener("pointerleave", up);
      clear.addEventListener("pointercancel", up);
      clear.addEventListener("click", function (event) { event.preventDefault(); });
      clear.addEventListener("keydown", function (event) { if ((event.key === " " || event.key === "Enter") && !event.repeat) down(event); });
      clear.addEventListener("keyup", function (event) { if (event.key === " " || event.key === "Enter") up(); });
    }
  }

  // Check-in: sent with fetch; when offline it is queued (same id, so it counts once) and sent later.
  var QUEUE = "lifesignal.queue";
  function queue() { try { return JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (e) { return []; } }
  function saveQueue(q) { localStorage.setItem(QUEUE, JSON.stringify(q)); showQueued(); }
  function showQueued() {
    var note = document.getElementById("queued");
    if (!note) return;
    var n = queue().length;
    note.hidden = n === 0;
    note.textContent = n ? "Check-in saved on this phone; it will be sent when you're back online." : "";
  }
  function send(item) {
    var body = new URLSearchParams({ _csrf: csrf, id: item.id, clientAt: String(item.clientAt) });
    return fetch("/check-in", { method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRF-Token": csrf } })
      .then(function (r) { if (r.status >= 500) throw new Error("server"); return r; });
  }
  function flush() {
    var q = queue();
    if (!q.length || !navigator.onLine) return Promise.resolve();
    return send(q[0]).then(function () { saveQueue(queue().slice(1)); return flush(); })
      .then(function () { refresh(); }, function () {});
  }
  function checkIn() {
    var form = document.getElementById("check-in-form");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var item = { id: form.elements.id.value, clientAt: Date.now() };
      form.elements.id.value = (crypto.randomUUID ? crypto.randomUUID() : item.id);
      saveQueue(queue().concat([item]));
      flush().then(function () { if (!queue().length) announce("Checked in. Your responders know you're OK."); });
    });
    showQueued();
  }
  function announce(text) {
    var main = document.getElementById("main"), p = main.querySelector(".flash");
    if (!p) { p = document.createElement("p"); p.className = "flash"; p.setAttribute("role", "status"); main.insertBefore(p, main.firstChild); }
    p.textContent = text;
  }

  // Live updates: on any event re-fetch this page and swap the main content.
  var refreshing = false;
  function refresh() {
    if (refreshing) return;
    refreshing = true;
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok && !r.redirected ? r.text() : null; })
      .then(function (html) {
        refreshing = false;
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main"), main = document.getElementById("main");
        if (!fresh || !main) return;
        var active = document.activeElement && document.activeElement.id;
        if (main.contains(document.activeElement) && document.activeElement.tagName !== "BUTTON" && document.activeElement !== main) return; // do not disturb typing
        main.innerHTML = fresh.innerHTML;
        init();
        if (active && document.getElementById(active)) document.getElementById(active).focus();
      }, function () { refreshing = false; });
  }
  function live() {
    if (!document.body.dataset.live || !window.EventSource || window.__lsSource) return;
    var source = new EventSource("/events");
    window.__lsSource = source;
    ["status", "notification", "contacts"].forEach(function (name) {
      source.addEventListener(name, function () { setTimeout(refresh, 150); });
    });
  }

  function online() {
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = navigator.onLine;
  }

  function init() { countdowns(); resend(); sos(); checkIn(); }
  document.addEventListener("DOMContentLoaded", function () {
    init(); live(); online(); flush();
    window.addEventListener("online", function () { online(); flush(); });
    window.addEventListener("offline", online);
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  });
})();
