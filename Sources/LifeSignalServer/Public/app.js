// LifeSignal: small enhancements on top of plain forms. Everything works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // The offline page (no server to ask) reads in the language this page was in.
  try { localStorage.setItem("lifesignal.lang", document.documentElement.lang); } catch (e) {}
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  // The page's words for what this script writes itself, in the reader's language (the
  // server puts them in <script type="application/json" id="page-words">).
  var words = {};
  try { words = JSON.parse((document.getElementById("page-words") || {}).textContent || "{}"); } catch (e) { words = {}; }
  function say(key, args, fallback) {
    var text = words[key] || fallback;
    Object.keys(args || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(args[name])); });
    return text;
  }

  // Each enhancement binds an element once, even when init() runs again after a live refresh.
  function once(element, key) {
    if (!element || element["__ls_" + key]) return false;
    element["__ls_" + key] = true;
    return true;
  }

  function fmt(seconds) {
    var s = Math.abs(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600),
      m = Math.floor((s % 3600) / 60), r = Math.floor(s % 60);
    var text = d > 0 ? say("duration.days", { d: d, h: h }, "{d} d {h} h")
      : h > 0 ? say("duration.hours", { h: h, m: m }, "{h} h {m} min")
      : m > 0 ? say("duration.minutes", { m: m, s: r }, "{m} min {s} s") : say("duration.seconds", { s: r }, "{s} s");
    return seconds >= 0 ? say("status.left", { duration: text }, "{duration} left") : say("status.overdueBy", { duration: text }, "overdue by {duration}");
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
      var label = say("status." + tone, {}, { overdue: "Overdue", close: "Getting close", plenty: "Plenty of time" }[tone]);
      if (!status.classList.contains("tone-" + tone)) {
        status.className = status.className.replace(/tone-\w+/, "tone-" + tone);
        status.querySelector(".status-label").textContent = label;
      }
    }
    tick();
    clearInterval(window.__lsTick);
    window.__lsTick = setInterval(tick, 1000);
  }

  // Resend countdown on the code pages.
  function resend() {
    var button = document.getElementById("resend"), wait = document.getElementById("resend-wait");
    if (!wait || !once(button, "resend")) return;
    var at = Number(button.dataset.resendAt);
    function tick() {
      var left = Math.ceil((at - Date.now()) / 1000);
      if (left > 0) { button.disabled = true; wait.textContent = say("js.resendWait", { seconds: left }, "You can ask for a new code in {seconds} s"); setTimeout(tick, 1000); }
      else { button.disabled = false; wait.textContent = ""; }
    }
    tick();
  }

  // SOS: five quick taps raise it; holding for three seconds clears it. Both show progress.
  function sos() {
    var button = document.getElementById("sos");
    if (once(button, "sos")) {
      var progress = document.getElementById("sos-progress"), taps = 0, timer;
      button.addEventListener("click", function (event) {
        event.preventDefault();
        taps += 1; progress.value = taps; progress.textContent = taps + " of 5";
        clearTimeout(timer);
        timer = setTimeout(function () { taps = 0; progress.value = 0; }, 1500);
        if (taps >= 5) {
          document.getElementById("sos-confirm").checked = true;
          markLocate(document.getElementById("sos-form"));
          document.getElementById("sos-form").submit();
        }
      });
    }
    var clear = document.getElementById("sos-clear");
    if (once(clear, "hold")) {
      var bar = document.getElementById("clear-progress"), start = 0, raf = 0;
      var hold = Number(clear.dataset.hold) || 3000;
      var step = function () {
        var p = Math.min(100, ((Date.now() - start) / hold) * 100);
        bar.value = p; bar.textContent = Math.round(p) + "%";
        if (p >= 100) { document.getElementById("clear-confirm").checked = true; document.getElementById("sos-clear-form").submit(); return; }
        raf = requestAnimationFrame(step);
      };
      var down = function (event) { event.preventDefault(); start = Date.now(); cancelAnimationFrame(raf); raf = requestAnimationFrame(step); };
      var up = function () { cancelAnimationFrame(raf); if (bar.value < 100) { bar.value = 0; bar.textContent = "0%"; } };
      clear.addEventListener("pointerdown", down);
      clear.addEventListener("pointerup", up);
      clear.addEventListener("pointerleave", up);
      clear.addEventListener("pointercancel", up);
      clear.addEventListener("click", function (event) { event.preventDefault(); });
      clear.addEventListener("keydown", function (event) { if ((event.key === " " || event.key === "Enter") && !event.repeat) down(event); });
      clear.addEventListener("keyup", function (event) { if (event.key === " " || event.key === "Enter") up(); });
    }
  }

  // Check-in: sent with fetch; it stays queued (same id, so it counts once) until the server
  // answers 2xx naming it stored. Offline, a 503 during an outage, a redirect to sign-in, any
  // other answer: it is kept on this phone and tried again.
  var QUEUE = "lifesignal.queue";
  function queue() { try { return JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (e) { return []; } }
  function saveQueue(q) { localStorage.setItem(QUEUE, JSON.stringify(q)); showQueued(); }
  function showQueued() {
    var note = document.getElementById("queued");
    if (!note) return;
    var n = queue().length;
    note.hidden = n === 0;
    note.textContent = !n ? "" : navigator.onLine ? say("js.notSentYet", {}, "Not sent yet \u2014 we'll keep trying.") :
      say("js.savedOffline", {}, "Check-in saved on this phone; it will be sent when you're back online.");
  }
  function send(item) {
    var body = new URLSearchParams({ _csrf: csrf, id: item.id, clientAt: String(item.clientAt) });
    if (item.callMe) body.set("callMe", "yes");
    return fetch("/check-in", { method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRF-Token": csrf } })
      .then(function (r) {
        if (!r.ok || r.redirected) throw new Error("not stored: " + r.status);
        return r.json().then(function (stored) {
          if (!stored || stored.stored !== true || stored.id !== String(item.id).toLowerCase()) throw new Error("not stored");
          // "Bob and Cy will be asked to call you today": said once the queue is sent.
          if (stored.said) said = stored.said;
        });
      });
  }
  var said = null;
  var retry = null;
  function tryAgainLater() {
    clearTimeout(retry);
    retry = setTimeout(function () { if (queue().length) flush(); }, 3000);
  }
  var flushing = null;
  function flush() {
    if (flushing) return flushing;
    var sent = 0;
    function next() {
      var q = queue();
      if (!q.length || !navigator.onLine) return Promise.resolve();
      return send(q[0]).then(function () {
        sent += 1;
        saveQueue(queue().filter(function (i) { return i.id !== q[0].id; }));
        return next();
      });
    }
    flushing = next().then(function () { flushing = null; if (sent) refresh(); },
      function () { flushing = null; showQueued(); tryAgainLater(); if (sent) refresh(); });
    return flushing;
  }
  function checkIn() {
    var form = document.getElementById("check-in-form");
    if (!once(form, "checkin")) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var item = { id: form.elements.id.value, clientAt: Date.now() };
      // The second button: "I'm OK — please call me today".
      if (event.submitter && event.submitter.name === "callMe") item.callMe = true;
      form.elements.id.value = (crypto.randomUUID ? crypto.randomUUID() : item.id);
      saveQueue(queue().concat([item]));
      flush().then(function () {
        if (queue().length) return;
        // Her location with this check-in, when she chose that too (after it is stored).
        if (form.getAttribute("data-locate-now")) locate(form.getAttribute("data-locate-now"));
        var done = form.dataset.done || say("js.checkedIn", {}, "Checked in.");
        announce(said ? say("js.checkedIn", {}, "Checked in.") + " " + said : done);
        said = null;
      });
    });
    showQueued();
  }
  // Location: only when she shares it (the server marks her own actions' forms), only after
  // her own action, never in the background. The form goes at once (an SOS is never held
  // back for it); the page after it reads the position once and posts it, or that it could
  // not be read.
  var LOCATE = "ls-locate";
  function markLocate(form) {
    var source = form && form.getAttribute("data-locate");
    if (source) { try { sessionStorage.setItem(LOCATE, source); } catch (e) {} }
  }
  function locate(source) {
    var post = function (fields) {
      fields._csrf = csrf;
      fields.source = source;
      return fetch("/location", { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin",
        headers: { "Accept": "application/json", "X-CSRF-Token": csrf } })
        .then(function () { refresh(); }, function () {});
    };
    // How old the reading is, not the device's clock (which may be wrong): the server's
    // clock is the truth.
    var failed = function () { post({ failed: "yes" }); };
    if (!navigator.geolocation) { failed(); return; }
    navigator.geolocation.getCurrentPosition(function (position) {
      post({ latitude: String(position.coords.latitude), longitude: String(position.coords.longitude),
        accuracy: String(position.coords.accuracy), age: String(Math.max(0, Date.now() - (position.timestamp || Date.now()))) });
    }, failed, { timeout: 10000, maximumAge: 60000, enableHighAccuracy: true });
  }
  function locating() {
    document.querySelectorAll("form[data-locate]").forEach(function (form) {
      if (once(form, "locate")) form.addEventListener("submit", function () { markLocate(form); });
    });
  }
  function locatePending() {
    var source = null;
    try { source = sessionStorage.getItem(LOCATE); sessionStorage.removeItem(LOCATE); } catch (e) {}
    if (source) locate(source);
  }
  function announce(text) {
    var main = document.getElementById("main"), p = main.querySelector(".flash");
    if (!p) { p = document.createElement("p"); p.className = "flash"; p.setAttribute("role", "status"); main.insertBefore(p, main.firstChild); }
    p.textContent = text;
  }

  // Selects marked data-autosubmit apply at once; the plain "Filter"/"Sort" button is for no-script use.
  function autosubmit() {
    document.querySelectorAll("[data-autosubmit]").forEach(function (field) {
      if (once(field, "auto")) field.addEventListener("change", function () { field.form.submit(); });
    });
    // The daily call's card: a button that opens the browser's print dialog.
    document.querySelectorAll("[data-print]").forEach(function (button) {
      if (once(button, "print")) button.addEventListener("click", function () { window.print(); });
    });
    // A daily deadline is kept in the browser's own time zone unless one is already set.
    // The browser's language, for someone whose language is not known yet.
    document.querySelectorAll("input[data-language]").forEach(function (field) {
      if (!field.value) field.value = navigator.language || "";
    });
    document.querySelectorAll("input[data-time-zone]").forEach(function (field) {
      if (!field.value) {
        try { field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { field.value = ""; }
      }
    });
    // The pause form says which time zone "the day I'm back" is in.
    document.querySelectorAll("form[data-tz]").forEach(function (form) {
      form.elements.tzOffset.value = String(new Date().getTimezoneOffset());
    });
  }

  // Web Push: subscribe this browser with the server's VAPID key and register it as a channel.
  function push() {
    var button = document.getElementById("enable-push"), state = document.getElementById("push-state");
    var key = (document.querySelector('meta[name="vapid-key"]') || {}).content;
    if (!once(button, "push")) return;
    if (!key || !("PushManager" in window) || !navigator.serviceWorker) { button.hidden = true; return; }
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error(say("js.pushBlocked", {}, "Notifications are blocked for this site."));
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        var raw = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((key.length + 3) % 4));
        var bytes = new Uint8Array(raw.length);
        for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
        return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
      }).then(function (subscription) {
        var body = new URLSearchParams({ _csrf: csrf, kind: "web_push", address: JSON.stringify(subscription) });
        return fetch("/settings/channels", { method: "POST", body: body, credentials: "same-origin",
          headers: { "Accept": "application/json", "X-CSRF-Token": csrf } });
      }).then(function (response) {
        state.textContent = response.ok || response.status === 409 ? say("js.pushOn", {}, "This browser will be notified.") : say("js.pushFailed", {}, "Could not register this browser.");
        if (response.ok) location.reload();
      }).catch(function (error) { state.textContent = error.message; });
    });
  }

  // Live updates. The page is made of regions (data-region, with an id); on an event the page
  // is fetched again and only the regions whose content changed are replaced, so what the
  // person is pressing stays in place. Parts marked data-volatile (a countdown, a fresh id)
  // do not count as a change.
  var signatures = {};
  function signature(element) {
    var copy = element.cloneNode(true);
    copy.removeAttribute("data-server-now");
    copy.querySelectorAll("[data-volatile]").forEach(function (e) { e.remove(); });
    return copy.outerHTML;
  }
  function regionIDs(root) {
    return Array.prototype.map.call(root.querySelectorAll("[data-region]"), function (e) { return e.id; }).join(" ");
  }
  function snapshot() {
    document.querySelectorAll("[data-region]").forEach(function (e) { signatures[e.id] = signature(e); });
  }
  var refreshing = false, again = false;
  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok && !r.redirected ? r.text() : null; })
      .then(function (html) {
        if (html) apply(new DOMParser().parseFromString(html, "text/html"));
      })
      .catch(function () {})
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }
  function apply(doc) {
    var main = document.getElementById("main"), fresh = doc.getElementById("main");
    if (!main || !fresh) return;
    if (regionIDs(doc) !== regionIDs(document)) {
      // The page changed shape (an alert was raised, a list appeared): take all of it,
      // unless the person is typing.
      var active = document.activeElement;
      if (active && main.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "hidden") return;
      // The confirmation of what the person just did ("Checked in. Bob is being told you're
      // OK.") came once, with the page; the fresh copy no longer has it, so it is kept.
      var flash = main.querySelector(":scope > .flash");
      main.innerHTML = fresh.innerHTML;
      if (flash && !main.querySelector(":scope > .flash")) main.insertBefore(flash, main.firstChild);
      var nav = document.getElementById("nav"), freshNav = doc.getElementById("nav");
      if (nav && freshNav) nav.innerHTML = freshNav.innerHTML;
      snapshot();
    } else {
      doc.querySelectorAll("[data-region]").forEach(function (region) {
        var current = document.getElementById(region.id), sig = signature(region);
        if (!current || signatures[region.id] === sig) return;
        current.replaceWith(document.importNode(region, true));
        signatures[region.id] = sig;
      });
    }
    init();
  }
  // Live or visibly not live, one stream per browser. The tabs of a browser elect a leader
  // (a Web Lock, which the browser hands to the next waiting tab when the leader's page goes
  // away); only the leader holds the EventSource and passes every event on to the other tabs
  // over a BroadcastChannel. The server allows a few streams per person (phones, laptops), so
  // ten tabs must not take ten. Where either API is missing each tab holds its own stream.
  //
  // After any failure of the stream (a dropped connection, the server restarting, the 429 of
  // too many open streams, which EventSource never retries by itself) it is opened again with
  // growing, slightly jittered pauses, and a sign outside <main> on every tab says the page is
  // not live until it is again; once the pauses reach their longest the sign asks for a
  // reload, and tries go on at that pace.
  var LIVE = "lifesignal.live";
  var liveRetryDelays = [1, 2, 4, 8, 15, 30, 60], liveFailures = 0, liveOpenedAt = 0;
  var liveRole = null, liveBus = null, liveRelease = null, liveSignText = null;
  function liveSign(text) {
    liveSignText = text;
    if (liveRole === "leader" && liveBus) liveBus.postMessage({ type: "state", text: text });
    var sign = document.getElementById("not-live");
    if (!text) { if (sign) sign.hidden = true; return; }
    if (!sign) {
      sign = document.createElement("p");
      sign.id = "not-live";
      sign.className = "banner offline";
      sign.setAttribute("role", "status");
      var main = document.getElementById("main");
      main ? main.parentNode.insertBefore(sign, main) : document.body.insertBefore(sign, document.body.firstChild);
    }
    sign.textContent = text + " ";
    var reload = document.createElement("a");
    reload.href = location.href;
    reload.textContent = say("js.reload", {}, "Reload");
    sign.appendChild(reload);
    sign.hidden = false;
  }
  // Which part this page plays, on <html data-live-role>: "leader" (holds the stream for the
  // browser), "follower" (hears it from the leader) or "tab" (its own stream, no sharing).
  function setLiveRole(role) {
    liveRole = role;
    if (role) document.documentElement.dataset.liveRole = role; else delete document.documentElement.dataset.liveRole;
  }
  function liveEvent(name) {
    if (liveRole === "leader" && liveBus) liveBus.postMessage({ type: "event", name: name });
    setTimeout(refresh, 150);
  }
  function connect() {
    clearTimeout(window.__lsRetry);
    if (window.__lsSource || (liveRole !== "leader" && liveRole !== "tab")) return;
    var source = new EventSource("/events");
    window.__lsSource = source;
    // Whatever happened between rendering the page and the stream opening (or while it was
    // reconnecting) is caught up on by one refresh when it opens, here and in every tab.
    source.addEventListener("open", function () {
      liveOpenedAt = Date.now();
      liveSign(null);
      liveEvent("open");
    });
    source.addEventListener("error", function () {
      if (window.__lsSource !== source) return;
      // The browser gives up by itself on a refusal (429) and retries a dropped stream at
      // its own pace; either way, this page retries on its own schedule.
      source.close();
      window.__lsSource = null;
      // A stream that stayed open a while was healthy: start the pauses again. One that
      // drops as soon as it opens (a server shutting down) keeps them growing.
      if (liveOpenedAt && Date.now() - liveOpenedAt > 30000) liveFailures = 0;
      liveOpenedAt = 0;
      var delay = liveRetryDelays[Math.min(liveFailures, liveRetryDelays.length - 1)];
      liveFailures += 1;
      liveSign(liveFailures >= liveRetryDelays.length
        ? say("js.notLiveStopped", {}, "Not live: this page stopped updating. Reload it to see the latest.")
        : say("js.notLivePaused", { seconds: delay }, "Not live: updates are paused. Trying again in {seconds} s."));
      // Up to a fifth more, so tabs of many people do not all come back in the same second.
      window.__lsRetry = setTimeout(connect, delay * (1000 + Math.random() * 200));
    });
    ["status", "notification", "contacts"].forEach(function (name) {
      source.addEventListener(name, function () { liveEvent(name); });
    });
  }
  // Coming back online, or to a tab someone looks at, tries at once instead of at the end
  // of a long pause.
  function reconnectNow() {
    if (!window.__lsSource && (liveRole === "leader" || liveRole === "tab") && navigator.onLine) {
      liveFailures = Math.min(liveFailures, 1);
      connect();
    }
  }
  function stopLive() {
    clearTimeout(window.__lsRetry);
    if (window.__lsSource) window.__lsSource.close();
    window.__lsSource = null;
    if (liveRelease) { liveRelease(); liveRelease = null; }
    if (liveBus) { liveBus.close(); liveBus = null; }
    setLiveRole(null);
  }
  function live() {
    if (!document.body.dataset.live || !window.EventSource || liveRole) return;
    if (!window.__lsLiveBound) {
      window.__lsLiveBound = true;
      // Leaving the page closes the stream and gives up the lead at once: a browser holds few
      // connections per site, and a page kept in the back/forward cache must not keep either.
      window.addEventListener("pagehide", stopLive);
      window.addEventListener("pageshow", function (event) { if (event.persisted) { live(); refresh(); } });
      window.addEventListener("online", reconnectNow);
      document.addEventListener("visibilitychange", function () { if (!document.hidden) reconnectNow(); });
    }
    if (!(navigator.locks && navigator.locks.request && window.BroadcastChannel)) {
      setLiveRole("tab");
      connect();
      return;
    }
    var bus = new BroadcastChannel(LIVE);
    liveBus = bus;
    setLiveRole("follower");
    bus.onmessage = function (message) {
      var data = message.data || {};
      if (liveRole === "leader") {
        // A tab that just opened asks how things stand.
        if (data.type === "hello") bus.postMessage({ type: "state", text: window.__lsSource && liveOpenedAt ? null : liveSignText });
        return;
      }
      if (data.type === "event") setTimeout(refresh, 150);
      else if (data.type === "state") liveSign(data.text);
    };
    bus.postMessage({ type: "hello" });
    navigator.locks.request(LIVE, function () {
      // The lead came after this page was left (its request was still waiting): pass it on.
      if (liveBus !== bus) return null;
      setLiveRole("leader");
      liveFailures = 0;
      connect();
      // Held until the page goes away (stopLive).
      return new Promise(function (resolve) { liveRelease = resolve; });
    }).catch(function () {
      // The lock could not be had (a sandboxed frame, storage blocked): a stream of its own.
      if (liveBus !== bus) return;
      bus.close();
      liveBus = null;
      setLiveRole("tab");
      connect();
    });
  }
  // A page with deliveries still queued (a drill) looks again until they are settled.
  function poll() {
    var region = document.querySelector("[data-poll]");
    clearTimeout(window.__lsPoll);
    if (region) window.__lsPoll = setTimeout(refresh, Number(region.dataset.poll) || 2000);
  }

  function online() {
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = navigator.onLine;
  }

  // Copy and Share (Web Share API where the browser has it) for the contact link.
  function sharing() {
    var state = document.getElementById("share-state");
    var copy = document.getElementById("copy-link");
    if (copy && once(copy, "copy")) {
      copy.addEventListener("click", function () {
        var text = copy.getAttribute("data-copy");
        var done = function () { if (state) state.textContent = say("js.linkCopied", {}, "Link copied."); };
        var fallback = function () { if (state) state.textContent = say("js.copyFallback", {}, "Select the link above and copy it."); };
        if (navigator.clipboard && navigator.clipboard.writeText) { navigator.clipboard.writeText(text).then(done, fallback); } else { fallback(); }
      });
    }
    var share = document.getElementById("share-link");
    if (share && navigator.share && once(share, "share")) {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: share.getAttribute("data-share-title"), url: share.getAttribute("data-share") }).catch(function () {});
      });
    }
  }
  // On a narrow screen the navigation is one row that scrolls sideways: the current page's
  // link is brought into view (without moving the page itself).
  function navInView() {
    var nav = document.getElementById("nav"), current = nav && nav.querySelector("[aria-current=page]");
    if (!current || nav.scrollWidth <= nav.clientWidth) return;
    var box = nav.getBoundingClientRect(), link = current.getBoundingClientRect();
    nav.scrollLeft += link.left - box.left - (box.width - link.width) / 2;
  }
  function init() { countdowns(); resend(); sos(); checkIn(); autosubmit(); push(); poll(); sharing(); locating(); }
  document.addEventListener("DOMContentLoaded", function () {
    snapshot();
    init(); navInView(); live(); online(); flush(); locatePending();
    window.addEventListener("online", function () { online(); flush(); });
    window.addEventListener("offline", online);
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  });
})();
