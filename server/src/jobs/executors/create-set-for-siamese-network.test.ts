import type { PimFieldSet } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageServiceUrl, setManifestUrl } from '../../modules/iiif/links.js';
import { uploadImage } from '../../test-support/iiif-images.js';
import { runExecutor } from '../../test-support/job-context.js';
import { createFieldSet, field, saveMetadata } from '../../test-support/metadata.js';
import { createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { createSet, testImage } from '../../test-support/upload-files.js';
import { createSetForSiameseNetwork, subsetName } from './create-set-for-siamese-network.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

describe('CreateSetForSiameseNetwork', () => {
  let t: TestApp;
  let owner: User;
  let fieldSet: PimFieldSet;
  let setId: string;
  const images: Record<string, string> = {};
  const fieldId = (name: string) => fieldSet.fields.find((f) => f.name === name)!.id;

  /** The set's sub-sets by name, with the labels of their images in order. */
  async function subsets(): Promise<Record<string, string[]>> {
    const tree = await t.app.services.imageSetHierarchy.get(owner.principal, setId);
    const out: Record<string, string[]> = {};
    for (const subset of tree.subsets) {
      out[subset.name] = (await t.app.services.imageSetHierarchy.get(owner.principal, subset.id)).images.map((i) => i.name);
    }
    return out;
  }

  const run = (fields: string[], ownerId = owner.userId) =>
    runExecutor(t.app, createSetForSiameseNetwork, { type: 'CreateSetForSiameseNetwork', settings: { imageSet: setId, pimFieldUuids: fields }, ownerId });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Annotator' });
    setId = await createSet(t.app, owner.auth, 'Charters');
    for (const label of ['a', 'b', 'c', 'd']) images[label] = await uploadImage(t.app, owner.auth, setId, await testImage('png', 30, 20), `${label}.png`);
    fieldSet = await createFieldSet(t.app, owner.auth, {
      name: 'Palaeography',
      fields: [field('Script', 'script'), field('Scribe', 'pimuser'), field('Notes', 'notes')],
    });
    const annotate = async (label: string, values: Record<string, string>) => {
      const uri = imageServiceUrl(t.links, images[label]!);
      const res = await saveMetadata(t.app, owner.auth, fieldSet, { uri, datasetUri: setManifestUrl(t.links, setId), ...values });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    };
    await annotate('a', { Script: 'Textualis', Scribe: owner.userId });
    await annotate('b', { Script: 'Textualis' });
    await annotate('c', { Script: 'Cursiva', Scribe: owner.userId, Notes: 'only this one' });
  });
  afterAll(() => t.close());

  it('makes a sub-set per value of each field with the images that have it, in the set order, and counts those without', async () => {
    const result = await run([fieldId('Script'), fieldId('Scribe')]);

    expect(await subsets()).toEqual({
      'Script: Textualis': ['a', 'b'],
      'Scribe: Annotator': ['a', 'c'],
      'Script: Cursiva': ['c'],
    });
    expect(result.notes).toMatchObject({
      images: 4,
      subsetsCreated: 3,
      subsetsReused: 0,
      imagesPlaced: 5,
      fields: [
        { field: fieldId('Script'), label: 'Script', values: 2, imagesWithoutValue: 1 },
        { field: fieldId('Scribe'), label: 'Scribe', values: 1, imagesWithoutValue: 2 },
      ],
    });
    expect(result.progress.at(-1)).toMatchObject({ done: 4, total: 4 });
  });

  it('finds its sub-sets again when run again, adding only images not in them yet', async () => {
    const uri = imageServiceUrl(t.links, images.d!);
    await saveMetadata(t.app, owner.auth, fieldSet, { uri, datasetUri: setManifestUrl(t.links, setId), Script: 'Cursiva' });

    const result = await run([fieldId('Script'), fieldId('Scribe')]);

    expect(await subsets()).toEqual({
      'Script: Textualis': ['a', 'b'],
      'Scribe: Annotator': ['a', 'c'],
      'Script: Cursiva': ['c', 'd'],
    });
    expect(result.notes).toMatchObject({ subsetsCreated: 0, subsetsReused: 3, imagesPlaced: 1 });
  });

  it('refuses fields its owner may not see and sets they may not change', async () => {
    const other = await signedInUser(t.app);
    await expect(run([fieldId('Script')], other.userId)).rejects.toThrow(`There is no image set with id ${setId}.`);
    const theirSet = await createSet(t.app, other.auth, 'Theirs');
    await expect(
      runExecutor(t.app, createSetForSiameseNetwork, {
        type: 'CreateSetForSiameseNetwork',
        settings: { imageSet: theirSet, pimFieldUuids: [fieldId('Script')] },
        ownerId: other.userId,
      }),
    ).rejects.toThrow(`There is no field with id ${fieldId('Script')}`);
    await expect(run([])).rejects.toThrow('Choose the metadata fields whose values make the sub-sets.');
  });

  it('names a sub-set by the field and its value on one line, within the longest set name', () => {
    expect(subsetName(' Script ', ' Textualis\nformata ')).toBe('Script: Textualis formata');
    const long = subsetName('Notes', '𝔄'.repeat(300));
    expect(long.length).toBeLessThanOrEqual(255);
    expect(long.endsWith('𝔄')).toBe(true);
  });
});
