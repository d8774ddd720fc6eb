/*
 * The app's code, for a page the server drew a screen into (server/src/platform/http/web-app.ts):
 * the page carries the elements that ask for it as a data block, and they go into the page once the
 * browser has painted the screen, so that fetching and compiling the code does not hold the first
 * paint up on a busy machine. A page that will not paint soon (a tab in the background) starts at
 * once. A classic script: the content security policy allows no inline one.
 */
(() => {
  const block = document.getElementById('pim-app-code');
  if (!block) return;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // A fragment made this way keeps its scripts runnable, unlike innerHTML.
    document.head.append(document.createRange().createContextualFragment(JSON.parse(block.textContent)));
  };
  if (document.visibilityState === 'hidden' || typeof PerformanceObserver === 'undefined') {
    start();
    return;
  }
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  // Should the paint not be reported, the app starts all the same.
  setTimeout(start, 2000);
})();
