import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executors } from '../../jobs/executors/index.js';
import { waitForJob } from '../../test-support/jobs.js';
import { type TestApp, call, createTestApp, signedInUser } from '../../test-support/test-app.js';
import { NO_TESSERACT, tesseractWithEnglish, textPage } from '../../test-support/text-images.js';
import { createSet, upload } from '../../test-support/upload-files.js';

const HAS_TESSERACT = tesseractWithEnglish();
if (!HAS_TESSERACT) console.warn(NO_TESSERACT);

describe.skipIf(!HAS_TESSERACT)('search after OCR', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  beforeAll(async () => {
    t = await createTestApp({}, { executors });
  });

  it('finds, with a typo, the words an OCR job recognised, without a reindex by hand', async () => {
    const admin = (await signedInUser(t.app, { admin: true })).auth;
    const owner = (await signedInUser(t.app)).auth;
    const index = (await call(t.app, { method: 'POST', url: '/api/pim/elasticsearchindex', headers: admin, payload: { name: 'ocr' } })).json.uuid;
    const setId = await createSet(t.app, owner, 'Scans');
    await call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner, payload: { uuid: setId, imageset: 'Scans', elasticSearchIndex: { uuid: index } } });
    const page = await upload(t.app, owner, setId, [{ fileName: 'scan.png', bytes: await textPage(['Remarkable harbour charter', 'granted in the year']) }]);
    expect(page.status).toBe(200);
    const job = await call(t.app, { method: 'POST', url: '/api/pim/jobs', headers: owner, payload: { jobType: 'Tesseract4Hocr', imageSet: setId } });
    expect(job.status, JSON.stringify(job.json)).toBe(200);
    expect((await waitForJob(t.app, owner, job.json.uuid, (j) => j.state === 'done' || j.state === 'failed')).state).toBe('done');
    const body = JSON.stringify({ query: { multi_match: { query: 'harbuor', fields: ['text', 'htr', 'persons'], fuzziness: 'AUTO' } } });
    for (;;) {
      const res = await call(t.app, { method: 'POST', url: '/api/pim/elastic/ocr/_search', headers: { ...owner, 'content-type': 'application/json' }, payload: body });
      expect(res.status).toBe(200);
      if (res.json.hits.total.value > 0) {
        expect(res.json.hits.hits[0]._source.label).toBe('scan');
        expect(res.json.hits.hits[0]._source.text).toMatch(/harbour/i);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
});
