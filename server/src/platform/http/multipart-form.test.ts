import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { badRequest, unsupportedMediaType } from '../errors.js';
import { FileStore } from '../storage/file-store.js';
import { installErrorHandler } from './error-handler.js';
import { dataDirFiles } from '../../test-support/data-dir.js';
import { type FormPart, heldBody, multipartBody } from '../../test-support/multipart-body.js';
import { type MultipartForm, readMultipartForm, registerMultipart } from './multipart-form.js';

const LIMITS = { maxFileBytes: 64 * 1024, maxFields: 4, maxFieldBytes: 100 };
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('readMultipartForm on a real Fastify instance', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-multipart-'));
  const store = new FileStore(dataDir);
  const tmpFiles = () => dataDirFiles(dataDir).tmp();
  let app: FastifyInstance;
  /** How the last request ended on the server: the form read, or the error it threw. */
  let settled: Promise<MultipartForm | Error>;
  /** The fields `checkFields` saw at the last file part. */
  let fieldsSeen: Readonly<Record<string, string>> | undefined;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    installErrorHandler(app, '/');
    await app.register(async (scope) => {
      await registerMultipart(scope, LIMITS);
      scope.post('/form', async (req) => {
        const reading = readMultipartForm(req, store, LIMITS, {
          fileField: 'file',
          headBytes: 8,
          checkFields: (fields) => {
            fieldsSeen = fields;
            if (fields.name === 'refused') throw badRequest('That name is refused.');
          },
          checkHead: (head) => {
            if (head.toString('latin1').startsWith('wOFF')) throw unsupportedMediaType('No WOFF here.');
          },
        });
        settled = reading.then(
          (form) => form,
          (err: Error) => err,
        );
        const form = await reading;
        const { file } = form;
        const answer = {
          fields: form.fields,
          file: file && {
            fieldName: file.fieldName,
            fileName: file.fileName,
            head: file.head.toString('latin1'),
            sha256: file.staged.sha256,
            sizeBytes: file.staged.sizeBytes,
            staged: sha256(await file.staged.read()),
          },
        };
        await file?.staged.discard();
        return answer;
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (parts: FormPart[], cutOff = false) => {
    const { payload, headers } = multipartBody(parts, { cutOff });
    const res = await app.inject({ method: 'POST', url: '/form', headers, payload });
    return { status: res.statusCode, json: JSON.parse(res.body) as Record<string, any> };
  };

  it('collects the text fields before and after the file and stages the file with its first bytes', async () => {
    const bytes = Buffer.concat([Buffer.from('OTTO'), Buffer.alloc(40_000, 7)]);
    const res = await post([
      { name: 'name', value: 'Junicode' },
      { name: 'file', fileName: 'junicode.otf', bytes },
      { name: 'license', value: 'OFL 1.1 – Ævum' },
    ]);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      fields: { name: 'Junicode', license: 'OFL 1.1 – Ævum' },
      file: {
        fieldName: 'file',
        fileName: 'junicode.otf',
        head: bytes.subarray(0, 8).toString('latin1'),
        sha256: sha256(bytes),
        sizeBytes: bytes.length,
        staged: sha256(bytes),
      },
    });
    expect(tmpFiles()).toEqual([]);
  });

  it('shows checkFields the fields sent before the file, and lets the caller check those after it', async () => {
    fieldsSeen = undefined;
    const res = await post([
      { name: 'name', value: 'A' },
      { name: 'file', fileName: 'a.ttf', bytes: Buffer.from('true and more') },
      { name: 'license', value: 'refused' },
    ]);
    expect(res.status).toBe(200);
    expect(fieldsSeen).toEqual({ name: 'A' });
    const after = await post([
      { name: 'file', fileName: 'a.ttf', bytes: Buffer.from('true and more') },
      { name: 'name', value: 'refused' },
    ]);
    expect(after.status).toBe(200);
    expect(fieldsSeen).toEqual({});
  });

  it('refuses bad fields before the file at the start of the file, staging none of it, while the body still arrives', async () => {
    // Twice the limit: were it staged, the answer would be 413.
    const { payload, headers } = multipartBody(
      [
        { name: 'name', value: 'refused' },
        { name: 'file', fileName: 'big.ttf', bytes: Buffer.alloc(2 * LIMITS.maxFileBytes, 1) },
      ],
      { cutOff: true },
    );
    const body = heldBody(payload);
    const res = await app.inject({ method: 'POST', url: '/form', headers, payload: body.stream });
    expect(tmpFiles()).toEqual([]);
    body.release();
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).message).toBe('That name is refused.');
    expect(await settled).toBeInstanceOf(Error);
    expect(tmpFiles()).toEqual([]);
  });

  it('answers no file for a form without one and for an empty file input', async () => {
    expect((await post([{ name: 'name', value: 'A' }])).json).toEqual({ fields: { name: 'A' } });
    const empty = await post([
      { name: 'file', fileName: '', bytes: Buffer.alloc(0) },
      { name: 'name', value: 'B' },
    ]);
    expect(empty).toEqual({ status: 200, json: { fields: { name: 'B' } } });
  });

  it('refuses with a clear 4xx and leaves nothing staged', async () => {
    const file = (name = 'file', bytes = Buffer.from('true and more')) => ({ name, fileName: 'a.ttf', bytes });
    const cases: { label: string; parts: FormPart[]; cutOff?: boolean; status: number; message: string }[] = [
      { label: 'two files', parts: [file(), { name: 'x', value: '1' }, file()], status: 400, message: 'Upload one file per request.' },
      { label: 'wrong part', parts: [file('font')], status: 400, message: 'Send the file in the part named "file", not "font".' },
      {
        label: 'too many fields',
        parts: [file(), ...['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, value: name }))],
        status: 400,
        message: 'The form has too many fields.',
      },
      {
        label: 'field too long',
        parts: [file(), { name: 'license', value: 'x'.repeat(101) }],
        status: 400,
        message: 'The form field "license" is longer than the limit of 100 bytes.',
      },
      {
        label: 'field twice',
        parts: [{ name: 'name', value: 'a' }, file(), { name: 'name', value: 'b' }],
        status: 400,
        message: 'The form field "name" is sent more than once.',
      },
      { label: 'empty file', parts: [file('file', Buffer.alloc(0))], status: 400, message: 'The file a.ttf is empty.' },
      { label: 'over the limit', parts: [file('file', Buffer.alloc(64 * 1024 + 1, 1))], status: 413, message: 'The file is larger than the limit of 64 KB.' },
      { label: 'refused by its head', parts: [file('file', Buffer.from('wOFF0000rest'))], status: 415, message: 'No WOFF here.' },
      {
        label: 'cut off',
        parts: [{ name: 'name', value: 'a' }, file('file', Buffer.alloc(20_000, 1))],
        cutOff: true,
        status: 400,
        message: 'The upload was interrupted before the whole file arrived. Try again.',
      },
    ];
    for (const c of cases) {
      const res = await post(c.parts, c.cutOff);
      expect({ label: c.label, status: res.status, message: res.json.message }).toEqual({ label: c.label, status: c.status, message: c.message });
      expect(tmpFiles(), c.label).toEqual([]);
    }
  });

  it('refuses a body that is not multipart', async () => {
    const res = await app.inject({ method: 'POST', url: '/form', payload: { name: 'a' } });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).message).toBe(
      'Send this form as multipart/form-data: its fields as text parts and the file in the part named "file".',
    );
  });

  it('discards the staged part of a file whose connection drops mid-upload', async () => {
    const { port } = app.server.address() as AddressInfo;
    const { payload, headers } = multipartBody(
      [
        { name: 'name', value: 'a' },
        { name: 'file', fileName: 'a.ttf', bytes: Buffer.alloc(30_000, 2) },
      ],
      { cutOff: true },
    );
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/form', headers: { ...headers, 'content-length': 1_000_000 } });
    req.on('error', () => undefined);
    req.write(payload);
    // Wait until the server has started staging the file, then drop the connection.
    await vi.waitFor(() => expect(tmpFiles()).toHaveLength(1), { timeout: 60_000, interval: 10 });
    req.destroy();
    const outcome = await settled;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('The upload was interrupted before the whole file arrived. Try again.');
    expect(tmpFiles()).toEqual([]);
  });
});
