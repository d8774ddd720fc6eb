import type { FastifyInstance } from 'fastify';
import { call } from './test-app.js';
import { multipartBody } from './multipart-body.js';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A PAGE 2019 file for an image with one region and one line of `text`, as a layout tool writes it. */
export function onePagexml(imageFilename: string, text: string, size = { width: 60, height: 40 }, creator = 'Test HTR 1.0'): string {
  const { width: w, height: h } = size;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">` +
    `<Metadata><Creator>${escape(creator)}</Creator><Created>2024-01-01T00:00:00</Created><LastChange>2024-01-01T00:00:00</LastChange></Metadata>` +
    `<Page imageFilename="${escape(imageFilename)}" imageWidth="${w}" imageHeight="${h}">` +
    `<TextRegion id="r1"><Coords points="0,0 ${w - 1},0 ${w - 1},${h - 1} 0,${h - 1}"/>` +
    `<TextLine id="r1l1"><Coords points="1,1 ${w - 2},1 ${w - 2},${h - 2} 1,${h - 2}"/><Baseline points="1,${h - 3} ${w - 2},${h - 3}"/>` +
    `<TextEquiv><Unicode>${escape(text)}</Unicode></TextEquiv></TextLine></TextRegion></Page></PcGts>\n`
  );
}

/** An API key with the MINION role, made by an admin through the API. */
export async function minionKey(app: FastifyInstance, admin: Record<string, string>, userName = 'minion'): Promise<{ authorization: string }> {
  const res = await call(app, { method: 'POST', url: '/api/pim/apikey', headers: admin, payload: { userName, roles: ['MINION'] } });
  if (res.status >= 400) throw new Error(`could not make a MINION key: ${res.status} ${res.res.body}`);
  return { authorization: `ApiKey ${res.json.apiKey}` };
}

/** `POST pim/workers/claim` for these types as a worker of this name. */
export function claim(app: FastifyInstance, auth: Record<string, string>, types: string[], worker: object = { name: 'test worker', versions: { htr: '1.0' } }) {
  return call(app, { method: 'POST', url: '/api/pim/workers/claim', headers: auth, payload: { worker, types } });
}

/** `POST pim/workers/jobs/{uuid}/{action}` with a JSON body. */
export function workerCall(app: FastifyInstance, auth: Record<string, string>, uuid: string, action: 'heartbeat' | 'complete' | 'fail' | 'release', payload: object) {
  return call(app, { method: 'POST', url: `/api/pim/workers/jobs/${uuid}/${action}`, headers: auth, payload });
}

/** `POST pim/workers/jobs/{uuid}/files`: the fields first, then the file in the part `file`. */
export function uploadWorkerFile(app: FastifyInstance, auth: Record<string, string>, uuid: string, fields: Record<string, string>, file: { name: string; bytes: Buffer | string }) {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', fileName: file.name, bytes: Buffer.from(file.bytes) },
  ]);
  return call(app, { method: 'POST', url: `/api/pim/workers/jobs/${uuid}/files`, headers: { ...auth, ...headers }, payload });
}
