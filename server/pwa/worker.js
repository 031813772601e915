/* global CONFIG */
/**
 * Posts' service worker (issue 74). Served at /sw.js by server/pwa/serviceWorker.ts, which puts
 * `const CONFIG = {...}` before this text: the build's version, the files to precache and the
 * paths in lib/pwa.ts. What it keeps: the build's static files, the app's icons and the offline
 * shell (the same for everyone), and for a moment an image another app shared. It never keeps an
 * /api answer, a page or anything of a signed-in person; signing out (or deleting the account, or
 * revoking this browser's own session) empties every cache but the static one. Requests it does
 * not name below go to the network untouched.
 */
const SHELL_CACHE = `posts-shell-${CONFIG.version}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll([CONFIG.offline, ...CONFIG.icons, ...CONFIG.precache]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  // An older build's files are of no use to this one's pages.
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith('posts-shell-') && name !== SHELL_CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Every cache but the static files': what sign-out must not leave behind. */
async function forgetPersonal() {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name !== SHELL_CACHE).map((name) => caches.delete(name)));
}

/**
 * Revoking a session by its id signs this browser out when the id is its own, which only the
 * server knows: asked after the answer, the sessions list says 401 once this browser is signed out.
 */
async function forgetIfSignedOut(revoked) {
  const response = await revoked;
  if (!response.ok) return;
  const check = await fetch(CONFIG.sessions, { cache: 'no-store' }).catch(() => null);
  if (check && check.status === 401) await forgetPersonal();
}

/** Build files (content-hashed) and the icons (this build's): from the cache, else the network's and kept. */
async function staticFile(request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

/** A page: always the network's answer (never kept); without a network, the offline shell. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(CONFIG.offline, { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw error;
  }
}

/** The share target's POST: keeps the image for the composer, then opens it (signing in first if need be). */
async function receiveShare(request) {
  let kept = false;
  try {
    const form = await request.formData();
    const file = form.getAll(CONFIG.shareField).find((part) => typeof part !== 'string');
    if (file) {
      const cache = await caches.open(CONFIG.shareCache);
      const headers = { 'content-type': file.type || 'application/octet-stream' };
      headers[CONFIG.sharedNameHeader] = encodeURIComponent(file.name || 'shared-image');
      await cache.put(CONFIG.sharedKey, new Response(file, { headers }));
      kept = true;
    }
  } catch {
    // An unreadable form: the home page, without an image.
  }
  return Response.redirect(new URL(kept ? CONFIG.sharedPage : CONFIG.home, self.location.origin).href, 303);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname === CONFIG.shareTarget) {
    event.respondWith(receiveShare(request));
    return;
  }
  if (CONFIG.signOut.some(([method, path]) => request.method === method && url.pathname === path)) {
    // Emptied as the request leaves: whether the server answers or not, this browser forgets.
    event.waitUntil(forgetPersonal());
    return;
  }
  if (request.method === 'DELETE' && url.pathname.startsWith(`${CONFIG.sessions}/`)) {
    const revoked = fetch(request);
    event.respondWith(revoked);
    event.waitUntil(forgetIfSignedOut(revoked).catch(() => {}));
    return;
  }
  if (request.method !== 'GET') return;
  if (url.pathname.startsWith(CONFIG.staticPrefix) || CONFIG.icons.includes(url.pathname))
    event.respondWith(staticFile(request));
  else if (request.mode === 'navigate') event.respondWith(page(request));
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    // Not the server's JSON: shown with the site's name only.
  }
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: data.icon,
    image: data.image,
    // One notification per notification: a push sent again replaces it.
    tag: data.notification_id,
    data: { url: data.url || CONFIG.notifications },
  };
  event.waitUntil(self.registration.showNotification(data.title || CONFIG.name, options));
});

/** A call as the signed-in person: an access token that lapsed is refreshed once, as the app's client does. */
async function asPerson(path, init) {
  const response = await fetch(path, init);
  if (response.status !== 401) return response;
  const refreshed = await fetch(CONFIG.refresh, { method: 'POST' });
  return refreshed.ok ? fetch(path, init) : response;
}

/**
 * The push service replaced this browser's subscription (Firefox does when one expires; Chromium
 * never says): the session's subscription at the server moves to the new one, with the kinds and
 * policy it had. Nothing saved for this session (signed out, or never turned on): nothing to move.
 */
async function moveSubscription(event) {
  const saved = await asPerson(CONFIG.pushSubscription);
  if (!saved.ok) return;
  const { alerts, policy, serverKey } = await saved.json();
  const subscription =
    event.newSubscription ||
    (await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey }));
  await asPerson(CONFIG.pushSubscription, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...subscription.toJSON(), alerts, policy }),
  });
}

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(moveSubscription(event).catch(() => {}));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  let target = new URL(CONFIG.notifications, self.location.origin);
  try {
    const url = new URL(event.notification.data && event.notification.data.url, self.location.origin);
    if (url.origin === self.location.origin) target = url;
  } catch {
    // No page named: the notifications page.
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === target.href);
      if (open) return open.focus();
      // A tab of the app already open shows the page, rather than a new tab beside it.
      const tab = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (tab) {
        const focused = await tab.focus();
        try {
          return (await focused.navigate(target.href)) || focused;
        } catch {
          // A tab this worker does not control cannot be sent elsewhere: open one.
        }
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
