import { z } from 'zod';

/** The one error shape every failed API call answers with. */
export const errorResponseSchema = z.object({
  error: z.string().describe('stable machine-readable code, e.g. "not_found"'),
  message: z.string().describe('a sentence a person understands'),
  details: z.unknown().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const uuidSchema = z.uuid();

/** The `?onlyOwnData=true|false` flag every list and picker sends. */
export const onlyOwnDataQuery = z.object({
  onlyOwnData: z.stringbool().default(false),
});

/** A reference to another record: what lists show of it. */
export const namedRefSchema = z.object({ uuid: z.uuid(), name: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;
export const namedRefListSchema = z.array(namedRefSchema);

/**
 * Query of every Typeahead picker: `filter` is the typed term, `skip` how many results the
 * picker already shows (it asks for the next page).
 */
export const typeaheadQuery = z.object({
  onlyOwnData: z.stringbool().default(false),
  filter: z.string().max(255).default(''),
  skip: z.coerce.number().int().min(0).default(0),
});
export type TypeaheadQuery = z.infer<typeof typeaheadQuery>;

/** Pickers accept either a plain list or a page of results. */
export function typeaheadPage<T extends z.ZodType>(item: T) {
  return z.object({ results: z.array(item), pageSize: z.number().int() });
}
