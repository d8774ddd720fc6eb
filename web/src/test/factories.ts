import type { DocumentImageSet } from '@pim/contract';

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
