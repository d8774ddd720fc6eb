import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLUE, GREEN, RED, YELLOW, type Rgb, createSet, near, pixelsOf, quadrantImage, uploadImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

/**
 * How to store an upright image so that a viewer applying EXIF orientation n shows it upright
 * again: the inverse of what each orientation asks the viewer to do (sharp mirrors before it turns).
 */
const STORE_FOR: Record<number, (img: Sharp) => Sharp> = {
  1: (img) => img,
  2: (img) => img.flop(),
  3: (img) => img.rotate(180),
  4: (img) => img.flip(),
  5: (img) => img.flop().rotate(270),
  6: (img) => img.rotate(270),
  7: (img) => img.flop().rotate(90),
  8: (img) => img.rotate(90),
};

/** A JPEG whose pixels are stored turned or mirrored, with the EXIF orientation that undoes it. */
async function orientedJpeg(upright: Buffer, orientation: number): Promise<Buffer> {
  const stored = await STORE_FOR[orientation]!(sharp(upright)).png().toBuffer();
  return sharp(stored).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).withMetadata({ orientation }).toBuffer();
}

describe('IIIF images of photos with an EXIF orientation', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let setId: string;
  let id: string;
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.auth });
  const image = async (imageId: string, request: string) => {
    const res = await get(`/iiif/3/${imageId}/${request}`);
    expect(res.statusCode, res.body).toBe(200);
    return pixelsOf(res.rawPayload);
  };
  const corners = (p: Awaited<ReturnType<typeof pixelsOf>>) => [
    p.at(2, 2),
    p.at(p.width - 3, 2),
    p.at(2, p.height - 3),
    p.at(p.width - 3, p.height - 3),
  ];
  const expectColours = (actual: Rgb[], expected: Rgb[]) =>
    actual.forEach((c, i) => expect(near(c, expected[i]!), `pixel ${i}: ${c} should be ${expected[i]}`).toBe(true));

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Photographer' });
    setId = await createSet(t.app, owner.auth, 'Phone photos');
    const sideways = await orientedJpeg(await quadrantImage(400, 300), 6);
    const raw = await sharp(sideways).metadata();
    expect([raw.width, raw.height, raw.orientation]).toEqual([300, 400, 6]);
    id = await uploadImage(t.app, owner.auth, setId, sideways, 'sideways.jpg');
  });
  afterAll(() => t.close());

  it('records the upright width and height of the image', async () => {
    const res = await call(t.app, { method: 'GET', url: `/api/pim/documentimage/${id}`, headers: owner.auth });
    expect(res.status).toBe(200);
    expect([res.json.width, res.json.height]).toEqual([400, 300]);
  });

  it('describes the upright image in info.json and the manifest', async () => {
    const info = (await get(`/iiif/3/${id}/info.json`)).json();
    expect([info.width, info.height]).toEqual([400, 300]);
    expect(info.sizes).toEqual([
      { width: 100, height: 75 },
      { width: 200, height: 150 },
    ]);
    const manifest = (await get(`/api/pim/documentimage/${id}/manifest`)).json();
    expect([manifest.items[0].width, manifest.items[0].height]).toEqual([400, 300]);
  });

  it('cuts regions, scales and rotates the upright pixels', async () => {
    const full = await image(id, 'full/max/0/default.png');
    expect([full.width, full.height]).toEqual([400, 300]);
    expectColours(corners(full), [RED, GREEN, BLUE, YELLOW]);

    const topRight = await image(id, '200,0,200,150/100,/0/default.png');
    expect([topRight.width, topRight.height]).toEqual([100, 75]);
    expectColours(corners(topRight), [GREEN, GREEN, GREEN, GREEN]);

    const bottomLeft = await image(id, 'pct:0,50,50,50/max/0/default.jpg');
    expect([bottomLeft.width, bottomLeft.height]).toEqual([200, 150]);
    expectColours(corners(bottomLeft), [BLUE, BLUE, BLUE, BLUE]);

    const turned = await image(id, 'full/200,/90/default.png');
    expect([turned.width, turned.height]).toEqual([150, 200]);
    expectColours(corners(turned), [BLUE, RED, YELLOW, GREEN]);
  });

  it('makes a thumbnail with the upright aspect', async () => {
    const res = await get(`/api/pim/documentimage/${id}/thumbnail`);
    expect(res.statusCode).toBe(200);
    const p = await pixelsOf(res.rawPayload);
    expect([p.width, p.height]).toEqual([283, 212]);
    expectColours(corners(p), [RED, GREEN, BLUE, YELLOW]);
  });

  it.each([1, 2, 3, 4, 5, 7, 8])('shows an image with orientation %i upright', async (orientation) => {
    const upload = await orientedJpeg(await quadrantImage(80, 60), orientation);
    const oriented = await uploadImage(t.app, owner.auth, setId, upload, `orientation-${orientation}.jpg`);
    const info = (await get(`/iiif/3/${oriented}/info.json`)).json();
    expect([info.width, info.height]).toEqual([80, 60]);
    const full = await image(oriented, 'full/max/0/default.png');
    expect([full.width, full.height]).toEqual([80, 60]);
    expectColours(corners(full), [RED, GREEN, BLUE, YELLOW]);
  });

  it('builds the tile pyramid of a large sideways image from the upright pixels', async () => {
    const sideways = await orientedJpeg(await quadrantImage(4200, 2000), 6);
    const large = await uploadImage(t.app, owner.auth, setId, sideways, 'large sideways.jpg');
    const info = (await get(`/iiif/3/${large}/info.json`)).json();
    expect([info.width, info.height]).toEqual([4200, 2000]);

    const pyramidSha = await t.app.services.iiif.ensurePyramid(large);
    expect(pyramidSha).toMatch(/^[0-9a-f]{64}$/);
    const pyramid = await sharp(t.app.services.files.pathOf(pyramidSha!)).metadata();
    expect([pyramid.width, pyramid.height]).toEqual([4200, 2000]);
    // Upright pixels with orientation 1 (TIFF always has the tag), so nothing turns them twice.
    expect(pyramid.orientation ?? 1).toBe(1);

    const tile = await image(large, '2048,0,2048,1000/512,/0/default.jpg');
    expect([tile.width, tile.height]).toEqual([512, 250]);
    expectColours([tile.at(2, 2), tile.at(509, 2), tile.at(509, 247)], [RED, GREEN, GREEN]);

    const scaled = await image(large, 'full/525,/0/default.png');
    expect([scaled.width, scaled.height]).toEqual([525, 250]);
    expectColours(corners(scaled), [RED, GREEN, BLUE, YELLOW]);

    const lowerRight = await image(large, '2200,1100,2000,900/256,/0/default.jpg');
    expectColours(corners(lowerRight), [YELLOW, YELLOW, YELLOW, YELLOW]);
  });
});
