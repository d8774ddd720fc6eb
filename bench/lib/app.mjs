import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../server/dist/app.js';
import { loadConfig } from '../../server/dist/config.js';
import { openDatabase } from '../../server/dist/platform/db/database.js';

/**
 * The real, built app in-process on an in-memory PGlite (or the `database` target given) and a
 * temp data dir, with one signed-in user (made through the services, as the tests do) and one
 * image set to upload into. `env` adds to the configuration; `executors` replaces the built-in
 * worker's; `admin` makes the user one.
 */
export async function startBenchApp({ env = {}, executors, admin = false, database: target = { kind: 'pglite-memory' } } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-bench-'));
  const config = loadConfig({ PIM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://pim.bench', ...env });
  const database = await openDatabase(target);
  const app = await buildApp(config, { database, ...(executors && { executors }) });
  const user = await app.services.users.createLocal({
    email: `bench-${Date.now()}@example.org`,
    name: 'Bench',
    passwordHash: 'not-used-in-the-bench',
    admin,
  });
  const token = await app.services.sessions.start(user.id);
  const auth = { authorization: `Bearer ${token}` };
  const created = await app.inject({
    method: 'POST',
    url: '/api/pim/documentimageset/create',
    headers: auth,
    payload: { imageset: 'Bench' },
  });
  if (created.statusCode !== 201) throw new Error(`could not create a set: ${created.statusCode} ${created.body}`);
  const setId = created.json().uuid;

  /** `POST pim/documentimageset/postfile` with one JPEG, as FilePond sends it; gives the image id. */
  async function uploadJpeg(fileName, bytes) {
    const { payload, headers } = multipartBody(fileName, bytes);
    const res = await app.inject({
      method: 'POST',
      url: `/api/pim/documentimageset/postfile?dataSetId=${setId}`,
      headers: { ...auth, ...headers },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`upload of ${fileName} failed: ${res.statusCode} ${res.body}`);
    return res.json().documentImages[0].uuid;
  }

  return {
    app,
    auth,
    dataDir,
    setId,
    userId: user.id,
    uploadJpeg,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function multipartBody(fileName, bytes) {
  const boundary = `----pim-bench-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="filepond"; filename="${fileName}"\r\n` +
    'Content-Type: image/jpeg\r\n\r\n';
  const payload = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
