import path from 'node:path';

/**
 * The third-party conformance data in `shared/fixtures` beside the checkout (CI has it). Tests
 * that use it skip, saying so, when it is absent.
 */
export const SHARED_FIXTURES = path.resolve(import.meta.dirname, '../../../../shared/fixtures');

export function fixturePath(...parts: string[]): string {
  return path.join(SHARED_FIXTURES, ...parts);
}
