import { z } from 'zod';

/**
 * Font descriptions (spec part 1 §2 "/pim/fontdescriptions", §3, §4, §7 "Font descriptions"): a
 * TrueType or OpenType font file with what is known about the script it renders. The file comes
 * only with the create call; the URI that identifies the font is fixed once it is saved.
 */

export const FONT_NAME_MAX = 255;
export const FONT_TYPE_MAX = 100;
export const FONT_LICENSE_MAX = 2000;
export const FONT_URI_MAX = 2048;
/** The largest font file accepted (bytes). */
export const FONT_MAX_BYTES = 50 * 1024 * 1024;
/** The multipart part the create call carries the font file in. */
export const FONT_FILE_FIELD = 'file';
/** What the file picker offers. */
export const FONT_FILE_ACCEPT = '.ttf,.otf';
/** The yes/no properties of a font, in the order the form and the table show them. */
export const FONT_FLAGS = ['handwritten', 'containsLongS', 'containsLigatures', 'romanScript', 'serif'] as const;
export type FontFlag = (typeof FONT_FLAGS)[number];

/** The name a download of the font gets (spec part 1 §9): always `.ttf`. */
export const fontDownloadName = (uuid: string) => `${uuid}.ttf`;

/** An absolute URI with a scheme, e.g. https://example.org/fonts/junicode. */
export const fontUriSchema = z
  .string()
  .trim()
  .min(1, "Enter the font's URI, e.g. https://example.org/fonts/junicode.")
  .max(FONT_URI_MAX, `A URI can be at most ${FONT_URI_MAX} characters.`)
  .refine((uri) => /^[a-z][a-z0-9+.-]*:[^\s]+$/i.test(uri) && URL.canParse(uri), {
    message: 'The URI must be an absolute URI without spaces, e.g. https://example.org/fonts/junicode.',
  });

const nameSchema = z.string().trim().max(FONT_NAME_MAX, `A name can be at most ${FONT_NAME_MAX} characters.`);
const typeSchema = z.string().trim().max(FONT_TYPE_MAX, `A type can be at most ${FONT_TYPE_MAX} characters.`);
const licenseSchema = z.string().trim().max(FONT_LICENSE_MAX, `A license can be at most ${FONT_LICENSE_MAX} characters.`);

export const fontDescriptionSchema = z.object({
  uuid: z.uuid(),
  uri: z.string(),
  name: z.string(),
  type: z.string().describe('e.g. TrueType or OpenType; read from the file unless the user gave one'),
  license: z.string(),
  handwritten: z.boolean(),
  containsLongS: z.boolean(),
  containsLigatures: z.boolean(),
  romanScript: z.boolean(),
  serif: z.boolean(),
  hasData: z.boolean().describe('whether a font file is stored for the description'),
  fileName: z.string().nullable().describe('the name of the uploaded font file'),
  sizeBytes: z.number().int().nullable(),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type FontDescription = z.infer<typeof fontDescriptionSchema>;

/** `GET pim/fontdescription`: every font description, by name. */
export const fontDescriptionListSchema = z.array(fontDescriptionSchema);

const flagFields = <T extends z.ZodType>(flag: T) =>
  Object.fromEntries(FONT_FLAGS.map((f) => [f, flag])) as Record<FontFlag, T>;

/**
 * What the form edits. On create a blank name or type is filled from the font file (its full or
 * family name; TrueType or OpenType).
 */
export const fontDescriptionFormSchema = z.object({
  uri: fontUriSchema,
  name: nameSchema,
  type: typeSchema,
  license: licenseSchema,
  ...flagFields(z.boolean()),
});
export type FontDescriptionForm = z.infer<typeof fontDescriptionFormSchema>;

/**
 * The text parts of `POST /pim/fontdescription/` (multipart, the font file in the part `file`):
 * the form's fields, booleans as "true" or "false".
 */
export const createFontDescriptionFieldsSchema = z.object({
  uri: fontUriSchema,
  name: nameSchema.default(''),
  type: typeSchema.default(''),
  license: licenseSchema.default(''),
  ...flagFields(z.stringbool({ error: 'A yes/no field must be "true" or "false".' }).default(false)),
});

/**
 * `PUT pim/fontdescription/{uuid}`. The name is required; `uri` may be sent back as it is, but
 * not changed: the URI is locked once saved.
 */
export const updateFontDescriptionRequestSchema = fontDescriptionFormSchema.extend({
  uri: fontUriSchema.optional(),
  name: nameSchema.min(1, 'Give the font description a name.'),
});
export type UpdateFontDescriptionRequest = z.infer<typeof updateFontDescriptionRequestSchema>;

export const fontDescriptionParams = z.object({ uuid: z.uuid('The font description id must be a UUID.') });
