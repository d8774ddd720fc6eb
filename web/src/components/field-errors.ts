import type { z } from 'zod';

/** The first message per top-level field of a failed parse with a contract schema; empty when it passed. */
export function fieldErrors(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}
