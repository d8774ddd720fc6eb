import { describe, expect, it } from 'vitest';
import { recogniseUri } from './own-uris.js';

const id = '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';

describe('recognising our own URIs', () => {
  const links = { publicUrl: 'https://pim.example.org', apiBase: '/api/' };

  it('knows an image service, a set manifest and an image manifest of this server', () => {
    expect(recogniseUri(links, `https://pim.example.org/iiif/3/${id}`)).toEqual({ kind: 'image', imageId: id });
    expect(recogniseUri(links, `https://pim.example.org/api/pim/imageset/${id}/manifest`)).toEqual({ kind: 'setManifest', setId: id });
    expect(recogniseUri(links, `https://pim.example.org/api/pim/documentimage/${id}/manifest`)).toEqual({ kind: 'imageManifest', imageId: id });
  });

  it('compares origin and path as a URL parser reads them: case of host and id, default port, query, a trailing slash', () => {
    expect(recogniseUri(links, `https://PIM.Example.org:443/iiif/3/${id.toUpperCase()}`)).toEqual({ kind: 'image', imageId: id });
    expect(recogniseUri(links, `https://pim.example.org/iiif/3/${id}/?x=1#y`)).toEqual({ kind: 'image', imageId: id });
    expect(recogniseUri(links, `https://pim.example.org/iiif/3/x/../${id}`)).toEqual({ kind: 'image', imageId: id });
  });

  it('takes an image request or info.json below an image service as that image', () => {
    expect(recogniseUri(links, `https://pim.example.org/iiif/3/${id}/full/max/0/default.jpg`)).toEqual({ kind: 'image', imageId: id });
    expect(recogniseUri(links, `https://pim.example.org/iiif/3/${id}/info.json`)).toEqual({ kind: 'image', imageId: id });
    expect(recogniseUri(links, `https://pim.example.org/iiif/3/${id}x/info.json`)).toEqual({ kind: 'external' });
    expect(recogniseUri(links, `https://pim.example.org/api/pim/imageset/${id}/manifest/more`)).toEqual({ kind: 'external' });
  });

  it('takes other http(s) URLs as external, also look-alikes of ours', () => {
    for (const uri of [
      `http://pim.example.org/iiif/3/${id}`,
      `https://pim.example.org.evil.test/iiif/3/${id}`,
      `https://pim.example.org:8443/iiif/3/${id}`,
      'https://pim.example.org/iiif/3/not-a-uuid',
      `https://pim.example.org/api/pim/imageset/${id}/manifest.json`,
      'https://iiif.example.net/manifests/ms-12/manifest.json',
    ]) {
      expect(recogniseUri(links, uri), uri).toEqual({ kind: 'external' });
    }
  });

  it('refuses what is not an absolute http(s) URL', () => {
    for (const uri of ['urn:uuid:' + id, 'ftp://pim.example.org/x', '/iiif/3/' + id, 'not a uri', 'javascript:alert(1)']) {
      expect(recogniseUri(links, uri), uri).toBeNull();
    }
  });

  it('follows a public URL with a path and another API base', () => {
    const behindProxy = { publicUrl: 'http://host.test/pim-server', apiBase: '/rest/v1/' };
    expect(recogniseUri(behindProxy, `http://host.test/pim-server/iiif/3/${id}`)).toEqual({ kind: 'image', imageId: id });
    expect(recogniseUri(behindProxy, `http://host.test/pim-server/rest/v1/pim/imageset/${id}/manifest`)).toEqual({ kind: 'setManifest', setId: id });
    expect(recogniseUri(behindProxy, `http://host.test/iiif/3/${id}`)).toEqual({ kind: 'external' });
  });
});
