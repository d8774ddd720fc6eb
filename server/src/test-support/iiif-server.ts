import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixturePath } from './fixtures.js';
import { testImage } from './upload-files.js';

/**
 * A IIIF server on loopback for harvest tests: it serves manifests and collections at the paths
 * of their ids, and an image (a small noisy JPEG) for any other path ending in .jpg or .png, so
 * Image API requests (`.../full/max/0/default.jpg`) and plain image resources both answer.
 * Real fixtures are served with their addresses moved onto this server (`/remote/<host>/...`).
 */
export interface IiifTestServer {
  base: string;
  /** Every path asked for, in order. */
  requests: string[];
  /** Serves `json` at the path of its `id` (or `@id`); gives that address. */
  serve(json: Record<string, unknown>): string;
  /** Serves something else at a path: an error status, HTML, damaged image bytes. */
  answer(path: string, status: number, contentType: string, body: string | Buffer): string;
  /** A fixture of shared/fixtures/iiif with its addresses moved onto this server. */
  fixture(relativePath: string): Record<string, unknown>;
  /** An address moved onto this server, as `fixture` moves them. */
  moved(url: string): string;
  close(): Promise<void>;
}

/**
 * Addresses that name rather than locate stay: contexts and profiles (readers recognise API
 * versions by their text) and licences.
 */
const KEEP = /^https?:\/\/(iiif\.io\/api\/[a-z]+\/\d\/(context\.json|level\d\.json)|www\.w3\.org\/|creativecommons\.org\/|rightsstatements\.org\/)/;

export async function startIiifServer(): Promise<IiifTestServer> {
  const routes = new Map<string, { status: number; contentType: string; body: string | Buffer }>();
  const requests: string[] = [];
  const image = await testImage('jpeg', 60, 40);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    requests.push(path);
    const route = routes.get(path);
    if (route) return res.writeHead(route.status, { 'content-type': route.contentType }).end(route.body);
    if (/\.(jpe?g|png)$/.test(path)) return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(image);
    res.writeHead(404, 'Not Found').end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const moved = (url: string) => (KEEP.test(url) ? url : url.replace(/^https?:\/\//, `${base}/remote/`));
  const pathOf = (url: string) => new URL(url).pathname;
  return {
    base,
    requests,
    serve(json) {
      const id = String(json.id ?? json['@id']);
      routes.set(pathOf(id), { status: 200, contentType: 'application/json', body: JSON.stringify(json) });
      return id;
    },
    answer(path, status, contentType, body) {
      routes.set(path, { status, contentType, body });
      return `${base}${path}`;
    },
    fixture(relativePath) {
      const text = fs.readFileSync(fixturePath('iiif', relativePath), 'utf8');
      return JSON.parse(text.replace(/https?:\/\/[^"\s]+/g, moved)) as Record<string, unknown>;
    },
    moved,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
