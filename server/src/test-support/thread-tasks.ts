// Functions the worker pool tests run in threads.
import { badRequest } from '../platform/errors.js';

export function add(a: number, b: number): number {
  return a + b;
}

export function bytes(length: number): Buffer {
  return Buffer.alloc(length, 7);
}

export function refuse(message: string): never {
  throw badRequest(message);
}

/** Blocks its thread until the main thread stores 1 in the flag (Atomics), then answers. */
export function waitForFlag(flag: SharedArrayBuffer): string {
  Atomics.wait(new Int32Array(flag), 0, 0);
  return 'released';
}

/** Keeps allocating until the heap cap stops it. */
export function exhaustMemory(): number {
  const hoard: string[][] = [];
  for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `item ${i} of ${hoard.length}`));
}
