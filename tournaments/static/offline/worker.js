// The entry page's service worker (issue 18): keeps the entry page, its scripts and the rules engine, so a table
// whose Wi-Fi drops can reload the page and go on; and keeps a deal whose save could not reach the server.
// Served by tournaments.offline.views.worker, which puts WORKER (its version, the addresses to keep) above this.
//
// It acts on the competitions' entry pages and on static files only; every other request goes to the network
// untouched. The page's own scripts send the kept lines (offline/entry.js): this worker never sends a line.
/* global WORKER */
importScripts(WORKER.queue);

const CACHE = `wiezen-entry-${WORKER.version}`;
const ENTRY_PAGE = /\/c\/[^/]+\/r\d+\/t\d+\/entry\/$/;
const OFFLINE_PAGE = `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Offline</title><p>Geen verbinding · Pas de connexion · Offline.</p>
<p>Deze pagina werd nog niet op dit toestel geopend. · Cette page n'a pas encore été ouverte sur cet appareil. ·
This page was not opened on this device yet.</p>`;

self.addEventListener("install", (event) => {
  // The engine's files are kept as soon as the worker is installed, not when the Wi-Fi has already gone.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(WORKER.keep))
      .catch(() => {}) // a missing file is fetched (and kept) when first used
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("wiezen-entry-") && name !== CACHE).map((name) => caches.delete(name)),
      ))
      .then(() => self.clients.claim()),
  );
});

// The page asks, on each visit, that the engine be kept (a file the install could not fetch is fetched now), and on
// its first visit, to keep what it was loaded with before this worker controlled it.
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const pages = urls.map((url) => refresh(new Request(url, { credentials: "same-origin" })).catch(() => {}));
  event.waitUntil(Promise.all([...pages, keepEngine()]));
});

async function keepEngine() {
  const cache = await caches.open(CACHE);
  for (const url of WORKER.keep) {
    if (!(await cache.match(url, { ignoreVary: true }))) await refresh(new Request(url)).catch(() => {});
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && ENTRY_PAGE.test(url.pathname)) {
    if (request.method === "GET") event.respondWith(entryPage(request));
    else if (request.method === "POST") event.respondWith(saveOrKeep(request));
  } else if (request.method === "GET" && (url.pathname.startsWith(WORKER.static) || WORKER.keep.includes(url.pathname))) {
    event.respondWith(asset(request, event));
  }
});

// The entry page: the network's answer when there is one (kept for later, without its query), else the kept one.
async function entryPage(request) {
  try {
    return await refresh(request);
  } catch {
    const kept = await caches.match(pageKey(request.url), { cacheName: CACHE, ignoreVary: true });
    return kept || new Response(OFFLINE_PAGE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
}

async function refresh(request) {
  const response = await fetch(request);
  const url = new URL(request.url);
  const page = ENTRY_PAGE.test(url.pathname);
  if (response.ok && response.type === "basic" && !response.redirected && (!page || url.search === "")) {
    await keepWhole(page ? pageKey(request.url) : request, response.clone());
  }
  return response;
}

// Kept only once its body has arrived whole: a put whose body breaks off (the Wi-Fi going mid-answer) would
// lose the copy kept before, which is the one needed offline.
async function keepWhole(key, response) {
  let body;
  try {
    body = await response.arrayBuffer();
  } catch {
    return;
  }
  const { status, statusText, headers } = response;
  const cache = await caches.open(CACHE);
  await cache.put(key, new Response(body, { status, statusText, headers }));
}

function pageKey(address) {
  const url = new URL(address);
  return url.origin + url.pathname;
}

// A deal saved with the connection gone (the browser thought it was online): kept for the page to send, and the
// page shown again, from the network or as kept.
async function saveOrKeep(request) {
  // Back or Forward to a page that answered a save: the browser replays that POST from its cache only, which a
  // worker's fetch cannot do. The table did not save anything now: the page is shown as it is on the server.
  if (request.cache === "only-if-cached") return Response.redirect(new URL(request.url).pathname, 303);
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (error) {
    const url = new URL(request.url);
    let fields;
    try {
      fields = [...(await copy.formData()).entries()].filter(([, value]) => typeof value === "string");
    } catch {
      throw error;
    }
    if (!fields.some(([name]) => name === "idempotency_key")) throw error; // not a deal line
    await self.wiezenQueue.add(url.pathname, fields);
    return Response.redirect(url.pathname, 303);
  }
}

// Static files: the engine's from this worker's cache (its version changes with theirs); the others from the cache
// at once and refreshed behind (a new release shows on the next visit).
async function asset(request, event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) {
    const url = new URL(request.url);
    if (!WORKER.keep.includes(url.pathname)) event.waitUntil(refresh(request).catch(() => {}));
    return kept;
  }
  return refresh(request);
}
