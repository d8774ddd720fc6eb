import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSet, quadrantImage, uploadImage } from '../../test-support/iiif-images.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** What IIIF clients on other origins and other addresses need: ids on their address, CORS, open published sets. */
describe('IIIF for viewers elsewhere', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let setId: string;
  let imageId: string;

  const update = (id: string, changes: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: '/api/pim/documentimageset/update', headers: owner.auth, payload: { uuid: id, imageset: 'Letters', ...changes } });

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: undefined });
    owner = await signedInUser(t.app, { name: 'Owner' });
    other = await signedInUser(t.app, { name: 'Other' });
    setId = await createSet(t.app, owner.auth, 'Letters');
    imageId = await uploadImage(t.app, owner.auth, setId, await quadrantImage(80, 60), 'page 1.png');
  });
  afterAll(() => t.close());

  describe('ids on the address the client used', () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://pim.lan:8080', 'http://[::1]:8080']) {
      it(`builds every id from ${origin} when it is the address used`, async () => {
        const get = (url: string) => call(t.app, { method: 'GET', url, headers: { ...owner.auth, host: new URL(origin).host } });
        const service = `${origin}/iiif/3/${imageId}`;
        expect((await get(`/iiif/3/${imageId}/info.json`)).json.id).toBe(service);
        expect((await get(`/iiif/3/${imageId}`)).res.headers.location).toBe(`${service}/info.json`);

        const manifestId = `${origin}/api/pim/imageset/${setId}/manifest`;
        const manifest = (await get(`/api/pim/imageset/${setId}/manifest`)).json;
        expect(manifest.id).toBe(manifestId);
        const canvas = manifest.items[0];
        expect(canvas.id).toBe(`${origin}/api/pim/imageset/${setId}/canvas/${imageId}`);
        expect(canvas.items[0].items[0].body.service[0].id).toBe(service);
        expect(manifest.thumbnail[0].id.startsWith(`${service}/full/`)).toBe(true);
        expect((await get(`/api/pim/documentimage/${imageId}/manifest`)).json.id).toBe(`${origin}/api/pim/documentimage/${imageId}/manifest`);

        expect((await get(`/api/pim/documentimage/${imageId}`)).json).toMatchObject({
          uri: service,
          iiifManifestUri: `${origin}/api/pim/documentimage/${imageId}/manifest`,
        });
        expect((await get(`/api/pim/documentimageset/${setId}`)).json).toMatchObject({ remoteUri: manifestId });
      });
    }

    it('keeps PUBLIC_URL when it is set, whatever Host a request names', async () => {
      const pinned = await createTestApp({ PUBLIC_URL: 'https://pim.example.org' });
      try {
        const user = await signedInUser(pinned.app);
        const set = await createSet(pinned.app, user.auth, 'Pinned');
        const image = await uploadImage(pinned.app, user.auth, set, await quadrantImage(40, 30));
        const info = await call(pinned.app, { method: 'GET', url: `/iiif/3/${image}/info.json`, headers: { ...user.auth, host: '127.0.0.1:8080' } });
        expect(info.json.id).toBe(`https://pim.example.org/iiif/3/${image}`);
      } finally {
        await pinned.close();
      }
    });
  });

  describe('CORS', () => {
    const corsHeaders = (headers: Record<string, unknown>) => ({
      'access-control-allow-origin': headers['access-control-allow-origin'],
      'cross-origin-resource-policy': headers['cross-origin-resource-policy'],
    });
    const open = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };

    it('lets pages on any origin read the Image API and the manifests, errors included', async () => {
      const origin = { origin: 'https://viewer.example.net' };
      for (const url of [
        `/iiif/3/${imageId}/info.json`,
        `/iiif/3/${imageId}/full/max/0/default.jpg`,
        `/api/pim/imageset/${setId}/manifest`,
        `/api/pim/documentimage/${imageId}/manifest`,
        `/api/pim/documentimage/${imageId}/thumbnail`,
      ]) {
        const ok = await t.app.inject({ method: 'GET', url, headers: { ...owner.auth, ...origin } });
        expect(ok.statusCode, url).toBe(200);
        expect(corsHeaders(ok.headers), url).toEqual(open);
        const refused = await t.app.inject({ method: 'GET', url, headers: origin });
        expect(refused.statusCode, url).toBe(401);
        expect(corsHeaders(refused.headers), url).toEqual(open);
      }
    });

    it('answers the preflight of a request with an Authorization header', async () => {
      for (const url of [`/iiif/3/${imageId}/info.json`, `/iiif/3/${imageId}/0,0,10,10/max/0/default.png`, `/api/pim/imageset/${setId}/manifest`]) {
        const res = await t.app.inject({
          method: 'OPTIONS',
          url,
          headers: { origin: 'https://viewer.example.net', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
        expect(res.statusCode, url).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-methods']).toContain('GET');
        expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
      }
    });

    it('leaves the rest of the API to our own origin', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/pim/documentimageset/${setId}`, headers: { ...owner.auth, origin: 'https://viewer.example.net' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    });
  });

  describe('public and published sets for anonymous clients', () => {
    const anonymous = (url: string) => call(t.app, { method: 'GET', url });
    const urls = (set: string, image: string) => [
      `/iiif/3/${image}`,
      `/iiif/3/${image}/info.json`,
      `/iiif/3/${image}/full/max/0/default.jpg`,
      `/api/pim/imageset/${set}/manifest`,
      `/api/pim/documentimage/${image}/manifest`,
    ];

    it('opens the image service and the manifests of a set only when it is both public and published', async () => {
      const set = await createSet(t.app, owner.auth, 'Letters');
      const image = await uploadImage(t.app, owner.auth, set, await quadrantImage(40, 30));
      for (const [changes, status] of [
        [{ publicDocumentImageSet: false, publish: true }, 401],
        [{ publicDocumentImageSet: true, publish: false }, 401],
        [{ publicDocumentImageSet: true, publish: true }, 'ok'],
      ] as const) {
        expect((await update(set, changes)).status).toBe(200);
        for (const url of urls(set, image)) {
          const res = await anonymous(url);
          if (status === 'ok') expect(res.status, `${url} ${JSON.stringify(changes)}`).toBeLessThan(400);
          else expect(res.status, `${url} ${JSON.stringify(changes)}`).toBe(status);
        }
      }
      // The app's own calls still need a sign-in.
      expect((await anonymous(`/api/pim/documentimage/${image}/thumbnail`)).status).toBe(401);
      expect((await anonymous(`/api/pim/documentimage/${image}`)).status).toBe(401);
      expect((await anonymous(`/api/pim/imageset/${set}/get`)).status).toBe(401);
    });

    it('opens an image held by a private set too when a public, published set also holds it; a deleted set opens nothing', async () => {
      const open = await createSet(t.app, owner.auth, 'Letters');
      expect((await update(open, { publicDocumentImageSet: true, publish: true })).status).toBe(200);
      const added = await call(t.app, { method: 'PUT', url: `/api/pim/documentimageset/${open}/documentimages`, headers: owner.auth, payload: { uuid: imageId } });
      expect(added.status, added.res.body).toBeLessThan(400);
      expect((await anonymous(`/iiif/3/${imageId}/info.json`)).status).toBe(200);
      // The private set's own manifest stays closed.
      expect((await anonymous(`/api/pim/imageset/${setId}/manifest`)).status).toBe(401);
      expect((await call(t.app, { method: 'GET', url: `/api/pim/imageset/${setId}/manifest`, headers: other.auth })).status).toBe(404);

      expect((await call(t.app, { method: 'DELETE', url: `/api/pim/documentimageset/${open}`, headers: owner.auth })).status).toBeLessThan(400);
      expect((await anonymous(`/iiif/3/${imageId}/info.json`)).status).toBe(401);
      expect((await anonymous(`/api/pim/imageset/${open}/manifest`)).status).toBe(401);
    });
  });
});
