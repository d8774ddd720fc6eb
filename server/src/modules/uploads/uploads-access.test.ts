import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../platform/http/error-handler.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { multipartBody } from '../../test-support/multipart-body.js';
import { createSet, testImage, upload, uploadServiceOf } from '../../test-support/upload-files.js';
import { uploadRoutes } from './routes.js';

describe('uploads: who may upload, and the limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const imageCount = async (setId: string) =>
    Number(
      (
        await t.app.database.db
          .selectFrom('image_set_image')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('set_id', '=', setId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('lets the owner and admins upload; others get 404, readers of a public set 403, anonymous 401', async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const admin = await signedInUser(t.app, { admin: true });
    const setId = await createSet(t.app, owner.auth);
    const file = { fileName: 'p.png', bytes: await testImage('png', 20, 20) };

    expect((await upload(t.app, owner.auth, setId, [file])).status).toBe(200);
    expect((await upload(t.app, admin.auth, setId, [file])).status).toBe(200);

    const hidden = await upload(t.app, other.auth, setId, [file]);
    expect(hidden.status).toBe(404);
    expect(hidden.json.message).toBe(`There is no image set with id ${setId}.`);

    await t.app.database.db.updateTable('document_image_set').set({ public_document_image_set: true }).where('id', '=', setId).execute();
    const readOnly = await upload(t.app, other.auth, setId, [file]);
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.message).toContain('WRITE');

    const anonymous = await upload(t.app, {}, setId, [file]);
    expect(anonymous.status).toBe(401);

    const unknown = await upload(t.app, owner.auth, '00000000-0000-4000-8000-000000000000', [file]);
    expect(unknown.status).toBe(404);
    const malformed = await upload(t.app, owner.auth, 'not-a-uuid', [file]);
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toContain('dataSetId');

    expect(await imageCount(setId)).toBe(2);
  });

  describe('with small limits', () => {
    let small: FastifyInstance;
    let setId: string;
    let auth: Record<string, string>;
    beforeAll(async () => {
      const owner = await signedInUser(t.app);
      auth = owner.auth;
      setId = await createSet(t.app, owner.auth);
      const uploads = uploadServiceOf(t.app, { limits: { maxBytes: 4096, maxPixels: 100 * 100, maxXmlBytes: 4096 } });
      // The upload routes alone, with a caller fixed to the set's owner.
      small = Fastify();
      small.setValidatorCompiler(validatorCompiler);
      small.setSerializerCompiler(serializerCompiler);
      installErrorHandler(small, '/api/');
      small.decorateRequest('principal', null);
      small.addHook('onRequest', async (req) => {
        req.principal = owner.principal;
      });
      await small.register(uploadRoutes, { uploads, prefix: '/api' });
    });
    afterAll(() => small.close());

    const post = (bytes: Buffer) => {
      const body = multipartBody([{ name: 'filepond', fileName: 'big.png', bytes }]);
      const url = `/api/pim/documentimageset/postfile?dataSetId=${setId}`;
      return call(small, { method: 'POST', url, headers: { ...auth, ...body.headers }, payload: body.payload });
    };

    it('refuses a file over the size limit with 413 and stores nothing', async () => {
      const storedFiles = () =>
        t.app.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const before = await storedFiles();
      const res = await post(await testImage('png', 90, 90));
      expect(res.status).toBe(413);
      expect(res.json.message).toBe('The file is larger than the limit of 4 KB.');
      expect((await storedFiles()).n).toBe(before.n);
      expect(await imageCount(setId)).toBe(0);
    });

    it('refuses an image over the pixel limit with 400 and the numbers', async () => {
      // Plain white compresses to far below the size limit.
      const res = await post(await sharp({ create: { width: 200, height: 60, channels: 3, background: '#fff' } }).png().toBuffer());
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('This image has 200 x 60 = 12,000 pixels; the limit is 10,000 pixels (0.01 megapixels).');
      expect(await imageCount(setId)).toBe(0);
    });

    it('accepts a file within both limits', async () => {
      const res = await post(await testImage('png', 30, 30));
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(await imageCount(setId)).toBe(1);
    });
  });
});
