import { AppError } from '../platform/errors.js';

/** The AppError a parse throws, to check its status, code, message and details together. */
export function refusal(call: () => unknown): AppError {
  try {
    call();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal, but the call succeeded');
}

/** The searched fields as a query over all of them names them: text, htr and persons, unboosted. */
export const ALL_TEXT_FIELDS = [
  { field: 'text', boost: 1 },
  { field: 'htr', boost: 1 },
  { field: 'persons', boost: 1 },
];

/** A text query of the model as the parser makes it by default, over `fields`, with `extra` changed. */
export function textQuery(fields: object[], words: unknown[], extra: object = {}) {
  return { kind: 'text', fields, words, operator: 'or', minimumShouldMatch: null, scoring: 'best_fields', tieBreaker: 0, boost: 1, ...extra };
}
