import fs from 'node:fs';
import path from 'node:path';

/** The files below `dir`, relative to it (none when it does not exist). */
function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

/** What a test's data dir holds: the file store's files (sorted) and what is staged in tmp. */
export function dataDirFiles(dataDir: string): { store: () => string[]; tmp: () => string[] } {
  return {
    store: () => filesIn(path.join(dataDir, 'files')).sort(),
    tmp: () => filesIn(path.join(dataDir, 'tmp')),
  };
}
