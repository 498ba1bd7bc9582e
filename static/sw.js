// Scorekeeper's service worker: it keeps copies of the static files (styles, scripts, icons)
// so pages open fast on a slow pub network. It answers only GET requests under /static/;
// pages, entries (POSTs) and the live streams always go to the server, untouched.
"use strict";
const CACHE = "scorekeeper-static-1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith("/static/")) return;
  event.respondWith(fromCache(request, url));
});

async function fromCache(request, url) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  // a URL with ?v= names one version of the file forever: the copy is always right;
  // anything else (the manifest's icons) is refreshed in the background
  if (kept && url.searchParams.has("v")) return kept;
  const fresh = fetch(request).then(async (response) => {
    if (response.ok && response.type === "basic") {
      // drop the older versions of this file, then keep this one
      for (const old of await cache.keys()) {
        if (new URL(old.url).pathname === url.pathname && old.url !== request.url) await cache.delete(old);
      }
      await cache.put(request, response.clone());
    }
    return response;
  });
  if (kept) {
    fresh.catch(() => {});
    return kept;
  }
  return fresh;
}
