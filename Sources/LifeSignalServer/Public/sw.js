// LifeSignal service worker: keeps the app shell and an offline page. Pages are never cached:
// they carry people's names, notes and status, and a shared or lost phone must not keep them.
// Check-ins made offline queue in localStorage (the page or the offline page) and are sent later.
var CACHE = "lifesignal-v5";
var SHELL = ["/static/app.css", "/static/app.js", "/static/icon.svg", "/static/icon-192.png", "/manifest.webmanifest",
  "/static/offline.html", "/static/offline.js", "/static/offline-words.js"];
self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (event) {
  // Older versions cached whole pages: drop them.
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  var path = new URL(request.url).pathname;
  if (request.method !== "GET" || path === "/events") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () { return caches.match("/static/offline.html"); }));
    return;
  }
  if (SHELL.indexOf(path) < 0) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (c) { c.put(request, copy); });
    }
    return response;
  }).catch(function () { return caches.match(request); }));
});
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { title: "LifeSignal", body: event.data && event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "LifeSignal", { body: data.body || "", icon: "/static/icon-192.png" }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(self.clients.openWindow("/"));
});
