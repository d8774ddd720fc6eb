import { randomUUID } from 'node:crypto';
import { METADATA_FIELD_TYPES, newPimFieldSet, type PimFieldSet } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldSet, field } from '../../test-support/metadata.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';

type User = Awaited<ReturnType<typeof signedInUser>>;

describe('field sets API', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let admin: User;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app, { name: 'Owner' });
    other = await signedInUser(t.app, { name: 'Other' });
    admin = await signedInUser(t.app, { admin: true, name: 'Admin' });
  });
  afterAll(() => t.close());

  const get = (who: User | null, url: string) => call(t.app, { method: 'GET', url: `/api/pim/${url}`, headers: who?.auth ?? {} });
  const update = (who: User, uuid: string, body: object) =>
    call(t.app, { method: 'POST', url: `/api/pim/pimfieldset/${uuid}/update`, headers: who.auth, payload: body });
  const remove = (who: User, uuid: string) => call(t.app, { method: 'DELETE', url: `/api/pim/pimfieldset/${uuid}`, headers: who.auth });
  const create = (who: User | null, body: object) =>
    call(t.app, { method: 'POST', url: '/api/pim/pimfieldset/create', headers: who?.auth ?? {}, payload: body });
  /** The set as the edit form sends it back: every field with its uuid, select values with theirs. */
  const asSent = (set: PimFieldSet) => ({
    uuid: set.uuid,
    name: set.name,
    publicPimFieldSet: set.publicPimFieldSet,
    fields: set.fields.map((f) => ({ ...f, possibleValues: f.possibleValues.map((v) => ({ uuid: v.uuid, value: v.value })) })),
  });

  it('creates a set owned by the caller with the fixed fields first, fields and select values in order', async () => {
    const set = await createFieldSet(t.app, owner.auth, {
      name: '  Charters  ',
      fields: [
        field('script', 'script', { label: 'Script type', description: 'The hand', copyValue: true }),
        field('condition', 'select', { possibleValues: [{ value: 'good' }, { value: 'poor' }, { value: 'lost' }] }),
        field('notes', 'notes', { possibleValues: [{ value: 'ignored: not a select field' }] }),
      ],
    });
    expect(set).toMatchObject({ name: 'Charters', publicPimFieldSet: false, owner: { uuid: owner.userId, name: 'Owner' }, editable: true });
    expect(set.fields.map((f) => [f.label, f.name, f.type])).toEqual([
      ['uri', 'uri', 'text'],
      ['Dataset uri', 'datasetUri', 'text'],
      ['Script type', 'script', 'script'],
      ['condition', 'condition', 'select'],
      ['notes', 'notes', 'notes'],
    ]);
    for (const f of set.fields) expect(f.id).toBe(f.uuid);
    expect(set.fields[2]).toMatchObject({ description: 'The hand', copyValue: true, possibleValues: [] });
    expect(set.fields[3]!.possibleValues.map((v) => v.value)).toEqual(['good', 'poor', 'lost']);
    expect(set.fields[3]!.possibleValues[0]).toEqual({ uuid: expect.any(String), value: 'good', created: expect.any(String) });
    expect(set.fields[4]!.possibleValues).toEqual([]);
    expect((await get(owner, `pimfieldset/${set.uuid}`)).json).toEqual(set);
  });

  it('lists the sets a caller may see by name: public and own ones, all for admins; onlyOwnData the own ones', async () => {
    const mine = await createFieldSet(t.app, other.auth, { name: 'list b own private' });
    const pub = await createFieldSet(t.app, owner.auth, { name: 'List A public', publicPimFieldSet: true, fields: [field('x', 'text')] });
    const hidden = await createFieldSet(t.app, owner.auth, { name: 'list c private' });
    const listed = async (who: User, onlyOwnData: boolean) =>
      ((await get(who, `pimfieldset/?onlyOwnData=${onlyOwnData}`)).json as { uuid: string; name: string }[]).filter((s) =>
        s.name.toLowerCase().startsWith('list '),
      );
    expect((await listed(other, false)).map((s) => s.name)).toEqual(['List A public', 'list b own private']);
    expect((await listed(other, true)).map((s) => s.uuid)).toEqual([mine.uuid]);
    expect((await listed(admin, false)).map((s) => s.uuid)).toEqual([pub.uuid, mine.uuid, hidden.uuid]);
    expect(await listed(admin, true)).toEqual([]);
    const row = (await listed(other, false))[0];
    expect(row).toEqual({
      uuid: pub.uuid,
      name: 'List A public',
      publicPimFieldSet: true,
      owner: { uuid: owner.userId, name: 'Owner' },
      editable: false,
      created: pub.created,
      updated: pub.updated,
      fieldCount: 3,
    });
    // Without the trailing slash too.
    expect((await get(other, 'pimfieldset')).json).toEqual((await get(other, 'pimfieldset/')).json);
    expect((await get(null, 'pimfieldset/')).status).toBe(401);
  });

  it('hides a private set from others (404), shows a public one read-only (403 on change), lets admins change both', async () => {
    const priv = await createFieldSet(t.app, owner.auth, { name: 'Private' });
    const pub = await createFieldSet(t.app, owner.auth, { name: 'Public', publicPimFieldSet: true });
    const missing = await get(other, `pimfieldset/${priv.uuid}`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`There is no field set with id ${priv.uuid}.`);
    expect((await update(other, priv.uuid, asSent(priv))).status).toBe(404);
    expect((await remove(other, priv.uuid)).status).toBe(404);

    const seen = await get(other, `pimfieldset/${pub.uuid}`);
    expect(seen.status).toBe(200);
    expect(seen.json.editable).toBe(false);
    const refused = await update(other, pub.uuid, { ...asSent(pub), name: 'Taken over' });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('Only the owner of this field set or an administrator may change it.');
    expect((await remove(other, pub.uuid)).status).toBe(403);
    expect((await get(owner, `pimfieldset/${pub.uuid}`)).json.name).toBe('Public');

    expect((await get(admin, `pimfieldset/${priv.uuid}`)).json.editable).toBe(true);
    const renamed = await update(admin, priv.uuid, { ...asSent(priv), name: 'Renamed by admin' });
    expect(renamed.status).toBe(200);
    expect(renamed.json.owner).toEqual({ uuid: owner.userId, name: 'Owner' });
    expect((await remove(admin, pub.uuid)).status).toBe(204);
    expect((await get(owner, `pimfieldset/${pub.uuid}`)).status).toBe(404);
  });

  it('updates by matching fields and select values by uuid: kept ones keep their ids, new ones get new ids, order follows the request', async () => {
    const set = await createFieldSet(t.app, owner.auth, {
      name: 'Evolving',
      fields: [field('a', 'text'), field('b', 'select', { possibleValues: [{ value: 'one' }, { value: 'two' }] }), field('c', 'date')],
    });
    const [uri, dataset, a, b, c] = set.fields as [PimFieldSet['fields'][number], ...PimFieldSet['fields']];
    const sent = asSent(set).fields;
    const res = await update(owner, set.uuid, {
      ...asSent(set),
      publicPimFieldSet: true,
      fields: [
        // The fixed fields without their uuids keep them all the same.
        { ...sent[0], uuid: undefined },
        { ...sent[1], uuid: undefined },
        { ...sent[4], label: 'C moved' },
        { ...sent[3], possibleValues: [{ uuid: b!.possibleValues[1]!.uuid, value: 'two' }, { value: 'three' }] },
        field('d', 'checkbox'),
      ],
    });
    expect(res.status).toBe(200);
    const saved = res.json as PimFieldSet;
    expect(saved.publicPimFieldSet).toBe(true);
    expect(saved.fields.map((f) => f.name)).toEqual(['uri', 'datasetUri', 'c', 'b', 'd']);
    expect(saved.fields.slice(0, 4).map((f) => f.uuid)).toEqual([uri!.uuid, dataset!.uuid, c!.uuid, b!.uuid]);
    expect(saved.fields[2]!.label).toBe('C moved');
    expect(saved.fields.map((f) => f.uuid)).not.toContain(a!.uuid);
    expect(saved.fields[4]!.uuid).not.toBe(a!.uuid);
    expect(saved.fields[3]!.possibleValues.map((v) => v.value)).toEqual(['two', 'three']);
    expect(saved.fields[3]!.possibleValues[0]).toEqual(b!.possibleValues[1]);
    expect(saved.fields[3]!.possibleValues[1]!.uuid).not.toBe(b!.possibleValues[0]!.uuid);
    expect(Date.parse(saved.updated)).toBeGreaterThanOrEqual(Date.parse(set.updated));
    expect((await get(owner, `pimfieldset/${set.uuid}`)).json).toEqual(saved);

    // A select field turned into text keeps no values.
    const asText = asSent(saved);
    asText.fields[3] = { ...asText.fields[3]!, type: 'text' };
    const text = (await update(owner, set.uuid, asText)).json as PimFieldSet;
    expect(text.fields[3]).toMatchObject({ uuid: b!.uuid, type: 'text', possibleValues: [] });
  });

  it('refuses uuids that are not of this set or field, and a set id in the body that is not the one in the address', async () => {
    const set = await createFieldSet(t.app, owner.auth, { name: 'Strict', fields: [field('s', 'select', { possibleValues: [{ value: 'x' }] })] });
    const foreign = await createFieldSet(t.app, owner.auth, { name: 'Foreign', fields: [field('f', 'select', { possibleValues: [{ value: 'y' }] })] });
    const body = asSent(set);
    const cases: [object, string][] = [
      [{ ...body, fields: [...body.fields, { ...field('n', 'text'), uuid: foreign.fields[2]!.uuid }] }, `Field 4 ('n') has the id ${foreign.fields[2]!.uuid}, which is not a field of this set.`],
      [{ ...body, fields: [...body.fields, { ...field('n', 'text'), uuid: randomUUID() }] }, 'which is not a field of this set. Reload the set and try again.'],
      [{ ...body, fields: [...body.fields, { ...body.fields[2]!, name: 'again' }] }, `The field id ${set.fields[2]!.uuid} is sent twice`],
      [{ ...body, fields: [body.fields[1]!, body.fields[0]!, body.fields[2]!].map((f, i) => (i < 2 ? { ...f, ...newPimFieldSet().fields[i] } : f)) }, "Field 1 must be the set's own 'uri' field"],
      [
        { ...body, fields: [body.fields[0], body.fields[1], { ...body.fields[2]!, possibleValues: [{ uuid: foreign.fields[2]!.possibleValues[0]!.uuid, value: 'y' }] }] },
        `The value 'y' of the select field 's' has the id ${foreign.fields[2]!.possibleValues[0]!.uuid}, which is not a value of that field.`,
      ],
      [{ ...body, uuid: foreign.uuid }, `The body is about field set ${foreign.uuid} but the address about ${set.uuid}.`],
    ];
    for (const [payload, message] of cases) {
      const res = await update(owner, set.uuid, payload);
      expect(res.status, message).toBe(400);
      expect(res.json.message).toContain(message);
    }
    expect((await get(owner, `pimfieldset/${set.uuid}`)).json).toEqual(set);
    expect((await get(owner, `pimfieldset/${foreign.uuid}`)).json).toEqual(foreign);
    expect((await update(owner, randomUUID(), { ...body, uuid: undefined })).status).toBe(404);
  });

  it('validates a set with the contract: 255 characters, fixed first fields, unique names, select values, types', async () => {
    const fixed = newPimFieldSet().fields;
    const long = 'x'.repeat(256);
    const set = (fields: unknown[], name = 'Checked') => ({ name, publicPimFieldSet: false, fields: [...fixed, ...fields] });
    const cases: [object, string][] = [
      [set([], long), `A field set name can be at most 255 characters long.`],
      [set([], '   '), 'Give the field set a name.'],
      [set([field('a', 'text', { label: long })]), 'A field label can be at most 255 characters long.'],
      [set([field(long, 'text')]), 'A field name can be at most 255 characters long.'],
      [set([field('a', 'text', { description: long })]), 'A field description can be at most 255 characters long.'],
      [set([field('a', 'select', { possibleValues: [{ value: long }] })]), 'A value of a select field can be at most 255 characters long.'],
      [set([field('a', 'select')]), "The select field 'a' needs at least one value."],
      [set([field('a', 'select', { possibleValues: [{ value: 'v' }, { value: 'v' }] })]), "The select field 'a' lists 'v' twice."],
      [set([field('a', 'text'), field('A', 'date')]), "Two fields are named 'A': field names must be unique in a set."],
      [set(Array.from({ length: 199 }, (_, i) => field(`f${i}`, 'text'))), 'A field set can have at most 200 fields.'],
      [set([field('a', 'select', { possibleValues: Array.from({ length: 501 }, (_, i) => ({ value: `v${i}` })) })]), 'A select field can have at most 500 values.'],
      [set([field('a', 'colour' as never)]), 'The type must be one of checkbox, date, documentimage, numeric, pimuser, script, select, text, notes.'],
      [{ ...set([]), fields: [fixed[0]] }, "Field 2 must be 'datasetUri' (label 'Dataset uri', type text): the first two fields of a set are fixed."],
      [{ ...set([]), fields: [{ ...fixed[0], label: 'Image' }, fixed[1]] }, "Field 1 must be 'uri' (label 'uri', type text)"],
      [{ ...set([]), fields: [fixed[0], { ...fixed[1], type: 'date' }] }, "Field 2 must be 'datasetUri'"],
    ];
    const before = (await get(admin, 'pimfieldset/')).json;
    for (const [payload, message] of cases) {
      const res = await create(owner, payload);
      expect(res.status, message).toBe(400);
      expect(res.json.message).toContain(message);
    }
    expect((await get(admin, 'pimfieldset/')).json).toEqual(before);

    const limit = 'y'.repeat(255);
    const atLimit = await create(owner, set([field(limit, 'select', { label: limit, description: limit, possibleValues: [{ value: limit }] })], limit));
    expect(atLimit.status).toBe(200);
    expect(atLimit.json.fields[2]).toMatchObject({ name: limit, label: limit, description: limit, possibleValues: [{ value: limit }] });

    // The same rules on update, and the fixed fields cannot be removed there either.
    const existing = atLimit.json as PimFieldSet;
    const refused = await update(owner, existing.uuid, { ...asSent(existing), fields: asSent(existing).fields.slice(1) });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain("Field 1 must be 'uri'");
    expect((await get(owner, `pimfieldset/${existing.uuid}`)).json).toEqual(existing);
    expect((await create(null, set([]))).status).toBe(401);
  });

  it('offers visible sets to the picker by name, a page at a time, honouring onlyOwnData', async () => {
    const names = ['Pick Gamma', 'pick alpha', 'PICK beta'];
    for (const name of names) await createFieldSet(t.app, owner.auth, { name, publicPimFieldSet: name !== 'PICK beta' });
    await createFieldSet(t.app, other.auth, { name: 'pick own' });
    const page = (who: User, query: string) => get(who, `pimfieldset/autocomplete?${query}`);
    const first = await page(other, 'filter=pick');
    expect(first.json.pageSize).toBe(20);
    expect(first.json.results.map((s: { name: string }) => s.name)).toEqual(['pick alpha', 'Pick Gamma', 'pick own']);
    expect(first.json.results[0]).toEqual({ uuid: expect.any(String), name: 'pick alpha' });
    expect((await page(other, 'filter=PICK&skip=2')).json.results.map((s: { name: string }) => s.name)).toEqual(['pick own']);
    expect((await page(other, 'filter=pick&onlyOwnData=true')).json.results.map((s: { name: string }) => s.name)).toEqual(['pick own']);
    expect((await page(owner, 'filter=pick b')).json.results.map((s: { name: string }) => s.name)).toEqual(['PICK beta']);
  });

  it('offers the fields of a visible set to the picker, filtered on label or name, in the set order', async () => {
    const set = await createFieldSet(t.app, owner.auth, {
      name: 'Fields picker',
      fields: [field('scriptType', 'script', { label: 'Hand' }), field('dated', 'date', { label: 'Script date' }), field('other', 'text')],
    });
    const res = await get(owner, `pimfieldset/${set.uuid}/pimfields/autocomplete?filter=SCRIPT`);
    expect(res.json).toEqual({
      results: [
        { uuid: set.fields[2]!.uuid, name: 'scriptType', label: 'Hand', type: 'script' },
        { uuid: set.fields[3]!.uuid, name: 'dated', label: 'Script date', type: 'date' },
      ],
      pageSize: 20,
    });
    expect((await get(owner, `pimfieldset/${set.uuid}/pimfields/autocomplete`)).json.results).toHaveLength(5);
    expect((await get(other, `pimfieldset/${set.uuid}/pimfields/autocomplete`)).status).toBe(404);
  });

  it('names the field types', async () => {
    expect((await get(other, 'metadata/fieldtypes')).json).toEqual([...METADATA_FIELD_TYPES]);
    expect((await get(null, 'metadata/fieldtypes')).status).toBe(401);
  });

  it('answers 400 for a malformed id', async () => {
    const res = await get(owner, 'pimfieldset/not-a-uuid');
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('The field set id must be a UUID.');
  });
});
