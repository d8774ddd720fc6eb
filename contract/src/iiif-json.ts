/**
 * Reading IIIF Presentation JSON as it comes (version 3, or version 2 after @iiif/parser's
 * upgrade, which keeps some version 2 spellings): the web annotator reads the manifests users
 * open, the server's HarvestIIIF the ones it imports. Only plain functions over unknown JSON.
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
export const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** Version 3 says `id`; services kept from version 2 (also after the upgrade) say `@id`. */
export const idOf = (value: unknown): string | undefined => (isObject(value) ? (stringOf(value.id) ?? stringOf(value['@id'])) : undefined);
export const typeOf = (value: unknown): string | undefined => (isObject(value) ? (stringOf(value.type) ?? stringOf(value['@type'])) : undefined);

/** Only an absolute http(s) address can be fetched, shown and stored as an image's uri. */
export function isWebAddress(text: string | undefined): text is string {
  if (text === undefined) return false;
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Languages read first; then whatever language the map has. */
const PREFERRED_LANGUAGES = ['en', 'none', '@none'];
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A label or value as plain text: a string, a language map (version 3), a `@value` (version 2) or
 * a list of either. Values may carry the little HTML IIIF allows: line breaks and paragraphs
 * become line breaks, other tags go, entities are read.
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return plain(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(textOf).filter((text) => text !== '').join('; ');
  if (!isObject(value)) return '';
  if ('@value' in value) return textOf(value['@value']);
  const language = PREFERRED_LANGUAGES.find((key) => key in value) ?? Object.keys(value)[0];
  return language === undefined ? '' : textOf(value[language]);
}

function plain(html: string): string {
  if (!/[<&]/.test(html)) return html.trim();
  return html
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

export function isImage(body: unknown): body is Json {
  if (!isObject(body)) return false;
  const type = typeOf(body);
  if (type !== undefined) return type === 'Image' || type === 'dctypes:Image';
  return (typeof body.format === 'string' && body.format.startsWith('image/')) || body.service !== undefined;
}

/** The image of an annotation body: the body, one of a list, the first image of a Choice, the source of a SpecificResource. */
export function imageOfBody(body: unknown): Json | undefined {
  for (const candidate of asList(body)) {
    if (isImage(candidate)) return candidate;
    const type = typeOf(candidate);
    if (type === 'Choice' && isObject(candidate)) {
      const option = asList(candidate.items).find(isImage);
      if (option) return option;
    }
    if (type === 'SpecificResource' && isObject(candidate) && isImage(candidate.source)) return candidate.source;
  }
  return undefined;
}

function isPainting(annotation: Json): boolean {
  const motivations = asList(annotation.motivation);
  return motivations.length === 0 || motivations.some((motivation) => motivation === 'painting' || motivation === 'sc:painting');
}

/** The image painted first on the canvas: its AnnotationPages (`items`) hold the painting annotations. */
export function paintedImageOf(canvas: Json): Json | undefined {
  for (const page of asList(canvas.items).filter(isObject)) {
    for (const annotation of asList(page.items).filter(isObject)) {
      if (!isPainting(annotation)) continue;
      const image = imageOfBody(annotation.body);
      if (image) return image;
    }
  }
  return undefined;
}
