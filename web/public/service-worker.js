/*
 * PIM's service worker (scope /pim/). Static files are served from the cache so the shell opens
 * offline and fast; everything else (API calls, app-config.json, the HTML of each address) always
 * goes to the network, so data and configuration are never stale.
 */
const CACHE = 'pim-static-v1';
const SCOPE = new URL(self.registration.scope).pathname;

/** Built assets carry a content hash in their name: a cached copy is always right. */
function isHashedAsset(path) {
  return path.startsWith(`${SCOPE}assets/`);
}

/** Translations and icons keep their names between releases: serve the cache, refresh it behind. */
function isNamedStaticFile(path) {
  return path.startsWith(`${SCOPE}locales/`) || path.startsWith(`${SCOPE}icons/`);
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function fetchAndStore(request) {
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function cacheFirst(request, refreshInBackground, event) {
  const cached = await caches.match(request);
  if (!cached) return fetchAndStore(request);
  if (refreshInBackground) event.waitUntil(fetchAndStore(request).catch(() => undefined));
  return cached;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isHashedAsset(url.pathname)) {
    event.respondWith(cacheFirst(request, false, event));
  } else if (isNamedStaticFile(url.pathname)) {
    event.respondWith(cacheFirst(request, true, event));
  }
  // Anything else is left to the browser: the network, as if there were no worker.
});
