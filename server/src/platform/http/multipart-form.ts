import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest, tooLarge } from '../errors.js';
import { type FileStore, formatBytes, type StagedFile } from '../storage/file-store.js';
import { peek } from './peek-stream.js';
import { unstorableCharacter, unstorableText } from './storable-text.js';

/** What one route's multipart requests may carry. */
export interface MultipartLimits {
  /** Largest accepted file, in bytes. */
  maxFileBytes: number;
  /** Most text fields besides the one file. */
  maxFields: number;
  /** Longest text field, in bytes (64 KB unless told). */
  maxFieldBytes?: number;
}

const DEFAULT_FIELD_BYTES = 64 * 1024;
/** Enough of a file for every signature check the modules make (a font's table directory too). */
const DEFAULT_HEAD_BYTES = 4096;

/**
 * Registers the multipart parser in the calling plugin's scope only, so other routes never parse
 * multipart bodies. One file per request; the parser lets one byte more than the limit through,
 * so the file store is what refuses an oversized file, with its clear message.
 */
export async function registerMultipart(app: FastifyInstance, limits: MultipartLimits): Promise<void> {
  await app.register(multipart, {
    limits: {
      fileSize: limits.maxFileBytes + 1,
      files: 1,
      fields: limits.maxFields,
      parts: limits.maxFields + 1,
      fieldSize: limits.maxFieldBytes ?? DEFAULT_FIELD_BYTES,
    },
  });
}

/** The file part of a form, staged in `<dataDir>/tmp`: the caller publishes or discards it. */
export interface MultipartFile {
  /** The name of the part the file came in. */
  fieldName: string;
  /** The file name the client gave (without folders). */
  fileName: string;
  staged: StagedFile;
  /** The first bytes of the file (up to `headBytes`), for type sniffing. */
  head: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  /** Undefined when the form has no file, or a file input left empty (no name, no bytes). */
  file: MultipartFile | undefined;
}

export interface ReadMultipartOptions {
  /** The part the file must come in; any part name when not given. */
  fileField?: string;
  /** How many first bytes to return as `head` and pass to `checkHead` (4096 unless told). */
  headBytes?: number;
  /**
   * Checks the text fields sent before the file, when the file part starts and before any of it is
   * staged, so a bad form is refused without uploading the file into staging first: throw (or
   * reject with) an AppError to refuse. Fields sent after the file are not seen here; the caller
   * checks them with the whole form once it is read.
   */
  checkFields?: (fieldsBeforeFile: Readonly<Record<string, string>>, file: FilePartName) => void | Promise<void>;
  /** Refuses a file from its first bytes before anything is staged: throw an AppError to refuse. */
  checkHead?: (head: Buffer, file: FilePartName) => void;
}

/** The part a file came in and the file name the client gave. */
export interface FilePartName {
  fieldName: string;
  fileName: string;
}

/**
 * Reads a multipart/form-data request of text fields and at most one file, in any order. The
 * file is streamed into the store's staging, never held in memory whole, after `checkHead` (its
 * first bytes) and `checkFields` (the fields sent before it) let it through. Every refusal is a 4xx
 * AppError (not multipart, a second file, a file in the wrong part, too many or too long fields,
 * a field sent twice, U+0000 or a lone surrogate in a field or the file name, an interrupted
 * upload, a file over the limit); whatever was staged is then
 * discarded, so nothing is left in `<dataDir>/tmp`.
 */
export async function readMultipartForm(
  req: FastifyRequest,
  store: FileStore,
  limits: MultipartLimits,
  options: ReadMultipartOptions = {},
): Promise<MultipartForm> {
  const fileField = options.fileField;
  if (!req.isMultipart()) {
    throw badRequest(
      fileField
        ? `Send this form as multipart/form-data: its fields as text parts and the file in the part named "${fileField}".`
        : 'Send this form as multipart/form-data.',
    );
  }
  const fields: Record<string, string> = {};
  let file: MultipartFile | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = fieldValue(part, fields, limits);
        continue;
      }
      if (file) {
        drain(part.file);
        throw badRequest('Upload one file per request.');
      }
      if (fileField && part.fieldname !== fileField) {
        drain(part.file);
        throw badRequest(`Send the file in the part named "${fileField}", not "${part.fieldname}".`);
      }
      const { head, stream } = await peek(part.file, options.headBytes ?? DEFAULT_HEAD_BYTES);
      // A browser sends an empty file input as a nameless, empty file part.
      if (head.length === 0 && !part.filename) continue;
      if (head.length === 0) throw badRequest(`The file ${part.filename} is empty.`);
      const described = { fieldName: part.fieldname, fileName: part.filename };
      const inName = unstorableCharacter(part.filename);
      if (inName) {
        drain(stream);
        throw unstorableText(inName, 'the file name');
      }
      try {
        options.checkHead?.(head, described);
        await options.checkFields?.({ ...fields }, described);
      } catch (err) {
        drain(stream);
        throw err;
      }
      const staged = await store.stage(stream, limits.maxFileBytes);
      file = { ...described, staged, head };
    }
  } catch (err) {
    await file?.staged.discard();
    throw translateMultipartError(err, limits.maxFileBytes);
  }
  return { fields, file };
}

/**
 * Reads the rest of a refused file and throws it away, so the refusal is answered at once and the
 * connection does not stall on a file nobody reads. A body that then breaks off is no error any
 * more: the request has its answer.
 */
function drain(file: Readable): void {
  file.on('error', () => undefined).resume();
}

interface FieldPart {
  fieldname: string;
  value: unknown;
  fieldnameTruncated: boolean;
  valueTruncated: boolean;
}

function fieldValue(part: FieldPart, fields: Record<string, string>, limits: MultipartLimits): string {
  const name = part.fieldname;
  if (part.fieldnameTruncated) throw badRequest('A form field has a name that is too long.');
  if (part.valueTruncated) {
    throw badRequest(`The form field "${name}" is longer than the limit of ${formatBytes(limits.maxFieldBytes ?? DEFAULT_FIELD_BYTES)}.`);
  }
  if (Object.hasOwn(fields, name)) throw badRequest(`The form field "${name}" is sent more than once.`);
  if (typeof part.value !== 'string') throw badRequest(`The form field "${name}" must be plain text.`);
  const inName = unstorableCharacter(name);
  if (inName) throw unstorableText(inName, 'the name of a form field');
  const inValue = unstorableCharacter(part.value);
  if (inValue) throw unstorableText(inValue, `the form field "${name}"`);
  return part.value;
}

/** The multipart parser's own errors (and busboy's), in words a person understands; others pass through. */
export function translateMultipartError(err: unknown, maxFileBytes: number): unknown {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return badRequest('Upload one file per request.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(`The file is larger than the limit of ${formatBytes(maxFileBytes)}.`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('The form has too many fields.');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('The upload was interrupted before the whole file arrived. Try again.');
    case 'FST_PROTO_VIOLATION':
      return badRequest('A form field has a name that is not allowed.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('A form field declared as JSON is not valid JSON.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest('Send this form as multipart/form-data.');
  }
  const message = err instanceof Error ? err.message : '';
  // A connection dropped mid-body, or busboy's words for a body that ends too soon.
  if ((err as { code?: string }).code === 'ECONNRESET' || /unexpected end of (multipart data|form|file)/i.test(message)) {
    return badRequest('The upload was interrupted before the whole file arrived. Try again.');
  }
  if (/^Malformed|^Multipart: Boundary not found/.test(message)) return badRequest('The multipart form is malformed.');
  return err;
}
