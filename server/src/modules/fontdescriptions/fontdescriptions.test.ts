import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { FONT_MAX_BYTES } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFileGarbage } from '../../cli/files-gc.js';
import { testFont, withBadHeadMagic } from '../../test-support/font-files.js';
import { postFont } from '../../test-support/fonts.js';
import { fieldParts, heldBody, multipartBody } from '../../test-support/multipart-body.js';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { testImage } from '../../test-support/upload-files.js';
import { NO_FONT_FILE, URI_LOCKED } from './service.js';
import { FONT_COLLECTION, NOT_A_FONT, WEB_FONT } from './sfnt.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

describe('font descriptions', () => {
  let t: TestApp;
  let admin: User;
  let reader: User;
  let counter = 0;
  const uri = () => `https://fonts.example.org/font-${(counter += 1)}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t.app, { admin: true });
    reader = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const storeFiles = () => dataDirFiles(t.dataDir).store();
  const tmpFiles = () => dataDirFiles(t.dataDir).tmp();
  const count = async (table: 'font_description' | 'stored_file') =>
    Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const state = async () => ({ fonts: await count('font_description'), files: await count('stored_file'), store: storeFiles(), tmp: tmpFiles() });
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const get = (url: string, who: User = reader) => call(t.app, { method: 'GET', url: `/api/pim/fontdescription${url}`, headers: who.auth });
  const put = (id: string, payload: object, who: User = admin) =>
    call(t.app, { method: 'PUT', url: `/api/pim/fontdescription/${id}`, headers: who.auth, payload });
  const del = (id: string, who: User = admin) => call(t.app, { method: 'DELETE', url: `/api/pim/fontdescription/${id}`, headers: who.auth });

  it('creates a TrueType font description from the fields and the file, lists, reads and downloads it as {uuid}.ttf', async () => {
    const bytes = testFont({ family: 'Junicode', fullName: 'Junicode Regular' });
    const fontUri = uri();
    const res = await postFont(t.app, admin.auth, {
      uri: fontUri,
      name: '',
      license: 'SIL Open Font License 1.1',
      handwritten: 'false',
      containsLongS: 'true',
      containsLigatures: 'true',
      romanScript: 'true',
      serif: 'true',
    }, { fileName: 'Junicode.ttf', bytes });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({
      uri: fontUri,
      name: 'Junicode Regular',
      type: 'TrueType',
      license: 'SIL Open Font License 1.1',
      handwritten: false,
      containsLongS: true,
      containsLigatures: true,
      romanScript: true,
      serif: true,
      hasData: true,
      fileName: 'Junicode.ttf',
      sizeBytes: bytes.length,
    });
    const id = res.json.uuid as string;

    const list = await get('');
    expect(list.status).toBe(200);
    expect(list.json.map((f: { uuid: string }) => f.uuid)).toContain(id);
    expect((await get(`/${id}`)).json).toEqual(res.json);

    const download = await t.app.inject({ method: 'GET', url: `/api/pim/fontdescription/${id}/binary`, headers: reader.auth });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('font/ttf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${id}.ttf"`);
    expect(sha256(download.rawPayload)).toBe(sha256(bytes));
    expect(tmpFiles()).toEqual([]);
  });

  it('takes an OpenType (CFF) font, keeps the name and type the user gives, and sends it as font/otf, still named .ttf', async () => {
    const bytes = testFont({ flavour: 'OpenType', family: 'Ævum' });
    // The fields may come after the file too.
    const { payload, headers } = multipartBody([
      { name: 'file', fileName: 'aevum.otf', bytes },
      { name: 'uri', value: uri() },
      { name: 'name', value: '  Ævum display  ' },
      { name: 'type', value: 'OpenType CFF' },
    ]);
    const res = await call(t.app, { method: 'POST', url: '/api/pim/fontdescription', headers: { ...admin.auth, ...headers }, payload });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({ name: 'Ævum display', type: 'OpenType CFF', license: '', serif: false, handwritten: false });
    const download = await t.app.inject({ method: 'GET', url: `/api/pim/fontdescription/${res.json.uuid}/binary`, headers: admin.auth });
    expect(download.headers['content-type']).toBe('font/otf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${res.json.uuid}.ttf"`);
    expect(download.rawPayload.equals(bytes)).toBe(true);

    // Without a name in the font's name table nor in the form, the file name is the name.
    const nameless = testFont({ family: '', fullName: '' });
    const byFile = await postFont(t.app, admin.auth, { uri: uri() }, { fileName: 'Old Style.ttf', bytes: nameless });
    expect(byFile.json.name).toBe('Old Style');
  });

  it('refuses wrong, damaged, missing and oversized files with a clear 4xx, and keeps nothing of them', async () => {
    const before = await state();
    const woff = Buffer.concat([Buffer.from('wOFF'), testFont().subarray(4)]);
    const ttc = Buffer.concat([Buffer.from('ttcf'), Buffer.alloc(60)]);
    const cases: { label: string; file: { fileName: string; bytes: Buffer } | null; status: number; message: string }[] = [
      { label: 'PNG', file: { fileName: 'font.ttf', bytes: await testImage('png', 20, 20) }, status: 415, message: NOT_A_FONT },
      { label: 'text', file: { fileName: 'font.otf', bytes: Buffer.from('hello, this is not a font') }, status: 415, message: NOT_A_FONT },
      { label: 'WOFF', file: { fileName: 'font.woff', bytes: woff }, status: 415, message: WEB_FONT },
      { label: 'collection', file: { fileName: 'fonts.ttc', bytes: ttc }, status: 415, message: FONT_COLLECTION },
      {
        label: 'damaged',
        file: { fileName: 'font.ttf', bytes: withBadHeadMagic(testFont()) },
        status: 400,
        message: "This font file is damaged: its 'head' table has the wrong magic number.",
      },
      { label: 'cut off', file: { fileName: 'font.ttf', bytes: testFont().subarray(0, 300) }, status: 400, message: 'This font file is damaged' },
      { label: 'no file', file: null, status: 400, message: NO_FONT_FILE },
      { label: 'empty file', file: { fileName: 'font.ttf', bytes: Buffer.alloc(0) }, status: 400, message: 'The file font.ttf is empty.' },
      {
        label: 'too large',
        file: { fileName: 'big.ttf', bytes: testFont({ padding: FONT_MAX_BYTES }) },
        status: 413,
        message: 'The file is larger than the limit of 50 MB.',
      },
    ];
    for (const c of cases) {
      const res = await postFont(t.app, admin.auth, { uri: uri() }, c.file);
      expect(res.status, c.label).toBe(c.status);
      expect(res.json.message, c.label).toContain(c.message);
      expect(await state(), c.label).toEqual(before);
    }

    const { payload, headers } = multipartBody([
      { name: 'uri', value: uri() },
      { name: 'font', fileName: 'a.ttf', bytes: testFont() },
    ]);
    const wrongPart = await call(t.app, { method: 'POST', url: '/api/pim/fontdescription', headers: { ...admin.auth, ...headers }, payload });
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.json.message).toBe('Send the file in the part named "file", not "font".');
    const json = await call(t.app, { method: 'POST', url: '/api/pim/fontdescription', headers: admin.auth, payload: { uri: uri() } });
    expect(json.status).toBe(400);
    expect(json.json.message).toContain('multipart/form-data');
    expect(await state()).toEqual(before);
  });

  it('checks the fields: a URI is required, must be absolute and is unique (409); yes/no fields are true or false', async () => {
    const before = await state();
    const taken = uri();
    const first = await postFont(t.app, admin.auth, { uri: taken });
    expect(first.status).toBe(201);
    const afterFirst = await state();
    for (const [fields, status, message] of [
      [{}, 400, 'uri: '],
      [{ uri: '   ' }, 400, "Enter the font's URI"],
      [{ uri: 'fonts/junicode' }, 400, 'The URI must be an absolute URI'],
      [{ uri: 'https://example.org/a font' }, 400, 'The URI must be an absolute URI'],
      [{ uri: uri(), serif: 'maybe' }, 400, 'serif: A yes/no field must be "true" or "false".'],
      [{ uri: uri(), name: 'x'.repeat(256) }, 400, 'name: A name can be at most 255 characters.'],
      [{ uri: taken }, 409, `A font description with the URI ${taken} already exists`],
    ] as const) {
      // A different font, so a refusal must also remove its file.
      const res = await postFont(t.app, admin.auth, fields, { fileName: 'other.ttf', bytes: testFont({ family: 'Other' }) });
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(res.json.message, JSON.stringify(fields)).toContain(message);
    }
    // The same bytes under a taken URI: the file stays, the first description still names it.
    const again = await postFont(t.app, admin.auth, { uri: taken });
    expect(again.status).toBe(409);
    expect(await state()).toEqual(afterFirst);
    expect(afterFirst.fonts).toBe(before.fonts + 1);
  });

  it('refuses bad fields and a taken URI sent before the file when the file starts, staging none of it, while the upload still runs', async () => {
    const taken = uri();
    expect((await postFont(t.app, admin.auth, { uri: taken })).status).toBe(201);
    const before = await state();
    const bytes = Buffer.concat([testFont({ family: 'Big' }), Buffer.alloc(FONT_MAX_BYTES + 1024)]);
    for (const [fields, status, message] of [
      [{ uri: '   ', name: 'Big' }, 400, "Enter the font's URI"],
      [{ uri: uri(), serif: 'maybe' }, 400, 'serif: A yes/no field must be "true" or "false".'],
      [{ uri: taken }, 409, `A font description with the URI ${taken} already exists`],
    ] as const) {
      const { payload, headers } = multipartBody([...fieldParts(fields), { name: 'file', fileName: 'big.ttf', bytes }], { cutOff: true });
      const body = heldBody(payload);
      const res = await call(t.app, { method: 'POST', url: '/api/pim/fontdescription', headers: { ...admin.auth, ...headers }, payload: body.stream });
      expect(await state()).toEqual(before);
      body.release();
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(res.json.message, JSON.stringify(fields)).toContain(message);
    }
  });

  it('updates the properties, keeps the URI locked and answers 404 for unknown ids', async () => {
    const created = (await postFont(t.app, admin.auth, { uri: uri(), name: 'Before' })).json;
    const id = created.uuid as string;
    const change = {
      uri: created.uri,
      name: 'After',
      type: 'TrueType (hinted)',
      license: 'Apache 2.0',
      handwritten: true,
      containsLongS: true,
      containsLigatures: false,
      romanScript: false,
      serif: true,
    };
    const res = await put(id, change);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ ...change, uuid: id, hasData: true, fileName: created.fileName });
    const { uri: _sent, ...withoutUri } = change;
    expect((await put(id, { ...withoutUri, name: 'No URI sent' })).json.name).toBe('No URI sent');

    const locked = await put(id, { ...change, uri: 'https://fonts.example.org/elsewhere' });
    expect(locked.status).toBe(400);
    expect(locked.json.message).toBe(URI_LOCKED);
    expect((await get(`/${id}`)).json.uri).toBe(created.uri);

    expect((await put(id, { ...change, name: '  ' })).json.message).toContain('Give the font description a name.');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await put(unknown, change)).status).toBe(404);
    expect((await get(`/${unknown}`)).status).toBe(404);
    expect((await get(`/${unknown}/binary`)).status).toBe(404);
    expect((await del(unknown)).status).toBe(404);
    const malformed = await get('/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toContain('The font description id must be a UUID.');
  });

  it('deletes the description and its file, but keeps a file another description still names; gc never takes a font', async () => {
    const bytes = testFont({ family: 'Shared' });
    const a = (await postFont(t.app, admin.auth, { uri: uri() }, { fileName: 'a.ttf', bytes })).json;
    const b = (await postFont(t.app, admin.auth, { uri: uri() }, { fileName: 'b.ttf', bytes })).json;
    const file = t.app.services.files.pathOf(sha256(bytes));
    expect(fs.existsSync(file)).toBe(true);

    const out: string[] = [];
    await collectFileGarbage(db(), t.app.services.files, { out: (s) => out.push(s), err: () => undefined }, false);
    expect(fs.existsSync(file)).toBe(true);

    expect((await del(a.uuid)).status).toBe(204);
    expect((await get(`/${a.uuid}`)).status).toBe(404);
    expect(fs.existsSync(file), 'b still names the bytes').toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/pim/fontdescription/${b.uuid}/binary`, headers: reader.auth })).rawPayload.equals(bytes)).toBe(true);

    expect((await del(b.uuid)).status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    expect((await get(`/${b.uuid}/binary`)).status).toBe(404);
    expect((await del(b.uuid)).status).toBe(404);
  });

  it('lets everyone signed in read and download; only admins create (before reading the file), change and delete', async () => {
    const font = (await postFont(t.app, admin.auth, { uri: uri() })).json;
    const before = await state();
    const refused = await postFont(t.app, reader.auth, { uri: uri() });
    expect(refused.status).toBe(403);
    expect((await postFont(t.app, {}, { uri: uri() })).status).toBe(401);
    expect(await state()).toEqual(before);
    const full = { name: 'Mine now', type: '', license: '', handwritten: false, containsLongS: false, containsLigatures: false, romanScript: false, serif: false };
    expect((await put(font.uuid, full, reader)).status).toBe(403);
    expect((await del(font.uuid, reader)).status).toBe(403);
    expect((await get(`/${font.uuid}/binary`, reader)).status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: '/api/pim/fontdescription' })).status).toBe(401);
  });
});
