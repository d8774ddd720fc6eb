import type { DocumentImage, DocumentImageSet } from '@pim/contract';

/** An image set as the server presents it, for tests; override what the test is about. */
export function imageSetFixture(uuid: string, name: string, overrides: Partial<DocumentImageSet> = {}): DocumentImageSet {
  return {
    uuid,
    imageset: name,
    longName: null,
    prettyName: null,
    description: null,
    uri: `http://localhost/pim/imageset?uuid=${uuid}`,
    remoteUri: `http://localhost/api/pim/imageset/${uuid}/manifest`,
    elasticSearchIndex: null,
    tag: null,
    license: null,
    publicDocumentImageSet: false,
    publicDataSet: false,
    publish: false,
    owner: null,
    created: '2024-03-01T10:00:00.000Z',
    updated: '2024-03-02T10:00:00.000Z',
    deleted: null,
    ...overrides,
  };
}

/** A document image as the server presents it, for tests; override what the test is about. */
export function documentImageFixture(uuid: string, label: string, overrides: Partial<DocumentImage> = {}): DocumentImage {
  return {
    uuid,
    uri: `http://localhost/iiif/3/${uuid}`,
    iiifManifestUri: `http://localhost/api/pim/documentimage/${uuid}/manifest`,
    remoteuri: null,
    layoutXML: null,
    created: '2024-03-01T10:00:00.000Z',
    updated: '2024-03-01T10:00:00.000Z',
    height: 3000,
    width: 2000,
    broken: false,
    pagenumber: 1,
    pageorder: 0,
    levels: 5,
    types: ['PAGE'],
    deskewAngle: null,
    columnCount: null,
    linesCount: 30,
    tesseractText: null,
    confidence: null,
    languageBest: null,
    publish: false,
    eadId: null,
    label,
    uploader: { uuid: '11111111-1111-4111-8111-111111111111', name: 'Ada Researcher' },
    htrText: null,
    ...overrides,
  };
}
