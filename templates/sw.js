// The score book's service worker (the venue without Wi-Fi). Plain, no library.
// - Static files (stylesheets, scripts, icons) are kept when it installs, and served from the
//   device first: their names change with their contents.
// - Pages are asked for on the network first. A page the organizer's device was told to keep
//   (the meet's page, its draw and its game forms: static/js/offline.js sends "keep" when a meet's
//   page opens online) is kept, refreshed on every visit online, and shown offline. A page not
//   kept shows the offline page.
// - Nothing is sent from here: games saved offline wait in the page's own queue (IndexedDB,
//   static/js/queue.js), which sends them itself.
const STATIC = "shirakaba-static-{{ version }}";
const PAGES = "shirakaba-pages";
const PRECACHE = {{ precache|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};
const OFFLINE = {{ offline|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC).then((cache) => cache.addAll([...PRECACHE, OFFLINE])).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("shirakaba-static-") && k !== STATIC).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const keep = async (urls) => {
  const cache = await caches.open(PAGES);
  let kept = 0;
  for (const url of urls) {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok && !response.redirected) {
        await cache.put(url, response);
        kept += 1;
      }
    } catch (error) {
      // Offline meanwhile: what was kept before stays.
    }
  }
  return kept;
};

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const answer = (reply) => event.source && event.source.postMessage(reply);
  if (message.type === "keep") {
    event.waitUntil(keep(message.urls || []).then((kept) => answer({ type: "kept", kept })));
  } else if (message.type === "forget") {
    // Signing out: the kept pages hold the club's names and scores.
    event.waitUntil(caches.delete(PAGES).then(() => answer({ type: "forgotten" })));
  }
});

const staticFile = async (request) => {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC)).put(request, response.clone());
  return response;
};

// A kept page is shown when the network fails, or has not answered in this long (a venue's
// Wi-Fi that is up but hardly passes anything).
const PATIENCE = 8000;
const slow = () => new Promise((resolve, reject) => setTimeout(() => reject(new Error("slow")), PATIENCE));

const page = async (request) => {
  const cache = await caches.open(PAGES);
  const kept = await cache.match(request, { ignoreVary: true });
  try {
    const response = await (kept ? Promise.race([fetch(request), slow()]) : fetch(request));
    if (kept && response.ok && !response.redirected) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    return kept || (await caches.match(OFFLINE)) || Response.error();
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;  // saves go from the page (its queue), never from here
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) event.respondWith(staticFile(request));
  else if (request.mode === "navigate") event.respondWith(page(request));
});
