import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { DatabaseInUseError } from '../platform/db/database.js';
import { AppError } from '../platform/errors.js';
import { type CliIO, type OptionValues, processIO, UsageError } from './io.js';

interface Command {
  usage: string;
  summary: string;
  options: Record<string, { type: 'string' | 'boolean'; help: string; required?: boolean; multiple?: boolean }>;
  run(values: OptionValues, config: Config, io: CliIO): Promise<number>;
}

/** Every command; each imports its code only when it runs (the server's code is large). */
const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'serve',
    summary: 'Run the app and API on HOST:PORT (the default command). Ctrl-C stops it.',
    options: {},
    run: async (_values, config, io) => (await import('./serve.js')).serveUntilStopped(config, io),
  },
  migrate: {
    usage: 'migrate',
    summary: 'Apply the database migrations that are not applied yet, and list them.',
    options: {},
    run: async (_values, config, io) => (await import('./commands.js')).migrateCommand(config, io),
  },
  'users create': {
    usage: 'users create --email E --name N [--password P] [--admin]',
    summary: 'Create a user who signs in with email and password. Without --password one is generated and shown once.',
    options: {
      email: { type: 'string', help: 'email address, used to sign in', required: true },
      name: { type: 'string', help: 'the name PIM shows', required: true },
      password: { type: 'string', help: 'at least 8 characters (careful: it stays in your shell history)' },
      admin: { type: 'boolean', help: 'give the ADMIN role' },
    },
    run: async (values, config, io) => (await import('./commands.js')).createUserCommand(values, config, io),
  },
  'apikeys create': {
    usage: 'apikeys create --user NAME [--roles ROLE,...]',
    summary: 'Create an API key for a service account (e.g. a worker). The key is shown once.',
    options: {
      user: { type: 'string', help: 'name of the service account', required: true },
      roles: { type: 'string', help: 'comma-separated roles, e.g. ADMIN', required: false },
    },
    run: async (values, config, io) => (await import('./commands.js')).createApiKeyCommand(values, config, io),
  },
  worker: {
    usage: "worker --server URL (--key KEY | --key-file FILE) --types T1,T2 [--command 'Type=template' ...] [--job-command 'Type=template' ...] [--concurrency N] [--poll-s S] [--name NAME]",
    summary:
      'Run jobs of a PIM server on this machine (a remote worker): claim jobs of the types, run each image through the type\'s command ' +
      'template (or once per job through its job template, or the built-in Tesseract4Hocr), upload what it writes, until Ctrl-C. The key needs the MINION role.',
    options: {
      server: { type: 'string', help: "the PIM server's address, e.g. https://pim.example.org", required: true },
      key: { type: 'string', help: 'an API key with the MINION role (pim apikeys create --user NAME --roles MINION)' },
      'key-file': { type: 'string', help: 'a file holding the key, instead of --key (which other users of the machine can see in the process list)' },
      types: { type: 'string', help: 'comma-separated job types to run, e.g. P2PaLA,KrakenHocr', required: true },
      command: {
        type: 'string',
        multiple: true,
        help: "Type='command' run per image with sh; placeholders {image} {output} {outputDir} {imageId} {label} {fileName} {width} {height} {jobId}, the job's settings ({exp_name}...) and its models ({krakenModel}: the downloaded file; {krakenModelId}: its uuid), quoted by the worker (repeatable)",
      },
      'job-command': {
        type: 'string',
        multiple: true,
        help: "Type='command' run once per job with sh, over all its images: placeholders {imagesDir} (the images, by file name) {outputDir} (files named after an image are its transcription, the rest the job's download) {jobId} {jobUuid} {setId} {jobType} {priority}, the job's settings and models (repeatable)",
      },
      'version-of': { type: 'string', multiple: true, help: "Type='command' printing the tool's version, recorded on its jobs (repeatable)" },
      concurrency: { type: 'string', help: 'jobs run at once (default 1)' },
      'poll-s': { type: 'string', help: 'seconds to wait when no job waits (default 5)' },
      name: { type: 'string', help: "the worker's name on its jobs (default: this host's name)" },
    },
    run: async (values, _config, io) => (await import('./worker.js')).workerCommand(values, io),
  },
  'files gc': {
    usage: 'files gc [--dry-run]',
    summary: 'Delete stored files that no record uses any more and files staged by servers that have stopped (left by a crash), and say what that freed.',
    options: { 'dry-run': { type: 'boolean', help: 'only list what would be deleted' } },
    run: async (values, config, io) => (await import('./files-gc.js')).filesGcCommand(values, config, io),
  },
};

