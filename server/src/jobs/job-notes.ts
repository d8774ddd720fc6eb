import { AppError } from '../platform/errors.js';

/** The most items of a list a job's notes hold: the counts say how many there were. */
export const NOTED_ITEMS = 100;

/**
 * A list for a job's notes under `key`, cut to NOTED_ITEMS (and `<key>Omitted` saying how many
 * more there were), so a set of 100,000 failing images does not make a job record of megabytes.
 */
export function listed<T>(key: string, items: T[]): Record<string, unknown> {
  if (items.length === 0) return {};
  const omitted = items.length - NOTED_ITEMS;
  return { [key]: items.slice(0, NOTED_ITEMS), ...(omitted > 0 && { [`${key}Omitted`]: omitted }) };
}

/**
 * Why one item of a job (a page, an image) failed, for its notes: an AppError's sentence as it
 * is, else `fallback` with the error's own words (sharp's and libvips' messages name the cause).
 */
export function failureReason(err: unknown, fallback: string): string {
  if (err instanceof AppError) return err.message;
  const detail = err instanceof Error ? err.message.split('\n')[0]!.trim() : '';
  return detail ? `${fallback}: ${detail}` : `${fallback}.`;
}
