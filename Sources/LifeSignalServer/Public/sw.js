// LifeSignal service worker: keeps the app shell for offline starts. Pages are always fetched
// fresh when the network is there; check-ins queue in the page (localStorage) and are sent later.
var CACHE = "lifesignal-v1";
var SHELL = ["/static/app.css", "/static/app.js", "/static/icon.svg", "/manifest.webmanifest"];
self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).pathname === "/events") return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && (request.mode === "navigate" || SHELL.indexOf(new URL(request.url).pathname) >= 0)) {
      var copy = response.clone();
      caches.open(CACHE).then(function (c) { c.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (hit) { return hit || caches.match("/"); });
  }));
});
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { title: "LifeSignal", body: event.data && event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "LifeSignal", { body: data.body || "", icon: "/static/icon.svg" }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(self.clients.openWindow("/"));
});