/**
 * The operator command line: `pim <command> [options]`. Returns the exit code: 0 done, 1 failed
 * (one message on stderr), 2 the command line is wrong. Configuration comes from `env`.
 */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIO = processIO): Promise<number> {
  try {
    if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      io.out(usage());
      return 0;
    }
    // No command (or only options): serve, as `npm start` does.
    const implicit = argv.length === 0 || argv[0]!.startsWith('-');
    const name = implicit ? 'serve' : commandName(argv);
    const command = COMMANDS[name]!;
    const args = argv.slice(implicit ? 0 : name.split(' ').length);
    if (args.includes('--help') || args.includes('-h')) {
      io.out(commandUsage(command));
      return 0;
    }
    const values = parseOptions(command, args);
    return await command.run(values, loadConfig(env), io);
  } catch (err) {
    return report(err, io);
  }
}

function commandName(argv: string[]): string {
  const [first, second] = argv as [string, string | undefined];
  if (COMMANDS[first]) return first;
  const pair = `${first} ${second ?? ''}`.trim();
  if (COMMANDS[pair]) return pair;
  const known = Object.keys(COMMANDS).filter((c) => c.startsWith(`${first} `));
  if (known.length) throw new UsageError(`Unknown command "${pair}". Did you mean "${known.join('" or "')}"?`);
  throw new UsageError(`Unknown command "${first}".`);
}

function parseOptions(command: Command, args: string[]): OptionValues {
  const options = Object.fromEntries(Object.entries(command.options).map(([k, o]) => [k, { type: o.type, multiple: o.multiple ?? false }]));
  let values: OptionValues;
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values as OptionValues;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  for (const [key, o] of Object.entries(command.options)) {
    if (o.required && (values[key] === undefined || values[key] === '')) throw new UsageError(`Missing --${key}.`);
  }
  return values;
}

function report(err: unknown, io: CliIO): number {
  if (err instanceof UsageError) {
    io.err(`${err.message.replace(/([^.])$/, '$1.')} Run "pim --help" for usage.`);
    return 2;
  }
  if (err instanceof ConfigError || err instanceof DatabaseInUseError || err instanceof AppError) {
    io.err(err.message);
    return 1;
  }
  io.err(`Error: ${err instanceof Error ? err.message : String(err)}`);
  return 1;
}

function usage(): string {
  const lines = Object.values(COMMANDS).flatMap((c) => [`  ${c.usage}`, `      ${c.summary}`]);
  return [
    'Usage: pim <command> [options]      (from the repository: npm run pim -- <command> [options])',
    '',
    'Commands:',
    ...lines,
    '',
    'Options of every command: -h, --help',
    '',
    'Settings come from environment variables (PIM_DATA_DIR, DATABASE_URL, PORT, OIDC_ISSUER, ...),',
    'listed in docs/OPERATIONS.md. With the embedded database (no DATABASE_URL), run the other',
    'commands while the server is stopped.',
  ].join('\n');
}

function commandUsage(command: Command): string {
  const names = Object.entries(command.options).map(([k, o]) => `  --${k}${o.type === 'string' ? ` <${k}>` : ''}`);
  const width = Math.max(0, ...names.map((n) => n.length)) + 3;
  const options = Object.values(command.options).map((o, i) => names[i]!.padEnd(width) + o.help + (o.required ? ' (required)' : ''));
  return [`Usage: pim ${command.usage}`, '', command.summary, ...(options.length ? ['', 'Options:', ...options] : [])].join('\n');
}
