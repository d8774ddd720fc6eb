import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { fixturePath, SHARED_FIXTURES } from '../../../test-support/fixtures.js';
import { descriptionOf, readIiifDocument } from './iiif-document.js';

const FIXTURES = fixturePath('iiif/validator_fixtures');
const read = (file: string) => readIiifDocument(JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')), `fixture:${file}`);

describe.skipIf(!fs.existsSync(SHARED_FIXTURES))('reading the IIIF validator fixtures for a harvest', () => {
  const harvestable = ['1/manifest.json', '2/manifest.json', ...['anno_source', 'broken_simple_image', 'extension_anno', 'full_example', 'navPlace',
    'point_selector', 'publicdomain', 'range_range', 'rights_lang_issues', 'rightsstatement_license', 'version2image', 'collection',
    'collection_of_collections'].map((name) => `3/${name}.json`)];

  it.each(harvestable)('%s gives images or members to harvest', (file) => {
    const doc = read(file);
    if (doc.kind === 'manifest') for (const canvas of doc.canvases) expect(canvas.imageUrls.length).toBeGreaterThan(0);
    else expect(doc.members.length).toBeGreaterThan(0);
  });

  it.each([
    ['3/annoPage.json', 'fixture:3/annoPage.json is not a IIIF Presentation manifest or collection: its type is AnnotationPage.'],
    ['3/content_state.json', 'fixture:3/content_state.json is not a IIIF Presentation manifest or collection: its type is Annotation.'],
    ['3/simple_video.json', 'shows an image (audio or video cannot be harvested).'],
    ['3/accompanyingCanvas.json', 'shows an image (audio or video cannot be harvested).'],
    ['3/old_format_label.json', 'The manifest https://example.com/manifest has no canvases, so there is nothing to harvest.'],
    ['3/collection_of_canvases.json', 'The collection https://example.org/iiif/collection/invalid lists no manifests or collections, so there is nothing to harvest.'],
  ])('%s is refused, saying why', (file, message) => {
    expect(() => read(file)).toThrow(AppError);
    expect(() => read(file)).toThrow(message);
  });

  it('takes the full size from an Image service of either version, then the image itself', () => {
    const v2 = read('3/version2image.json');
    expect(v2.kind === 'manifest' && v2.canvases[0]!.imageUrls).toEqual([
      'https://example.org/iiif2/image1/identifier/full/full/0/default.jpg',
      'https://example.org/iiif/book1/page1/full/full/0/default.jpg',
    ]);
    const v3 = read('3/full_example.json');
    expect(v3.kind === 'manifest' && v3.canvases.map((c) => [c.id, c.label, c.imageUrls])).toEqual([
      ['https://example.org/iiif/book1/canvas/p1', 'p. 1', ['https://example.org/iiif/book1/page1/full/max/0/default.jpg']],
      ['https://example.org/iiif/book1/canvas/p2', 'p. 2', ['https://example.org/iiif/book1/page2/full/max/0/default.jpg']],
    ]);
  });

  it('keeps a version 2 licence and attribution, which the upgrade may drop', () => {
    const doc = readIiifDocument(
      {
        '@context': 'http://iiif.io/api/presentation/2/context.json',
        '@id': 'https://example.org/m',
        '@type': 'sc:Manifest',
        label: 'Psalter',
        description: 'A <b>psalter</b> &amp; hours',
        attribution: 'Provided by the library',
        license: 'https://example.org/licence',
        sequences: [{ '@type': 'sc:Sequence', canvases: [{ '@id': 'https://example.org/c1', '@type': 'sc:Canvas', images: [{ '@type': 'oa:Annotation', motivation: 'sc:painting', on: 'https://example.org/c1', resource: { '@id': 'https://example.org/i1.jpg', '@type': 'dctypes:Image' } }] }] }],
      },
      'https://example.org/m',
    );
    expect(descriptionOf(doc.source)).toBe('A psalter & hours\n\nAttribution: Provided by the library\nRights: https://example.org/licence');
  });
});
