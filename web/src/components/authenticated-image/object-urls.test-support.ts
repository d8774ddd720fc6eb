import { afterEach, beforeEach, vi } from 'vitest';

/**
 * jsdom makes no object URLs: every fetched image is shown from `src`, a made-up one. Called at the
 * top of a test file, for each of its tests.
 */
export function stubObjectUrls(src: string) {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => src);
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });
}
