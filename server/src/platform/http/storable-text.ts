import type { FastifyInstance } from 'fastify';
import { type AppError, badRequest } from '../errors.js';

/**
 * U+0000, which PostgreSQL text and jsonb cannot hold, and a UTF-16 surrogate without its other
 * half, which is no character at all and cannot be written as UTF-8.
 */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character of `text` that cannot be stored, described for people (undefined: none). */
export function unstorableCharacter(text: string): string | undefined {
  const match = UNSTORABLE.exec(text);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  if (code === 0) return 'U+0000 (NUL)';
  return `U+${code.toString(16).toUpperCase()} (half of a surrogate pair, without its other half)`;
}

/** The 400 for such a character at `where` (e.g. `body.fields[2].name`). */
export function unstorableText(character: string, where: string): AppError {
  return badRequest(`The request contains a character that cannot be stored: ${character} in ${where}.`);
}

/**
 * The first string (or object key) holding such a character in a parsed JSON value, query or
 * path parameters, with where it is. Walks with its own stack: a deeply nested body cannot
 * overflow the call stack.
 */
export function findUnstorable(value: unknown, root: string): { character: string; where: string } | undefined {
  const stack: { value: unknown; where: string }[] = [{ value, where: root }];
  while (stack.length > 0) {
    const { value: next, where } = stack.pop()!;
    if (typeof next === 'string') {
      const character = unstorableCharacter(next);
      if (character) return { character, where };
    } else if (Array.isArray(next)) {
      for (let i = next.length - 1; i >= 0; i -= 1) stack.push({ value: next[i], where: `${where}[${i}]` });
    } else if (isPlainObject(next)) {
      const entries = Object.entries(next);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, item] = entries[i]!;
        const at = /^[A-Za-z_$][\w$]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;
        const character = unstorableCharacter(key);
        if (character) return { character, where: `the name of ${at}` };
        stack.push({ value: item, where: at });
      }
    }
  }
  return undefined;
}

/**
 * Parsed JSON is made of plain objects, parsed queries and path parameters of objects whose
 * prototype has none (fast-querystring, find-my-way); a stream or Buffer body is nothing to walk.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}

/**
 * One check for every route: a request whose path parameters, query or JSON body hold U+0000 or a
 * lone surrogate is refused with 400 before validation, so no route meets one in its SQL (where
 * PostgreSQL would fail with a 500). Multipart text fields are checked where they are read
 * (multipart-form.ts). Register before the routes.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    const found = findUnstorable(req.params, 'params') ?? findUnstorable(req.query, 'query') ?? findUnstorable(req.body, 'body');
    done(found ? unstorableText(found.character, found.where) : undefined);
  });
}
