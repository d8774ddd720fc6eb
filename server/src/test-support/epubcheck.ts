import { execFile } from 'node:child_process';
import fs from 'node:fs';

/** Debian's epubcheck (package `epubcheck`, Java): the W3C's EPUB conformance checker. */
export const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';

export const epubcheckInstalled = fs.existsSync(EPUBCHECK_JAR);
export const EPUBCHECK_MISSING = `epubcheck is not installed (${EPUBCHECK_JAR}): apt-get install -y epubcheck, as .ci/run does`;

/** Checks an EPUB file; warnings fail it too. Gives epubcheck's report and whether it passed. */
export function epubcheck(file: string): Promise<{ ok: boolean; report: string }> {
  return new Promise((resolve, reject) => {
    execFile('java', ['-jar', EPUBCHECK_JAR, file, '--failonwarnings'], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(err);
      else resolve({ ok: !err, report: `${stdout}${stderr}` });
    });
  });
}
