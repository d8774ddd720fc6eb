import { z } from 'zod';

export const CONFIGURATION_KEY_MAX = 255;
/** A value is free text (a URL, a JSON snippet, a template): up to 64 KB of characters. */
export const CONFIGURATION_VALUE_MAX = 65_536;

/** A server setting (spec part 1 §3 "Configuration"): a unique key and its value. */
export const configurationSchema = z.object({
  id: z.number().int().describe('the serial id; `GET pim/configuration/{id}` accepts it as well as the uuid'),
  uuid: z.uuid(),
  key: z.string(),
  value: z.string(),
});
export type Configuration = z.infer<typeof configurationSchema>;

/** `GET pim/configuration/index`: every configuration, by key. */
export const configurationListSchema = z.array(configurationSchema);

/** `POST pim/configuration/create` and `PUT pim/configuration/{uuid}`. */
export const saveConfigurationRequestSchema = z.object({
  key: z
    .string({ error: 'Enter a key.' })
    .trim()
    .min(1, 'Enter a key.')
    .max(CONFIGURATION_KEY_MAX, `A key can be at most ${CONFIGURATION_KEY_MAX} characters.`),
  value: z
    .string({ error: 'The value must be text.' })
    .max(CONFIGURATION_VALUE_MAX, `A value can be at most ${CONFIGURATION_VALUE_MAX} characters.`)
    .default(''),
});
export type SaveConfigurationRequest = z.input<typeof saveConfigurationRequestSchema>;

/** `GET pim/configuration/{id}`: the uuid or the serial id. */
export const configurationIdParams = z.object({
  id: z
    .string()
    .regex(
      /^(\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i,
      'The configuration id must be a UUID or a number.',
    ),
});
export const configurationParams = z.object({ uuid: z.uuid('The configuration id must be a UUID.') });
