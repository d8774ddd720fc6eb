import { SEARCH_TEXT_FIELDS, type SearchTextField } from '@pim/contract';
import type { Highlight, Query } from '../query.js';
import { malformed, unsupported } from './errors.js';
import { isPattern, patternMatches, resolveField } from './fields.js';
import { checkParams, describe, join, type JsonObject, type ParamSpec, readBoolean, readInteger, readObject, readString, readStrings } from './values.js';

/**
 * `highlight`: the text fields to mark the query's words in, with the tags and fragments. The
 * engine highlights text fields only; keyword fields named here are left out.
 */

const OPTIONS: ParamSpec = {
  pre_tags: 'use',
  post_tags: 'use',
  fragment_size: 'use',
  number_of_fragments: 'use',
  require_field_match: 'use',
  encoder: 'use',
  type: 'ignore',
  order: 'ignore',
  fragmenter: 'ignore',
  fragment_offset: 'ignore',
  boundary_chars: 'ignore',
  boundary_max_scan: 'ignore',
  boundary_scanner: 'ignore',
  boundary_scanner_locale: 'ignore',
  phrase_limit: 'ignore',
  max_analyzed_offset: 'ignore',
  force_source: 'ignore',
  matched_fields: 'ignore',
  highlight_filter: 'ignore',
  tags_schema: 'unsupported',
  no_match_size: 'unsupported',
  highlight_query: 'unsupported',
};

interface Settings {
  preTag?: string;
  postTag?: string;
  fragmentSize?: number;
  numberOfFragments?: number;
  requireFieldMatch?: boolean;
  encoder?: 'default' | 'html';
}

function readSettings(object: JsonObject, at: string, construct: string): Settings {
  checkParams(object, OPTIONS, construct, at);
  const settings: Settings = {};
  const tag = (key: string) => {
    const tags = readStrings(object[key], join(at, key), `The ${key}`);
    if (tags.length === 0) throw malformed(`The ${key} (at ${join(at, key)}) must name at least one tag.`, join(at, key), 'illegal_argument_exception');
    // Elasticsearch gives each further tag to the next query term; one tag for all is what the engine marks with.
    return tags[0] as string;
  };
  if (object.pre_tags !== undefined) settings.preTag = tag('pre_tags');
  if (object.post_tags !== undefined) settings.postTag = tag('post_tags');
  if (object.fragment_size !== undefined) settings.fragmentSize = readInteger(object.fragment_size, join(at, 'fragment_size'), 'The fragment_size', 0);
  if (object.number_of_fragments !== undefined) {
    settings.numberOfFragments = readInteger(object.number_of_fragments, join(at, 'number_of_fragments'), 'The number_of_fragments', 0);
  }
  if (object.require_field_match !== undefined) {
    settings.requireFieldMatch = readBoolean(object.require_field_match, join(at, 'require_field_match'), 'require_field_match');
  }
  if (object.encoder !== undefined) {
    const encoder = readString(object.encoder, join(at, 'encoder'), 'The encoder');
    if (encoder !== 'default' && encoder !== 'html') {
      const encoderAt = join(at, 'encoder');
      throw malformed(`The encoder (at ${encoderAt}) must be "default" or "html", not ${describe(encoder)}.`, encoderAt, 'illegal_argument_exception');
    }
    settings.encoder = encoder;
  }
  return settings;
}

/** `fields` as an object of fields or an array of one-field objects. */
function fieldEntries(value: unknown, at: string): [string, JsonObject, string][] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => fieldEntries(readObject(item, join(at, index), 'A highlight field'), join(at, index)));
  }
  const object = readObject(value, at, 'The highlight fields');
  return Object.entries(object).map(([name, options]) => [name, readObject(options ?? {}, join(at, name), `The highlight options of "${name}"`), join(at, name)]);
}

export function parseHighlight(body: unknown, query: Query, at: string): Highlight | null {
  const object = readObject(body, at, 'The highlight');
  const { fields, ...rest } = object;
  if (fields === undefined) throw malformed(`The highlight (at ${at}) needs "fields", the fields to highlight.`, at);
  const global = readSettings(rest, at, 'highlight');
  const chosen = new Set<SearchTextField>();
  let perField: Settings | null = null;
  let perFieldAt = at;
  for (const [name, options, fieldAt] of fieldEntries(fields, join(at, 'fields'))) {
    const settings = readSettings(options, fieldAt, `highlight of "${name}"`);
    if (perField && !sameSettings(perField, settings)) {
      throw unsupported(`Highlight settings that differ between fields (${perFieldAt} and ${fieldAt})`, fieldAt);
    }
    perField = settings;
    perFieldAt = fieldAt;
    const requireFieldMatch = settings.requireFieldMatch ?? global.requireFieldMatch ?? true;
    const searched = requireFieldMatch ? searchedTextFields(query) : new Set<SearchTextField>(SEARCH_TEXT_FIELDS);
    for (const field of namedTextFields(name, fieldAt)) if (searched.has(field)) chosen.add(field);
  }
  const settings = { ...global, ...perField };
  if (chosen.size === 0) return null;
  const numberOfFragments = settings.numberOfFragments ?? 5;
  const wholeField = numberOfFragments === 0;
  return {
    fields: SEARCH_TEXT_FIELDS.filter((field) => chosen.has(field)),
    preTag: settings.preTag ?? '<em>',
    postTag: settings.postTag ?? '</em>',
    fragmentSize: wholeField ? 0 : (settings.fragmentSize ?? 100),
    numberOfFragments: wholeField ? 1 : numberOfFragments,
    encoder: settings.encoder ?? 'default',
  };
}

const sameSettings = (a: Settings, b: Settings) =>
  (['preTag', 'postTag', 'fragmentSize', 'numberOfFragments', 'encoder'] as const).every((key) => a[key] === b[key]);

function namedTextFields(name: string, at: string): SearchTextField[] {
  if (isPattern(name)) return SEARCH_TEXT_FIELDS.filter((field) => patternMatches(name, field));
  const resolved = resolveField(name, at);
  return resolved.kind === 'text' ? [resolved.field] : [];
}

/** The text fields whose words the query looks for (not those it excludes). */
export function searchedTextFields(query: Query): Set<SearchTextField> {
  const found = new Set<SearchTextField>();
  const walk = (node: Query) => {
    if (node.kind === 'text' || node.kind === 'phrase') for (const { field } of node.fields) found.add(field);
    if (node.kind === 'bool') [...node.must, ...node.should, ...node.filter].forEach(walk);
  };
  walk(query);
  return found;
}
