import { describe, expect, it } from 'vitest';
import { normalisedSegments, recogniseUri } from './own-uris.js';

const id = '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';
const ID = id.toUpperCase();
/** Every character of the id percent-encoded, as a client may send it. */
const encodedId = [...id].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

describe('recognising URIs of our shape', () => {
  const recognise = (uri: string) => recogniseUri('/api/', uri);

  it('knows an image service, a set manifest and an image manifest', () => {
    expect(recognise(`https://pim.example.org/iiif/3/${id}`)).toEqual({ kind: 'image', imageId: id });
    expect(recognise(`https://pim.example.org/api/pim/imageset/${id}/manifest`)).toEqual({ kind: 'setManifest', setId: id });
    expect(recognise(`https://pim.example.org/api/pim/documentimage/${id}/manifest`)).toEqual({ kind: 'imageManifest', imageId: id });
  });

  it('takes an image request or info.json below an image service as that image', () => {
    expect(recognise(`https://pim.example.org/iiif/3/${id}/full/max/0/default.jpg`)).toEqual({ kind: 'image', imageId: id });
    expect(recognise(`https://pim.example.org/iiif/3/${id}/info.json`)).toEqual({ kind: 'image', imageId: id });
    expect(recognise(`https://pim.example.org/iiif/3/${id}x/info.json`)).toEqual({ kind: 'external' });
    expect(recognise(`https://pim.example.org/api/pim/imageset/${id}/manifest/more`)).toEqual({ kind: 'external' });
    expect(recognise(`https://pim.example.org/api/pim/imageset/${id}/manifest.json`)).toEqual({ kind: 'external' });
  });

  it('reads every spelling of the same path as that path', () => {
    const spellings = [
      `http://localhost:8080/iiif/3/${id}`,
      `http://127.0.0.1:8080/iiif/3/${id}`,
      `http://[::1]:8080/iiif/3/${id}`,
      `http://pim.lan/iiif/3/${id}`,
      `http://PIM.Example.org:80/iiif/3/${id}`,
      `https://pim.example.org:443/iiif/3/${ID}`,
      `https://pim.example.org//iiif/3/${id}`,
      `https://pim.example.org//iiif//3//${id}//`,
      `https://pim.example.org/iiif/3/${id}/`,
      `https://pim.example.org/iiif/3/${id}?x=1#y`,
      `https://pim.example.org/iiif/3/x/../${id}`,
      `https://pim.example.org/./iiif/./3/${id}`,
      `https://pim.example.org/iiif/3/x/%2e%2e/${id}`,
      `https://pim.example.org/%69iif/3/${id}`,
      `https://pim.example.org/IIIF/3/${id}`,
      `https://pim.example.org/iiif/3/${encodedId}`,
      `https://pim.example.org/iiif/3/${encodedId.toUpperCase()}`,
      `https://pim.example.org/iiif%2F3%2F${id}`,
      `https://pim.example.org/iiif%252F3%252F${id}`,
      `https://pim.example.org\\iiif\\3\\${id}`,
      `https://pim.example.org/pim-server/iiif/3/${id}`,
    ];
    for (const uri of spellings) expect(recognise(uri), uri).toEqual({ kind: 'image', imageId: id });
    expect(recognise(`http://127.0.0.1:8080//api//pim/imageset/${ID}/manifest/`)).toEqual({ kind: 'setManifest', setId: id });
    expect(recognise(`http://[::1]/api/pim/documentimage/${encodedId}/%6Danifest`)).toEqual({ kind: 'imageManifest', imageId: id });
  });

  it('leaves a malformed escape as it is and still reads the rest', () => {
    expect(recognise(`https://pim.example.org/%zz/../iiif/%33/${id}`)).toEqual({ kind: 'image', imageId: id });
    expect(normalisedSegments('/a/%E0%A4%A/b%2Fc')).toEqual(['a', '%e0%a4%a', 'b', 'c']);
  });

  it('takes other http(s) URLs as external', () => {
    for (const uri of [
      'https://pim.example.org/iiif/3/not-a-uuid',
      `https://pim.example.org/iiif/2/${id}`,
      `https://pim.example.org/pim/imageset/${id}/manifest`,
      `https://pim.example.org/?uri=/iiif/3/${id}`,
      `https://pim.example.org/#/iiif/3/${id}`,
      'https://iiif.example.net/manifests/ms-12/manifest.json',
    ]) {
      expect(recognise(uri), uri).toEqual({ kind: 'external' });
    }
  });

  it('refuses what is not an absolute http(s) URL', () => {
    for (const uri of ['urn:uuid:' + id, 'ftp://pim.example.org/x', '/iiif/3/' + id, 'not a uri', 'javascript:alert(1)']) {
      expect(recognise(uri), uri).toBeNull();
    }
  });

  it('follows another API base', () => {
    expect(recogniseUri('/rest/v1/', `http://host.test/pim-server/rest/v1/pim/imageset/${id}/manifest`)).toEqual({ kind: 'setManifest', setId: id });
    expect(recogniseUri('/rest/v1/', `http://host.test/api/pim/imageset/${id}/manifest`)).toEqual({ kind: 'external' });
  });
});
