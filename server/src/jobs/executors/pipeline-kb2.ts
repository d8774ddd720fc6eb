import type { Executor } from '../executor.js';
import { epubify } from './epubify.js';

/**
 * PipelineKB2 is what the image set page's 'Create Epub' creates: the same EPUB as Epubify, of
 * the set the page shows, with the set's own fields on the title page.
 */
export const pipelineKb2: Executor = epubify;
