import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathsApiExportPostRequestBodyContentApplicationJsonFormatValues as EXPORT_FORMATS, pathsApiExportPostRequestBodyContentApplicationJsonPresetValues as EXPORT_PRESETS } from './generated/api-schema.js';

export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

export type Command =
  | { name: 'help'; topic: CommandName | null }
  | { name: 'version' }
  | { name: 'login'; token: string; url: string | undefined }
  | { name: 'logout' }
  | { name: 'upload'; paths: string[]; wait: boolean; currency: string | undefined }
  | { name: 'export'; out: string; request: ExportRequest }
  | { name: 'status' };

/** The fields of POST /api/export the command line can set. */
export interface ExportRequest {
  format?: ExportFormat;
  preset?: ExportPreset;
  from?: string;
  to?: string;
  category?: string;
  tag?: string;
  currency?: string;
  q?: string;
}

export type CommandName = 'login' | 'logout' | 'upload' | 'export' | 'status';

/** A command line that cannot be run: said with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly topic: CommandName | null,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

interface CommandSpec {
  usage: string;
  summary: string;
  options: Options;
  /** Lines of the help below the usage: what each option does. */
  details: string[];
}

const HELP_OPTION: Options = { help: { type: 'boolean', short: 'h' } };

export const COMMANDS: Record<CommandName, CommandSpec> = {
  login: {
    usage: 'receipts login --token <token> [--url <base url>]',
    summary: 'Check an access token against the api and keep it for the other commands',
    options: { token: { type: 'string' }, url: { type: 'string' } },
    details: [
      '--token <token>   a personal access token (create one on your account page)',
      '--url <base url>  where the api answers (default http://localhost:3000)',
      '',
      'Stored in $XDG_CONFIG_HOME/receipts/config.json (else ~/.config/receipts/config.json),',
      'readable by you only. RECEIPTS_TOKEN and RECEIPTS_URL override it.',
    ],
  },
  logout: {
    usage: 'receipts logout',
    summary: 'Forget the stored token',
    options: {},
    details: ['Deletes the config file `receipts login` wrote. The token itself stays valid until you revoke it on your account page.'],
  },
  upload: {
    usage: 'receipts upload <files or folders…> [--wait] [--currency XXX]',
    summary: 'Upload receipts: image files and PDFs, or folders of them',
    options: { wait: { type: 'boolean', short: 'w' }, currency: { type: 'string' } },
    details: [
      'Folders are searched, sub-folders too, for .jpg .jpeg .png .webp .heic .heif .tif .tiff .gif .pdf.',
      '--wait          wait until every receipt is read, and show what was read',
      '--currency XXX  the currency of receipts that do not print one (ISO 4217, e.g. EUR)',
      '',
      'Each file is sent with an Idempotency-Key made from its contents: running the command again',
      'after a network error does not upload a file twice. Exits with 1 when any file failed.',
    ],
  },
  export: {
    usage: `receipts export --out <file> [--format ${EXPORT_FORMATS.join('|')}] [--preset <preset>] [--from YYYY-MM-DD] [--to YYYY-MM-DD]`,
    summary: 'Download your receipts as a workbook, an import file or the export pack',
    options: {
      out: { type: 'string', short: 'o' },
      format: { type: 'string' },
      preset: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      category: { type: 'string' },
      tag: { type: 'string' },
      currency: { type: 'string' },
      search: { type: 'string' },
    },
    details: [
      '--out <file>       where to write it (replaced whole, never left half-written)',
      `--format <format>  ${EXPORT_FORMATS.join(', ')} (default: the preset's own file)`,
      `--preset <preset>  ${EXPORT_PRESETS.join(', ')} (default generic)`,
      '--from, --to       receipt dates, inclusive',
      '--category, --tag, --currency, --search <text>   only the receipts that match',
    ],
  },
  status: {
    usage: 'receipts status',
    summary: 'Your quota and your latest uploads',
    options: {},
    details: [],
  },
};

const isCommandName = (name: string | undefined): name is CommandName => name !== undefined && Object.hasOwn(COMMANDS, name);

/** `receipts --help`: every command. */
export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return [
    'receipts: the command-line client of the Receipts API',
    '',
    'Usage: receipts <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary}`),
    '',
    'Run `receipts <command> --help` for its options.',
  ].join('\n');
}

/** `receipts <command> --help`. */
export function commandHelp(name: CommandName): string {
  const spec = COMMANDS[name];
  return [`Usage: ${spec.usage}`, '', spec.summary + '.', ...(spec.details.length ? ['', ...spec.details] : [])].join('\n');
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], option: string, topic: CommandName): T | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  const match = allowed.find((a) => a.toLowerCase() === lower);
  if (!match) throw new UsageError(`--${option} must be one of ${allowed.join(', ')} (not "${value}")`, topic);
  return match;
}

/** What the command line asks for; a UsageError when it cannot be run. */
export function parseCommand(argv: readonly string[]): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' && isCommandName(rest[0]) ? rest[0] : null;
    return { name: 'help', topic };
  }
  if (first === '--version' || first === '-v') return { name: 'version' };
  if (!isCommandName(first)) throw new UsageError(`Unknown command "${first}".`, null);
  const spec = COMMANDS[first];
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...rest], options: { ...spec.options, ...HELP_OPTION }, allowPositionals: first === 'upload', strict: true }) as typeof parsed;
  } catch (err) {
    // parseArgs says what is wrong ("Unknown option '--x'", "Option '--out <value>' argument missing").
    throw new UsageError((err as Error).message, first);
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: 'help', topic: first };
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };

  switch (first) {
    case 'login': {
      const token = text('token');
      if (!token) throw new UsageError('--token is required.', first);
      return { name: 'login', token, url: text('url') };
    }
    case 'logout':
    case 'status':
      return { name: first };
    case 'upload': {
      if (positionals.length === 0) throw new UsageError('Name at least one file or folder to upload.', first);
      const currency = text('currency');
      // The api checks it too, but once here beats the same refusal for every file.
      if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency)) throw new UsageError(`--currency must be a three-letter ISO 4217 code such as EUR (not "${currency}").`, first);
      return { name: 'upload', paths: positionals, wait: values.wait === true, currency: currency?.toUpperCase() };
    }
    case 'export': {
      const out = text('out');
      if (!out) throw new UsageError('--out <file> is required: where to write the export.', first);
      const request: ExportRequest = {
        format: oneOf(text('format'), EXPORT_FORMATS, 'format', first),
        preset: oneOf(text('preset'), EXPORT_PRESETS, 'preset', first),
        from: text('from'),
        to: text('to'),
        category: text('category'),
        tag: text('tag'),
        currency: text('currency'),
        q: text('search'),
      };
      for (const key of Object.keys(request) as Array<keyof ExportRequest>) if (request[key] === undefined) delete request[key];
      return { name: 'export', out, request };
    }
  }
}
