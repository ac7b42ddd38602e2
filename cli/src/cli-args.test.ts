import { describe, expect, it } from 'vitest';
import { commandHelp, COMMANDS, mainHelp, parseCommand, UsageError } from './cli-args.js';
import { pathsApiExportPostRequestBodyContentApplicationJsonFormatValues as FORMATS } from './generated/api-schema.js';

const usageError = (argv: string[]) => {
  try {
    parseCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) return { message: err.message, topic: err.topic };
    throw err;
  }
  throw new Error(`${argv.join(' ')} parsed`);
};

describe('parseCommand', () => {
  it('reads login with its token and url', () => {
    expect(parseCommand(['login', '--token', 'rct_abc', '--url', 'http://127.0.0.1:3000'])).toEqual({ name: 'login', token: 'rct_abc', url: 'http://127.0.0.1:3000' });
    expect(parseCommand(['login', '--token=rct_abc'])).toEqual({ name: 'login', token: 'rct_abc', url: undefined });
  });

  it('asks login for a token', () => {
    expect(usageError(['login'])).toEqual({ message: '--token is required.', topic: 'login' });
    expect(usageError(['login', '--token', '  '])).toEqual({ message: '--token is required.', topic: 'login' });
  });

  it('reads upload: its paths, --wait and the currency upper-cased', () => {
    expect(parseCommand(['upload', 'a.jpg', 'receipts/', '--wait', '--currency', 'eur'])).toEqual({ name: 'upload', paths: ['a.jpg', 'receipts/'], wait: true, currency: 'EUR' });
    expect(parseCommand(['upload', '-w', 'x.pdf'])).toEqual({ name: 'upload', paths: ['x.pdf'], wait: true, currency: undefined });
    expect(parseCommand(['upload', 'x.pdf'])).toMatchObject({ wait: false });
  });

  it('refuses an upload of nothing and a currency that is no code', () => {
    expect(usageError(['upload', '--wait']).message).toBe('Name at least one file or folder to upload.');
    expect(usageError(['upload', 'a.jpg', '--currency', 'euro']).message).toMatch(/^--currency must be a three-letter ISO 4217 code/);
  });

  it('reads export into the request POST /api/export takes, leaving out what was not given', () => {
    expect(parseCommand(['export', '--format', 'XLSX', '--preset', 'datev', '--from', '2024-01-01', '--to', '2024-03-31', '--out', 'q1.xlsx'])).toEqual({
      name: 'export',
      out: 'q1.xlsx',
      request: { format: 'xlsx', preset: 'datev', from: '2024-01-01', to: '2024-03-31' },
    });
    expect(parseCommand(['export', '-o', 'all.zip', '--search', 'bakery', '--tag', 'trip'])).toEqual({ name: 'export', out: 'all.zip', request: { q: 'bakery', tag: 'trip' } });
  });

  it('takes the export formats the API document lists, and says them when another is asked', () => {
    for (const format of FORMATS) expect(parseCommand(['export', '--format', format, '--out', 'x'])).toMatchObject({ request: { format } });
    expect(usageError(['export', '--format', 'ods', '--out', 'x'])).toEqual({ message: `--format must be one of ${FORMATS.join(', ')} (not "ods")`, topic: 'export' });
  });

  it('asks export where to write', () => {
    expect(usageError(['export', '--format', 'csv']).message).toBe('--out <file> is required: where to write the export.');
  });

  it("passes parseArgs' words for unknown options and missing values", () => {
    expect(usageError(['status', '--verbose']).message).toMatch(/Unknown option '--verbose'/);
    expect(usageError(['export', '--out']).message).toMatch(/argument missing/);
    expect(usageError(['logout', 'extra']).message).toMatch(/positional argument/);
  });

  it('refuses an unknown command', () => {
    expect(usageError(['uplod', 'a.jpg'])).toEqual({ message: 'Unknown command "uplod".', topic: null });
  });

  it('answers --help for the whole and for each command, before checking anything else', () => {
    expect(parseCommand([])).toEqual({ name: 'help', topic: null });
    expect(parseCommand(['--help'])).toEqual({ name: 'help', topic: null });
    expect(parseCommand(['help', 'upload'])).toEqual({ name: 'help', topic: 'upload' });
    expect(parseCommand(['export', '--help'])).toEqual({ name: 'help', topic: 'export' });
    expect(parseCommand(['login', '-h'])).toEqual({ name: 'help', topic: 'login' });
  });

  it('lists every command in the help, and each command help starts with its usage', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      expect(mainHelp()).toContain(`  ${name}`);
      expect(commandHelp(name as keyof typeof COMMANDS).split('\n')[0]).toBe(`Usage: ${spec.usage}`);
    }
  });
});
