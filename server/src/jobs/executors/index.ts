import type { ExecutorRegistry } from '../executor.js';

/**
 * The executors of the job types this server runs itself, one file each in this folder. The
 * built-in worker claims exactly these types; the others wait for a remote worker that serves them.
 */
export const executors: ExecutorRegistry = {};
