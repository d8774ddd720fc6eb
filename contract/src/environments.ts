import { z } from 'zod';
import { searchIndexSchema } from './searchindices.js';

/**
 * An environment is the configuration of one public search front-end (spec part 1 §3
 * "Environment"): its texts, which facets and columns it shows (the switches) and the search
 * index it searches. `domain` and `generateApacheConfig` are derived by the server.
 */
export const ENVIRONMENT_TEXT_FIELDS = ['about', 'mainText', 'searchLabel', 'logoClass', 'topBarClasses', 'instructions'] as const;
export type EnvironmentTextField = (typeof ENVIRONMENT_TEXT_FIELDS)[number];

/** The boolean switches, in the order the form shows them; each is false unless set. */
export const ENVIRONMENT_SWITCHES = [
  'categories',
  'columnCount',
  'day',
  'month',
  'year',
  'deskew',
  'events',
  'organisations',
  'persons',
  'pro',
  'locations',
  'misc',
  'height',
  'indices',
  'language',
  'lineCount',
  'ocrConfidence',
  'textsize',
  'width',
  'wordCount',
  'prizePapers',
  'showBadOcr',
  'aboutAsFullText',
  'mainTextAsFullPage',
  'publish',
] as const;
export type EnvironmentSwitch = (typeof ENVIRONMENT_SWITCHES)[number];

export const ENVIRONMENT_TITLE_MAX = 255;
export const ENVIRONMENT_PATH_MAX = 100;
export const ENVIRONMENT_ADDRESS_MAX = 2048;
/** Class lists and labels are short; about, main text and instructions are pages of text. */
export const ENVIRONMENT_SHORT_TEXT_MAX = 1000;
export const ENVIRONMENT_LONG_TEXT_MAX = 65_536;
const LONG_TEXT_FIELDS: readonly EnvironmentTextField[] = ['about', 'mainText', 'instructions'];

/** A path segment of the front-end's URL: it also names a directory and appears in Apache directives. */
export const ENVIRONMENT_PATH_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
/** A DNS host name (or IPv4 address): the only characters a ServerName may carry here. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The address's host name, or null when the address is not a plain http(s) base URL. */
export function environmentDomain(address: string): string | null {
  if (!/^https?:\/\/[^\s/?#]+\/?$/i.test(address)) return null;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  return HOST_NAME.test(url.hostname) ? url.hostname : null;
}

const text = (max: number) =>
  z
    .string({ error: 'Must be text.' })
    .max(max, `Can be at most ${max} characters.`)
    .default('');

const switchesShape = Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, z.boolean().default(false)])) as Record<
  EnvironmentSwitch,
  z.ZodDefault<z.ZodBoolean>
>;
const textsShape = Object.fromEntries(
  ENVIRONMENT_TEXT_FIELDS.map((name) => [name, text(LONG_TEXT_FIELDS.includes(name) ? ENVIRONMENT_LONG_TEXT_MAX : ENVIRONMENT_SHORT_TEXT_MAX)]),
) as Record<EnvironmentTextField, ReturnType<typeof text>>;

/**
 * `POST pim/environment` and `PUT pim/environment/{uuid}`: every field but the derived `domain`
 * and `generateApacheConfig`, which are ignored when sent.
 */
export const saveEnvironmentRequestSchema = z.object({
  title: z
    .string({ error: 'Enter a title.' })
    .trim()
    .min(1, 'Enter a title.')
    .max(ENVIRONMENT_TITLE_MAX, `A title can be at most ${ENVIRONMENT_TITLE_MAX} characters.`),
  elasticSearchIndex: z
    .object({ uuid: z.uuid('Choose a search index.') })
    .nullable()
    .default(null)
    .describe('the search index the front-end searches; null: none chosen yet'),
  path: z
    .string({ error: 'Enter a path.' })
    .trim()
    .min(1, 'Enter the path of the front-end, e.g. letters.')
    .max(ENVIRONMENT_PATH_MAX, `A path can be at most ${ENVIRONMENT_PATH_MAX} characters.`)
    .regex(ENVIRONMENT_PATH_PATTERN, 'A path is one URL segment of lower-case letters, digits, - and _, starting with a letter or digit, e.g. letters.'),
  address: z
    .string({ error: 'The address must be text.' })
    .trim()
    .max(ENVIRONMENT_ADDRESS_MAX, `An address can be at most ${ENVIRONMENT_ADDRESS_MAX} characters.`)
    .refine((address) => address === '' || environmentDomain(address) !== null, {
      message: 'The address is the base URL of the public site, http(s)://host[:port] without a path, e.g. https://search.example.org.',
    })
    .default(''),
  ...textsShape,
  ...switchesShape,
});
export type SaveEnvironmentRequest = z.input<typeof saveEnvironmentRequestSchema>;
export type SaveEnvironment = z.output<typeof saveEnvironmentRequestSchema>;

export const environmentSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  elasticSearchIndex: searchIndexSchema.nullable(),
  path: z.string(),
  address: z.string(),
  domain: z.string().describe("derived: the address's host name; empty without an address"),
  generateApacheConfig: z.string().describe('derived: an Apache 2.4 virtual host serving the front-end at the path and domain'),
  ...(Object.fromEntries(ENVIRONMENT_TEXT_FIELDS.map((name) => [name, z.string()])) as Record<EnvironmentTextField, z.ZodString>),
  ...(Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, z.boolean()])) as Record<EnvironmentSwitch, z.ZodBoolean>),
});
export type Environment = z.infer<typeof environmentSchema>;

/** `GET pim/environment`: every environment, by title. */
export const environmentListSchema = z.array(environmentSchema);

export const environmentParams = z.object({ uuid: z.uuid('The environment id must be a UUID.') });
