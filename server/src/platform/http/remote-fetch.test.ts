import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from './private-addresses.js';
import { DEFAULT_REMOTE_FETCH, RemoteFetcher } from './remote-fetch.js';

describe('private addresses', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '::ffff:a9fe:a9fe', '::127.0.0.1', 'not an address',
  ])('%s is not public', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '::ffff:808:808'])(
    '%s is public',
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('RemoteFetcher', () => {
  let server: http.Server;
  let base: string;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const hops = Number(url.searchParams.get('hops') ?? 0);
      if (url.pathname === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"Manifest"}');
      if (url.pathname === '/html') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html></html>');
      if (url.pathname === '/redirect') return res.writeHead(302, { location: hops > 0 ? `/redirect?hops=${hops - 1}` : '/json' }).end();
      if (url.pathname === '/to-ftp') return res.writeHead(301, { location: 'ftp://example.org/x' }).end();
      if (url.pathname === '/big') return res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
      if (url.pathname === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`["${'x'.repeat(3000)}`);
        return res.end(`${'x'.repeat(3000)}"]`);
      }
      if (url.pathname === '/silent') return void held.push(res);
      res.writeHead(404, 'Not Found').end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const open = new RemoteFetcher({ ...DEFAULT_REMOTE_FETCH, allowPrivate: true });
  const guarded = new RemoteFetcher({ ...DEFAULT_REMOTE_FETCH, allowPrivate: false });
  const json = (fetcher: RemoteFetcher, path: string, maxBytes = 1_000_000) => fetcher.getJson(`${base}${path}`, { maxBytes });

  it('reads JSON, following redirects to where it is', async () => {
    await expect(json(open, '/redirect?hops=4')).resolves.toEqual({ url: `${base}/json`, json: { type: 'Manifest' } });
  });

  it('refuses loopback and private addresses unless allowed, by address and by name', async () => {
    await expect(json(guarded, '/json')).rejects.toThrow('127.0.0.1 is a loopback, private-network or link-local address, which a harvest may not fetch from');
    const port = new URL(base).port;
    await expect(guarded.getJson(`http://localhost:${port}/json`, { maxBytes: 1000 })).rejects.toThrow(/^localhost \((127\.0\.0\.1|::1)\) is a loopback/);
    await expect(guarded.getJson(`http://[::1]:${port}/json`, { maxBytes: 1000 })).rejects.toThrow('[::1] (::1) is a loopback');
  });

  it('says what went wrong: an error status, too many redirects, another protocol, no JSON, too large', async () => {
    await expect(json(open, '/missing')).rejects.toThrow(`${base}/missing answered 404 Not Found.`);
    await expect(json(open, '/redirect?hops=5')).rejects.toThrow(`${base}/redirect?hops=5 redirects more than 5 times.`);
    await expect(json(open, '/to-ftp')).rejects.toThrow('ftp://example.org/x is not an http or https address.');
    await expect(json(open, '/html')).rejects.toThrow(`${base}/html did not answer with JSON (it sent text/html): give the address of a IIIF manifest or collection.`);
    await expect(json(open, '/big', 1000)).rejects.toMatchObject({ status: 413, message: `${base}/big is 5 KB, more than the limit of 1000 bytes.` });
    await expect(json(open, '/big-chunked', 4000)).rejects.toMatchObject({ status: 413 });
    await expect(open.getJson('file:///etc/passwd', { maxBytes: 1000 })).rejects.toThrow('file:///etc/passwd is not an http or https address.');
  });

  it('gives up on a server that does not answer, and stops when the job does', async () => {
    const impatient = new RemoteFetcher({ ...DEFAULT_REMOTE_FETCH, allowPrivate: true, headersTimeoutMs: 200 });
    await expect(json(impatient, '/silent')).rejects.toThrow(`${base}/silent did not answer within 200 ms.`);
    const controller = new AbortController();
    const stopped = open.getJson(`${base}/silent`, { maxBytes: 1000, signal: controller.signal });
    controller.abort(new Error('The job was cancelled.'));
    await expect(stopped).rejects.toThrow('The job was cancelled.');
  });
});
