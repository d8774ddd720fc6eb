import { describe, expect, it } from 'vitest';
import { readManifestCanvases, readManifestText, type ManifestReading } from './manifest-canvases';

/** The part of Node's file API these tests use; the web project has no Node types, and the app never reads files. */
interface FixtureFs {
  existsSync(path: string): boolean;
  readFileSync(path: string, encoding: 'utf8'): string;
  readdirSync(path: string, options: { recursive: true }): string[];
}
const nodeFs = 'node:fs';
const fs = (await import(/* @vite-ignore */ nodeFs)) as FixtureFs;

/**
 * The IIIF validator's fixtures in `shared/fixtures` beside the checkout (where
 * server/src/test-support/fixtures.ts finds them). When they are absent the tests that need them
 * skip, saying so.
 */
const testDir = (import.meta as ImportMeta & { dirname: string }).dirname;
const FIXTURES = `${testDir}/../../../../../shared/fixtures/iiif/validator_fixtures/`;
const haveFixtures = fs.existsSync(FIXTURES);
if (!haveFixtures) console.warn(`IIIF fixtures not found at ${FIXTURES}: the fixture tests are skipped.`);
const fixtureNames = haveFixtures ? fs.readdirSync(FIXTURES, { recursive: true }).filter((name) => name.endsWith('.json')) : [];

function readFixture(name: string): ManifestReading {
  return readManifestText(fs.readFileSync(FIXTURES + name, 'utf8'));
}

function manifestOf(reading: ManifestReading) {
  if (!reading.ok) throw new Error(`expected a manifest, got ${JSON.stringify(reading.problem)}`);
  return reading.manifest;
}

const SERVICE = 'http://localhost/iiif/3/55555555-5555-4555-8555-555555555555';

