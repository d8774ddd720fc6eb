import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rgb, createSet, near, pixelsOf, uploadImage } from '../../test-support/iiif-images.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { fixturePath } from '../../test-support/fixtures.js';

/**
 * The checks of the official IIIF Image API validator, on its own test image: a 1000 x 1000 PNG
 * of 10 x 10 coloured squares, 100 pixels each (fixtures/iiif/image-validator/PROVENANCE.txt).
 * The expected colours are read from the fixture itself at the centre of each square.
 */
const VALIDATOR_ID = '67352ccc-d1b0-11e1-89ae-279075081939';
const FIXTURE = fixturePath('iiif', 'image-validator', 'test-image', `${VALIDATOR_ID}.png`);
const haveFixture = fs.existsSync(FIXTURE);
if (!haveFixture) console.warn(`Skipping the IIIF image validator conformance tests: ${FIXTURE} is absent.`);

describe.skipIf(!haveFixture)('IIIF image validator conformance', () => {
  let t: TestApp;
  let auth: { authorization: string };
  /** The image's id here; the validator's own id is only the file name. */
  let id: string;
  /** square[row][column]: the colour of the square in that row and column. */
  let square: Rgb[][];

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await signedInUser(t.app);
    auth = owner.auth;
    const bytes = fs.readFileSync(FIXTURE);
    id = await uploadImage(t.app, auth, await createSet(t.app, auth, 'Validator'), bytes, `${VALIDATOR_ID}.png`);
    const original = await pixelsOf(bytes);
    square = Array.from({ length: 10 }, (_, row) => Array.from({ length: 10 }, (_, col) => original.at(col * 100 + 50, row * 100 + 50)));
  });
  afterAll(() => t.close());

  const fetchImage = async (request: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/iiif/3/${id}/${request}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return pixelsOf(res.rawPayload);
  };
  const status = async (request: string) =>
    (await t.app.inject({ method: 'GET', url: `/iiif/3/${request}`, headers: auth })).statusCode;
  const expectColour = (actual: Rgb, expected: Rgb, what: string) =>
    expect(near(actual, expected, 30), `${what}: ${actual} should be ${expected}`).toBe(true);

  it('id_squares, format_jpg/png/webp: every square has its colour', async () => {
    for (const format of ['jpg', 'png', 'webp']) {
      const p = await fetchImage(`full/max/0/default.${format}`);
      expect([p.width, p.height]).toEqual([1000, 1000]);
      for (let row = 0; row < 10; row++) {
        for (let col = 0; col < 10; col++) expectColour(p.at(col * 100 + 50, row * 100 + 50), square[row]![col]!, `${format} ${row},${col}`);
      }
    }
  });

  it('region_pixels, region_percent, region_square: a region is the square it names', async () => {
    for (const [row, col] of [[0, 0], [3, 7], [9, 9], [5, 2]] as const) {
      const px = await fetchImage(`${col * 100 + 13},${row * 100 + 13},74,74/max/0/default.png`);
      expect([px.width, px.height]).toEqual([74, 74]);
      expectColour(px.at(37, 37), square[row]![col]!, `pixels ${row},${col}`);
      const pct = await fetchImage(`pct:${col * 10 + 1},${row * 10 + 1},8,8/max/0/default.png`);
      expect([pct.width, pct.height]).toEqual([80, 80]);
      expectColour(pct.at(40, 40), square[row]![col]!, `pct ${row},${col}`);
    }
    const sq = await fetchImage('square/max/0/default.png');
    expect([sq.width, sq.height]).toEqual([1000, 1000]);
  });

  it('size_wc, size_ch, size_wh, size_bwh, size_percent, size_region, size_up, size_noup', async () => {
    for (const [size, w, h] of [
      ['200,', 200, 200],
      [',300', 300, 300],
      ['250,100', 250, 100],
      ['!500,200', 200, 200],
      ['pct:30', 300, 300],
    ] as const) {
      const p = await fetchImage(`full/${size}/0/default.png`);
      expect([p.width, p.height], size).toEqual([w, h]);
      expectColour(p.at(Math.floor(w * 0.35), Math.floor(h * 0.75)), square[7]![3]!, size);
    }
    const region = await fetchImage('100,100,200,200/100,/0/default.png');
    expectColour(region.at(25, 75), square[2]![1]!, 'size_region');
    const up = await fetchImage('full/^1200,/0/default.jpg');
    expect([up.width, up.height]).toEqual([1200, 1200]);
    expectColour(up.at(60, 60), square[0]![0]!, 'size_up');
    expect(await status(`${id}/full/1200,/0/default.jpg`)).toBe(400);
  });

  it('rot_full_basic, rot_region_basic, rot_mirror, rot_mirror_180, rot_full_non90', async () => {
    const at = (p: Awaited<ReturnType<typeof fetchImage>>, row: number, col: number) => p.at(col * 100 + 50, row * 100 + 50);
    const r90 = await fetchImage('full/max/90/default.png');
    const r180 = await fetchImage('full/max/180/default.png');
    const r270 = await fetchImage('full/max/270/default.png');
    const mirror = await fetchImage('full/max/!0/default.png');
    const mirror180 = await fetchImage('full/max/!180/default.png');
    for (const [row, col] of [[0, 0], [2, 8], [6, 4]] as const) {
      expectColour(at(r90, col, 9 - row), square[row]![col]!, `90 ${row},${col}`);
      expectColour(at(r180, 9 - row, 9 - col), square[row]![col]!, `180 ${row},${col}`);
      expectColour(at(r270, 9 - col, row), square[row]![col]!, `270 ${row},${col}`);
      expectColour(at(mirror, row, 9 - col), square[row]![col]!, `!0 ${row},${col}`);
      expectColour(at(mirror180, 9 - row, col), square[row]![col]!, `!180 ${row},${col}`);
    }
    const region = await fetchImage('0,0,200,100/max/90/default.png');
    expect([region.width, region.height]).toEqual([100, 200]);
    expectColour(region.at(50, 50), square[0]![0]!, 'rot_region_basic');
    expectColour(region.at(50, 150), square[0]![1]!, 'rot_region_basic');
    expect(await status(`${id}/full/max/37/default.jpg`)).toBe(400);
  });

  it('quality_color, quality_grey, quality_bitonal', async () => {
    expectColour((await fetchImage('full/max/0/color.png')).at(450, 450), square[4]![4]!, 'color');
    const gray = await fetchImage('full/max/0/gray.png');
    const bitonal = await fetchImage('full/max/0/bitonal.png');
    for (let row = 0; row < 10; row += 3) {
      for (let col = 0; col < 10; col += 3) {
        const [r, g, b] = gray.at(col * 100 + 50, row * 100 + 50);
        expect(r === g && g === b).toBe(true);
        expect(bitonal.at(col * 100 + 50, row * 100 + 50).every((v) => v === 0 || v === 255)).toBe(true);
      }
    }
  });

  it('id_error_random, region/size/rot/quality/format_error_random, format_gif/tif/jp2/pdf', async () => {
    expect(await status('no-such-image/full/max/0/default.jpg')).toBe(404);
    expect(await status('b5d0cf0c-6d6e-4c4a-8e4e-0f3f0c1b2a3d/info.json')).toBe(404);
    for (const bad of ['xyz/max/0/default.jpg', 'full/xyz/0/default.jpg', 'full/max/xyz/default.jpg', 'full/max/0/xyz.jpg', 'full/max/0/default.xyz']) {
      expect(await status(`${id}/${bad}`), bad).toBe(400);
    }
    for (const format of ['gif', 'tif', 'jp2', 'pdf']) expect(await status(`${id}/full/max/0/default.${format}`)).toBe(400);
  });

  it('info_json, jsonld, baseurl_redirect', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/iiif/3/${id}/info.json`, headers: auth });
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(res.json()).toMatchObject({ id: `http://pim.test/iiif/3/${id}`, width: 1000, height: 1000, profile: 'level2' });
    expect(await status(id)).toBe(303);
  });
});
