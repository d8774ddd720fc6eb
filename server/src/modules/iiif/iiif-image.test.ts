import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BLUE, GREEN, RED, YELLOW, type Rgb, createSet, near, pixelsOf, quadrantImage, uploadImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

describe('IIIF Image API 3', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let id: string;
  const get = (url: string, headers = owner.auth) => t.app.inject({ method: 'GET', url, headers });
  const image = async (request: string) => {
    const res = await get(`/iiif/3/${id}/${request}`);
    expect(res.statusCode, res.body).toBe(200);
    return pixelsOf(res.rawPayload);
  };
  /** The colours at the four corners (inset by 2 pixels): top left, top right, bottom left, bottom right. */
  const corners = (p: Awaited<ReturnType<typeof pixelsOf>>) => [
    p.at(2, 2),
    p.at(p.width - 3, 2),
    p.at(2, p.height - 3),
    p.at(p.width - 3, p.height - 3),
  ];
  const expectColours = (actual: Rgb[], expected: Rgb[], tolerance?: number) =>
    actual.forEach((c, i) => expect(near(c, expected[i]!, tolerance), `pixel ${i}: ${c} should be ${expected[i]}`).toBe(true));

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    const setId = await createSet(t.app, owner.auth, 'Quadrants');
    id = await uploadImage(t.app, owner.auth, setId, await quadrantImage(400, 300), 'quadrants.png');
  });
  afterAll(() => t.close());

  it('describes the image in info.json and redirects the bare id there', async () => {
    const res = await get(`/iiif/3/${id}/info.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json; ?profile="http:\/\/iiif.io\/api\/image\/3\/context.json"/);
    const info = res.json();
    expect(info).toMatchObject({
      '@context': 'http://iiif.io/api/image/3/context.json',
      id: `http://pim.test/iiif/3/${id}`,
      type: 'ImageService3',
      protocol: 'http://iiif.io/api/image',
      profile: 'level2',
      width: 400,
      height: 300,
      tiles: [{ width: 512, height: 512, scaleFactors: [1] }],
      extraFormats: ['png', 'webp'],
      extraQualities: ['color', 'gray', 'bitonal'],
    });
    expect(info.maxWidth).toBeGreaterThan(0);
    expect(info.maxArea).toBeGreaterThan(0);
    expect(info.sizes).toEqual([
      { width: 100, height: 75 },
      { width: 200, height: 150 },
    ]);
    expect(info.extraFeatures).toEqual(expect.arrayContaining(['mirroring', 'regionByPct', 'regionSquare', 'sizeUpscaling', 'rotationBy90s']));

    const bare = await get(`/iiif/3/${id}`);
    expect(bare.statusCode).toBe(303);
    expect(bare.headers.location).toBe(`http://pim.test/iiif/3/${id}/info.json`);
  });

  it('cuts regions: full, square, pixels, percent, and crops one reaching past the edge', async () => {
    const full = await image('full/max/0/default.png');
    expect([full.width, full.height]).toEqual([400, 300]);
    expectColours(corners(full), [RED, GREEN, BLUE, YELLOW]);

    const square = await image('square/max/0/default.png');
    expect([square.width, square.height]).toEqual([300, 300]);
    expectColours(corners(square), [RED, GREEN, BLUE, YELLOW]);

    const pixels = await image('200,0,100,150/max/0/default.png');
    expect([pixels.width, pixels.height]).toEqual([100, 150]);
    expectColours(corners(pixels), [GREEN, GREEN, GREEN, GREEN]);

    const pct = await image('pct:0,50,50,50/max/0/default.png');
    expect([pct.width, pct.height]).toEqual([200, 150]);
    expectColours(corners(pct), [BLUE, BLUE, BLUE, BLUE]);

    const past = await image('300,200,500,500/max/0/default.png');
    expect([past.width, past.height]).toEqual([100, 100]);
    expectColours(corners(past), [YELLOW, YELLOW, YELLOW, YELLOW]);
  });

  it.each([
    ['max', 400, 300],
    ['200,', 200, 150],
    [',150', 200, 150],
    ['pct:25', 100, 75],
    ['100,100', 100, 100],
    ['!100,100', 100, 75],
    ['!1000,150', 200, 150],
    ['^!800,800', 800, 600],
    ['^800,', 800, 600],
    ['^,600', 800, 600],
    ['^pct:150', 600, 450],
    ['^500,400', 500, 400],
    ['^max', 6928, 5196],
  ])('scales to size %s', async (size, width, height) => {
    const p = await image(`full/${size}/0/default.jpg`);
    expect([p.width, p.height]).toEqual([width, height]);
    expectColours(corners(p), [RED, GREEN, BLUE, YELLOW]);
  });

  it('rotates by 90, 180 and 270 degrees and mirrors before rotating', async () => {
    const r90 = await image('full/max/90/default.png');
    expect([r90.width, r90.height]).toEqual([300, 400]);
    expectColours(corners(r90), [BLUE, RED, YELLOW, GREEN]);
    expectColours(corners(await image('full/max/180/default.png')), [YELLOW, BLUE, GREEN, RED]);
    expectColours(corners(await image('full/max/270/default.png')), [GREEN, YELLOW, RED, BLUE]);
    expectColours(corners(await image('full/max/!0/default.png')), [GREEN, RED, YELLOW, BLUE]);
    expectColours(corners(await image('full/max/!90/default.png')), [YELLOW, GREEN, BLUE, RED]);
  });

  it('gives colour, gray and bitonal qualities', async () => {
    expectColours(corners(await image('full/max/0/color.png')), [RED, GREEN, BLUE, YELLOW]);
    const gray = corners(await image('full/max/0/gray.png'));
    for (const [r, g, b] of gray) expect(r === g && g === b).toBe(true);
    expect(gray[3]![0]).toBeGreaterThan(gray[0]![0]); // yellow is lighter than red
    expectColours(corners(await image('full/max/0/bitonal.png')), [BLACK, WHITE, BLACK, WHITE], 0);
  });

  it('encodes jpg, png and webp with the right content type', async () => {
    for (const [format, type, magic] of [
      ['jpg', 'image/jpeg', 'ffd8ff'],
      ['png', 'image/png', '89504e47'],
      ['webp', 'image/webp', '52494646'],
    ] as const) {
      const res = await get(`/iiif/3/${id}/full/100,/0/default.${format}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.rawPayload.subarray(0, magic.length / 2).toString('hex')).toBe(magic);
      expect(res.headers['cache-control']).toBe('private, max-age=86400');
      expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    }
  });

  it.each([
    ['full/max/45/default.jpg', 'Only rotations by multiples of 90 degrees are supported.'],
    ['nonsense/max/0/default.jpg', 'The region "nonsense" is not valid'],
    ['0,0,0,10/max/0/default.jpg', 'The region "0,0,0,10" is not valid'],
    ['400,0,10,10/max/0/default.jpg', 'The region lies outside the image, which is 400 x 300 pixels.'],
    ['pct:100,0,10,10/max/0/default.jpg', 'The region lies outside the image'],
    ['full/big/0/default.jpg', 'The size "big" is not valid'],
    ['full/0,/0/default.jpg', 'The size "0," is not valid'],
    ['full/800,/0/default.jpg', 'add ^ to the size to allow upscaling'],
    ['full/pct:150/0/default.jpg', 'add ^ to the size to allow upscaling'],
    ['full/500,400/0/default.jpg', 'add ^ to the size to allow upscaling'],
    ['full/^20000,/0/default.jpg', 'larger than this server allows'],
    ['full/max/x/default.jpg', 'The rotation "x" is not valid'],
    ['full/max/0/sepia.jpg', 'The quality "sepia" is not supported'],
    ['full/max/0/default.gif', 'The format "gif" is not supported'],
    ['full/max/0/default', 'the last part must be {quality}.{format}'],
  ])('answers 400 for %s', async (request, message) => {
    const res = await call(t.app, { method: 'GET', url: `/iiif/3/${id}/${request}`, headers: owner.auth });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain(message);
  });

  it('answers 404 for unknown ids and keeps images from callers who may not read them', async () => {
    for (const unknown of ['0b6f9e4e-4b6a-4a8e-9a53-3c9bd0d0b0b0', 'not-an-id']) {
      const res = await call(t.app, { method: 'GET', url: `/iiif/3/${unknown}/info.json`, headers: owner.auth });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(`There is no document image with id ${unknown}.`);
    }
    const other = await signedInUser(t.app);
    expect((await get(`/iiif/3/${id}/info.json`, other.auth)).statusCode).toBe(404);
    expect((await get(`/iiif/3/${id}/full/max/0/default.jpg`, other.auth)).statusCode).toBe(404);
    expect((await get(`/api/pim/documentimage/${id}/thumbnail`, other.auth)).statusCode).toBe(404);
    const admin = await signedInUser(t.app, { admin: true });
    expect((await get(`/iiif/3/${id}/info.json`, admin.auth)).statusCode).toBe(200);
    for (const url of [`/iiif/3/${id}/info.json`, `/iiif/3/${id}/full/max/0/default.jpg`, `/api/pim/documentimage/${id}/thumbnail`]) {
      const anonymous = await call(t.app, { method: 'GET', url });
      expect(anonymous.status).toBe(401);
      expect(anonymous.json.message).toBe('You need to log in to do this.');
    }
  });

  it('serves a second request from the disk cache and answers 304 to a matching If-None-Match', async () => {
    const url = `/iiif/3/${id}/0,0,50,50/25,/0/default.jpg`;
    const before = t.app.services.iiif.renders;
    const first = await get(url);
    expect(t.app.services.iiif.renders).toBe(before + 1);
    const cacheFile = t.app.services.iiif.cachePathOf(await shaOf(id), '0,0,50,50/25,25/0/default.jpg');
    // Written after the answer, in the background.
    await vi.waitFor(() => expect(fs.existsSync(cacheFile)).toBe(true));
    const second = await get(url);
    expect(t.app.services.iiif.renders).toBe(before + 1);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    const notModified = await t.app.inject({ method: 'GET', url, headers: { ...owner.auth, 'if-none-match': String(first.headers.etag) } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  it('makes JPEG thumbnails that fit 320 x 212, cached', async () => {
    const before = t.app.services.iiif.renders;
    const res = await get(`/api/pim/documentimage/${id}/thumbnail`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const p = await pixelsOf(res.rawPayload);
    expect([p.width, p.height]).toEqual([283, 212]);
    expectColours(corners(p), [RED, GREEN, BLUE, YELLOW]);
    await get(`/api/pim/documentimage/${id}/thumbnail`);
    expect(t.app.services.iiif.renders).toBe(before + 1);
  });

  it('reads tiles of a large image from a pyramidal TIFF made once, on first use', async () => {
    const largeSet = await createSet(t.app, owner.auth, 'Large');
    const large = await uploadImage(t.app, owner.auth, largeSet, await quadrantImage(4200, 600), 'large.png');
    const tiledFileId = async () =>
      (await t.app.database.db.selectFrom('document_image').select('tiled_file_id').where('id', '=', large).executeTakeFirstOrThrow())
        .tiled_file_id;
    expect(await tiledFileId()).toBeNull();
    const info = (await get(`/iiif/3/${large}/info.json`)).json();
    expect(info.tiles[0].scaleFactors).toEqual([1, 2, 4, 8, 16]);

    const tile = await get(`/iiif/3/${large}/2048,0,2048,300/512,/0/default.jpg`);
    expect(tile.statusCode).toBe(200);
    const p = await pixelsOf(tile.rawPayload);
    expect([p.width, p.height]).toEqual([512, 75]);
    expectColours([p.at(2, 2), p.at(509, 2)], [RED, GREEN]);
    const firstPyramid = await tiledFileId();
    expect(firstPyramid).not.toBeNull();

    const scaled = await pixelsOf((await get(`/iiif/3/${large}/full/525,/0/default.png`)).rawPayload);
    expect([scaled.width, scaled.height]).toEqual([525, 75]);
    expectColours(corners(scaled), [RED, GREEN, BLUE, YELLOW]);
    expect(await t.app.services.iiif.ensurePyramid(large)).toMatch(/^[0-9a-f]{64}$/);
    expect(await tiledFileId()).toBe(firstPyramid);
    expect(await t.app.services.iiif.ensurePyramid(id)).toBeNull();
  });

  it('answers 404 with a clear message when the stored file of an image is gone', async () => {
    const setId = await createSet(t.app, owner.auth, 'Damaged');
    const damaged = await uploadImage(t.app, owner.auth, setId, await quadrantImage(60, 40), 'damaged.png');
    fs.rmSync(t.app.services.files.pathOf(await shaOf(damaged)));
    const res = await call(t.app, { method: 'GET', url: `/iiif/3/${damaged}/full/max/0/default.jpg`, headers: owner.auth });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(`The stored file of document image ${damaged} is missing.`);
  });

  async function shaOf(imageId: string): Promise<string> {
    const row = await t.app.database.db
      .selectFrom('document_image as d')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select('f.sha256')
      .where('d.id', '=', imageId)
      .executeTakeFirstOrThrow();
    return row.sha256;
  }
});
