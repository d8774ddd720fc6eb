import { describe, expect, it } from 'vitest';
import { readManifest } from './manifest';

const SERVICE = 'http://localhost/iiif/3/55555555-5555-4555-8555-555555555555';

describe('readManifest', () => {
  it('finds the Image API service of the first canvas of a Presentation 3 manifest', () => {
    const manifest = {
      type: 'Manifest',
      items: [
        {
          type: 'Canvas',
          items: [{ type: 'AnnotationPage', items: [{ type: 'Annotation', body: { id: `${SERVICE}/full/max/0/default.jpg`, service: [{ id: SERVICE, type: 'ImageService3' }] } }] }],
        },
      ],
    };
    expect(readManifest(manifest)).toEqual({ kind: 'image', infoUrl: `${SERVICE}/info.json` });
  });

  it('reads Presentation 2 manifests of other servers', () => {
    const manifest = { sequences: [{ canvases: [{ images: [{ resource: { service: { '@id': `${SERVICE}/` } } }] }] }] };
    expect(readManifest(manifest)).toEqual({ kind: 'image', infoUrl: `${SERVICE}/info.json` });
  });

  it('reports a manifest without canvases, and a reply carrying code and message', () => {
    expect(readManifest({ type: 'Manifest', items: [] })).toEqual({ kind: 'noCanvases' });
    expect(readManifest({ code: 500, message: 'boom' })).toEqual({ kind: 'serverError', message: 'boom' });
    expect(readManifest({ items: [{ type: 'Canvas', items: [] }] })).toEqual({ kind: 'noImage' });
  });
});
