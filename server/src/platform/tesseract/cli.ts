import { type ProgramResult, SpawnFailed, spawner } from '../processes/spawner.js';

/**
 * Why a Tesseract run failed: `missing` (no tesseract on this machine), `language` (it could not
 * load the language or model it was given: every page would fail alike) or `input` (this image:
 * damaged or unreadable, so only this page fails).
 */
export type TesseractFailure = 'missing' | 'language' | 'input';

export class TesseractError extends Error {
  constructor(
    readonly failure: TesseractFailure,
    message: string,
    /** The last lines Tesseract wrote to stderr, for the log. */
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'TesseractError';
  }
}

const COMMAND = 'tesseract';
/** Stderr kept for an error message; Tesseract can be chatty (per-page debug output). */
const STDERR_KEPT = 4000;
/** env(1) answers this when it cannot find the program. */
const NOT_FOUND = 127;

/**
 * Runs the Tesseract CLI with `args` and collects its stdout. OpenMP is held to one thread: by
 * default Tesseract spreads each page over every core and, on a machine that is busy anyway,
 * takes 8-11 s a page instead of about 1.5 s. env(1) adds the variable to the inherited
 * environment and then execs Tesseract in its place, so the child's pid is Tesseract's and an
 * abort (the job cancelled, the server stopping) kills it at once. It is started by the spawner's
 * small process, so the server's thread never waits for a fork of the server.
 */
export async function runTesseract(args: string[], signal?: AbortSignal): Promise<{ stdout: Buffer; stderr: string }> {
  let result: ProgramResult;
  try {
    result = await spawner.run('env', ['OMP_THREAD_LIMIT=1', COMMAND, ...args], { signal, stderrKept: STDERR_KEPT });
  } catch (err) {
    if (err instanceof SpawnFailed) throw new TesseractError('missing', `Tesseract could not be started: ${err.message}`, '');
    throw err;
  }
  if (result.code === 0) return { stdout: result.stdout, stderr: result.stderr };
  throw failureOf(result.code, result.stderr.trim());
}

function failureOf(code: number | null, stderr: string): TesseractError {
  if (code === NOT_FOUND) {
    return new TesseractError('missing', 'Tesseract is not installed on this server (Debian: apt-get install tesseract-ocr tesseract-ocr-eng).', stderr);
  }
  if (/Failed loading language|Could not initialize tesseract|couldn't load any languages/i.test(stderr)) {
    return new TesseractError('language', 'Tesseract could not load its language model.', stderr);
  }
  const last = stderr.split('\n').filter((l) => l.trim()).slice(-2).join(' ');
  return new TesseractError('input', `Tesseract could not read this image${last ? `: ${last}` : ''}.`, stderr);
}

let version: Promise<string> | undefined;

/**
 * The installed Tesseract's version ("5.3.0"), asked once per process: jobs note it, so their
 * provenance says which engine read the text. Throws a `missing` TesseractError without one.
 */
export function tesseractVersion(): Promise<string> {
  if (version) return version;
  const asked = runTesseract(['--version']).then(({ stdout, stderr }) => {
    // Tesseract 4 and later print it on stdout, 3.x on stderr.
    const found = /tesseract\s+v?(\d[\w.-]*)/i.exec(`${stdout.toString('utf8')}\n${stderr}`)?.[1];
    if (!found) throw new TesseractError('missing', '"tesseract --version" named no version: the tesseract command on the PATH may not be Tesseract.', stderr);
    return found;
  });
  // A failure is not kept: Tesseract may be installed while the server runs.
  asked.catch(() => {
    if (version === asked) version = undefined;
  });
  version = asked;
  return asked;
}

let languages: Promise<ReadonlySet<string>> | undefined;

/**
 * The models Tesseract has in its own tessdata ("eng", "deu", "osd", ...), asked once per process
 * like the version. Throws a `missing` TesseractError without Tesseract.
 */
export function tesseractLanguages(): Promise<ReadonlySet<string>> {
  if (languages) return languages;
  const asked = runTesseract(['--list-langs']).then(({ stdout, stderr }) => {
    // The first line names the folder ("List of available languages in ..."); a model a line after it.
    const lines = `${stdout.toString('utf8')}\n${stderr}`.split('\n').map((l) => l.trim());
    return new Set(lines.filter((l) => /^[\w+-]+$/.test(l)));
  });
  asked.catch(() => {
    if (languages === asked) languages = undefined;
  });
  languages = asked;
  return asked;
}