describe.skipIf(!haveFixtures)('readManifestCanvases on the IIIF validator fixtures', () => {
  it('reads the Presentation 2 manifests, upgraded: labels, metadata and the painted image of each canvas', () => {
    const first = manifestOf(readFixture('1/manifest.json'));
    expect(first.label).toBe('Test 1 Manifest: Minimum Required Fields');
    expect(first.canvases).toEqual([
      {
        id: 'http://iiif.io/api/presentation/2.0/example/fixtures/canvas/1/c1.json',
        label: 'Test 1 Canvas: 1',
        metadata: [],
        // These fixtures paint a plain PNG without an Image service: the image is known by its URL.
        imageServiceId: 'http://iiif.io/api/presentation/2.0/example/fixtures/resources/page1-full.png',
        infoUrl: null,
      },
    ]);
    const second = manifestOf(readFixture('2/manifest.json'));
    expect(second.metadata).toEqual([{ label: 'date', value: 'some date' }]);
    expect(second.canvases).toHaveLength(1);
  });

  it('reads Presentation 3 manifests: the Image service id of every canvas and its info.json', () => {
    const manifest = manifestOf(readFixture('3/full_example.json'));
    expect(manifest.label).toBe('Book 1');
    expect(manifest.canvases.map(({ label, imageServiceId, infoUrl }) => ({ label, imageServiceId, infoUrl }))).toEqual([
      { label: 'p. 1', imageServiceId: 'https://example.org/iiif/book1/page1', infoUrl: 'https://example.org/iiif/book1/page1/info.json' },
      { label: 'p. 2', imageServiceId: 'https://example.org/iiif/book1/page2', infoUrl: 'https://example.org/iiif/book1/page2/info.json' },
    ]);
    expect(manifest.metadata.length).toBeGreaterThan(0);
  });

  it('takes an Image API 2 service named by @id, a service given as one object, and the first image of a Choice', () => {
    expect(manifestOf(readFixture('3/version2image.json')).canvases[0]?.imageServiceId).toBe('https://example.org/iiif2/image1/identifier');
    expect(manifestOf(readFixture('3/broken_service.json')).canvases[0]?.imageServiceId).toBe('https://example.org/iiif/book1/page1');
    const choice = manifestOf(readFixture('3/anno_source.json')).canvases[0];
    expect(choice?.infoUrl).toMatch(/^https:\/\/iiif\.io\/api\/image\/3\.0\/example\/reference\/.+\/info\.json$/);
  });

  it('reads labels in any language: French alone, and the @none key', () => {
    expect(manifestOf(readFixture('3/extension_anno.json')).canvases[0]?.label).toBe("Page de Couverture du Le Scarabée D'or");
    expect(manifestOf(readFixture('3/rights_lang_issues.json')).canvases[0]?.label).toBe('Map of Brighthelmston');
  });

  it('names what a Collection, an AnnotationPage or an Annotation is instead of reading it as a manifest', () => {
    for (const name of ['collection.json', 'broken_collection.json', 'collection_of_canvases.json', 'collection_of_collections.json']) {
      expect(readFixture(`3/${name}`), name).toEqual({ ok: false, problem: { kind: 'notManifest', type: 'Collection' } });
    }
    for (const name of ['annoPage.json', 'annoPageInCollection.json', 'annotation_full.json', 'anno_pointselector.json']) {
      expect(readFixture(`3/${name}`), name).toEqual({ ok: false, problem: { kind: 'notManifest', type: 'AnnotationPage' } });
    }
    expect(readFixture('3/content_state.json')).toEqual({ ok: false, problem: { kind: 'notManifest', type: 'Annotation' } });
  });

  it('says so when the canvases paint only audio or video, and when a manifest has no canvases in items', () => {
    for (const name of ['simple_video.json', 'choice.json', 'broken_choice.json', 'multi_bodies.json', 'placeholderCanvas.json', 'accompanyingCanvas.json', 'broken_embedded_annos.json']) {
      expect(readFixture(`3/${name}`), name).toEqual({ ok: false, problem: { kind: 'noImages' } });
    }
    // A version 3 manifest in the old shape (sequences, canvases) has no items to read.
    expect(readFixture('3/old_format_label.json')).toEqual({ ok: false, problem: { kind: 'noCanvases' } });
  });

  it('answers every fixture with canvases that name an image, or with a problem; it never throws', () => {
    expect(fixtureNames.length).toBeGreaterThan(30);
    for (const name of fixtureNames) {
      const reading = readFixture(name);
      if (reading.ok) {
        expect(reading.manifest.canvases.length, name).toBeGreaterThan(0);
        for (const canvas of reading.manifest.canvases) expect(canvas.imageServiceId, name).toMatch(/^https?:\/\//);
      } else {
        expect(reading.problem.kind, name).toMatch(/^(notManifest|noCanvases|noImages)$/);
      }
    }
  });
});

describe('readManifestCanvases', () => {
  it('reads our own Presentation 3 manifest of a set: a canvas per image with its service', () => {
    const canvas = (n: number) => {
      const service = `${SERVICE}${n}`;
      const canvasId = `http://localhost/api/pim/imageset/s/manifest/canvas/${n}`;
      return {
        id: canvasId,
        type: 'Canvas',
        label: { none: [`f. ${n}r`] },
        width: 2000,
        height: 3000,
        thumbnail: [{ id: `${service}/full/100,150/0/default.jpg`, type: 'Image', service: [{ id: service, type: 'ImageService3', profile: 'level2' }] }],
        items: [
          {
            id: `${canvasId}/page`,
            type: 'AnnotationPage',
            items: [
              {
                id: `${canvasId}/page/image`,
                type: 'Annotation',
                motivation: 'painting',
                body: { id: `${service}/full/max/0/default.jpg`, type: 'Image', format: 'image/jpeg', width: 2000, height: 3000, service: [{ id: service, type: 'ImageService3', profile: 'level2' }] },
                target: canvasId,
              },
            ],
          },
        ],
      };
    };
    const manifest = manifestOf(
      readManifestCanvases({
        '@context': 'http://iiif.io/api/presentation/3/context.json',
        id: 'http://localhost/api/pim/imageset/s/manifest',
        type: 'Manifest',
        label: { none: ['Charters'] },
        metadata: [{ label: { en: ['Owner'] }, value: { none: ['Ada'] } }],
        items: [canvas(1), canvas(2)],
      }),
    );
    expect(manifest).toEqual({
      label: 'Charters',
      metadata: [{ label: 'Owner', value: 'Ada' }],
      canvases: [1, 2].map((n) => ({
        id: `http://localhost/api/pim/imageset/s/manifest/canvas/${n}`,
        label: `f. ${n}r`,
        metadata: [],
        imageServiceId: `${SERVICE}${n}`,
        infoUrl: `${SERVICE}${n}/info.json`,
      })),
    });
  });

  it('reads the Image service of a Presentation 2 manifest by its @id, without a trailing slash', () => {
    const manifest = manifestOf(
      readManifestCanvases({
        '@context': 'http://iiif.io/api/presentation/2/context.json',
        '@id': 'https://example.org/m.json',
        '@type': 'sc:Manifest',
        label: [{ '@value': 'Psalter', '@language': 'en' }],
        sequences: [
          {
            '@type': 'sc:Sequence',
            canvases: [
              {
                '@id': 'https://example.org/c1',
                '@type': 'sc:Canvas',
                label: 'f. 1r',
                metadata: [{ label: 'Hand', value: '<b>A</b>' }],
                images: [
                  {
                    '@type': 'oa:Annotation',
                    motivation: 'sc:painting',
                    on: 'https://example.org/c1',
                    resource: {
                      '@id': 'https://images.example.org/iiif/f1r/full/full/0/default.jpg',
                      '@type': 'dctypes:Image',
                      service: { '@context': 'http://iiif.io/api/image/2/context.json', '@id': 'https://images.example.org/iiif/f1r/', profile: 'http://iiif.io/api/image/2/level1.json' },
                    },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(manifest.label).toBe('Psalter');
    expect(manifest.canvases).toEqual([
      {
        id: 'https://example.org/c1',
        label: 'f. 1r',
        // IIIF's little HTML is read as text, not shown as tags.
        metadata: [{ label: 'Hand', value: 'A' }],
        imageServiceId: 'https://images.example.org/iiif/f1r',
        infoUrl: 'https://images.example.org/iiif/f1r/info.json',
      },
    ]);
  });

  it('reports a reply carrying a code or an error with a message, and a manifest without canvases', () => {
    expect(readManifestCanvases({ code: 500, message: 'boom' })).toEqual({ ok: false, problem: { kind: 'serverError', message: 'boom' } });
    expect(readManifestCanvases({ error: 'not_found', message: 'No such image set.', details: null })).toEqual({
      ok: false,
      problem: { kind: 'serverError', message: 'No such image set.' },
    });
    expect(readManifestCanvases({ type: 'Manifest', items: [] })).toEqual({ ok: false, problem: { kind: 'noCanvases' } });
    const noCanvases = { error: 'no_canvases', message: 'The image set Empty has no images, so it has no manifest: a manifest needs at least one canvas.' };
    expect(readManifestCanvases(noCanvases)).toEqual({ ok: false, problem: { kind: 'noCanvases' } });
    expect(readManifestCanvases({ '@context': 'http://iiif.io/api/presentation/2/context.json', '@type': 'sc:Manifest', '@id': 'x', sequences: [] })).toEqual({
      ok: false,
      problem: { kind: 'noCanvases' },
    });
  });

  it('reports a version 2 manifest the upgrade cannot read instead of throwing', () => {
    const reading = readManifestCanvases({
      '@context': 'http://iiif.io/api/presentation/2/context.json',
      '@id': 'https://example.org/m.json',
      '@type': 'sc:Manifest',
      // An image annotation without the `on` that version 2 requires.
      sequences: [{ canvases: [{ '@id': 'https://example.org/c1', '@type': 'sc:Canvas', images: [{ '@type': 'oa:Annotation', resource: { '@id': 'https://example.org/p.jpg' } }] }] }],
    });
    expect(reading).toMatchObject({ ok: false, problem: { kind: 'unreadable' } });
  });

  it('names garbage as not a manifest, and an answer that is not JSON as such', () => {
    expect(readManifestText('<html><body>Sign in</body></html>')).toEqual({ ok: false, problem: { kind: 'notJson' } });
    expect(readManifestText('{"type":"Manifest","items":[]}')).toEqual({ ok: false, problem: { kind: 'noCanvases' } });
    for (const json of [null, 'text', 42, [], {}, { hello: 'world' }]) {
      expect(readManifestCanvases(json)).toEqual({ ok: false, problem: { kind: 'notManifest', type: null } });
    }
    expect(readManifestCanvases({ '@context': 'http://iiif.io/api/presentation/2/context.json', '@id': 'c', '@type': 'sc:Collection', manifests: [] })).toEqual({
      ok: false,
      problem: { kind: 'notManifest', type: 'Collection' },
    });
  });

  it('leaves out images that have no web address, which could be neither shown nor stored', () => {
    const painted = (body: unknown) => ({ type: 'Manifest', items: [{ type: 'Canvas', items: [{ type: 'AnnotationPage', items: [{ type: 'Annotation', motivation: 'painting', body }] }] }] });
    expect(readManifestCanvases(painted({ id: 'urn:x-image:1', type: 'Image' }))).toEqual({ ok: false, problem: { kind: 'noImages' } });
    const withBadService = manifestOf(readManifestCanvases(painted({ id: 'https://example.org/p1.jpg', type: 'Image', service: [{ id: 'not a url', type: 'ImageService3' }] })));
    expect(withBadService.canvases[0]).toMatchObject({ imageServiceId: 'https://example.org/p1.jpg', infoUrl: null });
  });

});
