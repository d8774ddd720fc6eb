// A small HTTP/1.1 load generator: `connections` keep-alive sockets, each sending the next request
// as soon as the last answer is in (no pipelining), for `seconds`. It writes one prepared request
// and reads answers by Content-Length, so it costs the machine little next to the server it
// measures; both sides of a ratio are measured with it alike.
import net from 'node:net';

/**
 * Loads `url` (an http:// URL on loopback) and gives the completed requests per second and the
 * latency percentiles in ms. Every answer must have the status `expectStatus`: a server that
 * answers errors fast would otherwise look fast.
 */
export async function load(url, { connections = 50, seconds = 5, headers = {}, expectStatus = 200 } = {}) {
  const { hostname, port, pathname, search } = new URL(url);
  const head = Object.entries({ host: `${hostname}:${port}`, connection: 'keep-alive', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const request = Buffer.from(`GET ${pathname}${search} HTTP/1.1\r\n${head}\r\n`);
  const latencies = [];
  let done = 0;
  let failure = null;
  const until = performance.now() + seconds * 1000;

  const one = () =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
      let buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = () => {
        if (performance.now() >= until || failure) {
          socket.end();
          resolve();
          return;
        }
        sentAt = performance.now();
        socket.write(request);
      };
      socket.on('connect', send);
      socket.on('error', (err) => {
        failure ??= err;
        reject(err);
      });
      socket.on('data', (chunk) => {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        for (;;) {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) return;
          const headText = buffer.toString('latin1', 0, end);
          const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(headText)?.[1] ?? NaN);
          if (!Number.isFinite(length)) {
            failure ??= new Error(`an answer without Content-Length from ${url}: ${headText.split('\r\n')[0]}`);
            socket.destroy();
            reject(failure);
            return;
          }
          if (buffer.length < end + 4 + length) return;
          const status = Number(headText.slice(9, 12));
          if (status !== expectStatus) {
            failure ??= new Error(`${url} answered ${status}, not ${expectStatus}: ${buffer.toString('utf8', end + 4, end + 4 + Math.min(length, 300))}`);
            socket.destroy();
            reject(failure);
            return;
          }
          buffer = buffer.subarray(end + 4 + length);
          latencies.push(performance.now() - sentAt);
          done += 1;
          send();
        }
      });
    });

  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, one));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { perSecond: done / elapsed, requests: done, p50: at(0.5), p99: at(0.99) };
}
