/** Where a command writes: the process's stdout/stderr, or a test's buffers. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** A command's parsed options, by name. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** The command line itself is wrong: exit code 2 and a pointer to --help. */
export class UsageError extends Error {}
