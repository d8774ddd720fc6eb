/**
 * Registers /pim/service-worker.js for offline use of the static files. When the server does not
 * ship the file (404), earlier registrations are removed so a stale worker cannot pin old assets.
 */
export async function registerServiceWorker(): Promise<void> {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const scope = import.meta.env.BASE_URL;
  const scriptUrl = `${scope}service-worker.js`;
  try {
    const probe = await fetch(scriptUrl, { method: 'HEAD', cache: 'no-store' });
    if (probe.status === 404) {
      const registrations = await navigator.serviceWorker.getRegistrations();
      await Promise.all(registrations.map((registration) => registration.unregister()));
      return;
    }
    await navigator.serviceWorker.register(scriptUrl, { scope });
  } catch (error) {
    console.warn('Service worker registration failed', error);
  }
}
