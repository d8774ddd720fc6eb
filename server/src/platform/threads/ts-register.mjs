// Under Vitest the server runs from its TypeScript sources; a worker thread is plain Node, so it
// loads them through these hooks (only then: the built server's threads load dist/*.js).
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
