import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFileError, configPath, DEFAULT_API_URL, NotLoggedInError, readConfig, removeConfig, resolveCredentials, writeConfig } from './cli-config.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'cli-config-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('configPath', () => {
  it('is under $XDG_CONFIG_HOME when set, else ~/.config', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/u' })).toBe(path.join('/x/conf', 'receipts', 'config.json'));
    expect(configPath({ HOME: '/home/u' })).toBe(path.join('/home/u', '.config', 'receipts', 'config.json'));
    expect(configPath({ XDG_CONFIG_HOME: ' ', HOME: '/home/u' })).toBe(path.join('/home/u', '.config', 'receipts', 'config.json'));
  });
});

describe('the config file', () => {
  it('is written readable by its owner only, in a folder of its own, and read back', async () => {
    const file = configPath({ XDG_CONFIG_HOME: home });
    const before = process.umask(0o022);
    try {
      await writeConfig(file, { url: 'http://127.0.0.1:3000', token: 'rct_secret' });
    } finally {
      process.umask(before);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readConfig(file)).toEqual({ url: 'http://127.0.0.1:3000', token: 'rct_secret' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: 'http://127.0.0.1:3000', token: 'rct_secret' });
  });

  it('is replaced whole by a second login, and tightened if it was readable by others', async () => {
    const file = configPath({ XDG_CONFIG_HOME: home });
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{"url":"http://old","token":"old"}', { mode: 0o644 });
    await writeConfig(file, { url: 'http://new', token: 'new' });
    expect(await readConfig(file)).toEqual({ url: 'http://new', token: 'new' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('is null when there is none, and an error naming it when it is not JSON', async () => {
    const file = configPath({ XDG_CONFIG_HOME: home });
    expect(await readConfig(file)).toBeNull();
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, 'url=http://x');
    await expect(readConfig(file)).rejects.toThrow(ConfigFileError);
    await expect(readConfig(file)).rejects.toThrow(file);
  });

  it('is removed by logout, once', async () => {
    const file = configPath({ XDG_CONFIG_HOME: home });
    await writeConfig(file, { url: 'http://x', token: 't' });
    expect(await removeConfig(file)).toBe(true);
    expect(await readConfig(file)).toBeNull();
    expect(await removeConfig(file)).toBe(false);
  });
});

describe('resolveCredentials', () => {
  it('reads the stored login', async () => {
    await writeConfig(configPath({ XDG_CONFIG_HOME: home }), { url: 'http://stored', token: 'stored-token' });
    expect(await resolveCredentials({ XDG_CONFIG_HOME: home })).toEqual({ url: 'http://stored', token: 'stored-token' });
  });

  it('lets RECEIPTS_TOKEN and RECEIPTS_URL override it, each on its own', async () => {
    await writeConfig(configPath({ XDG_CONFIG_HOME: home }), { url: 'http://stored', token: 'stored-token' });
    expect(await resolveCredentials({ XDG_CONFIG_HOME: home, RECEIPTS_TOKEN: 'env-token' })).toEqual({ url: 'http://stored', token: 'env-token' });
    expect(await resolveCredentials({ XDG_CONFIG_HOME: home, RECEIPTS_URL: 'http://env' })).toEqual({ url: 'http://env', token: 'stored-token' });
  });

  it('needs no config file with RECEIPTS_TOKEN, and then defaults the url', async () => {
    expect(await resolveCredentials({ XDG_CONFIG_HOME: home, RECEIPTS_TOKEN: 'env-token' })).toEqual({ url: DEFAULT_API_URL, token: 'env-token' });
  });

  it('says how to log in when there is no token anywhere', async () => {
    await expect(resolveCredentials({ XDG_CONFIG_HOME: home })).rejects.toThrow(NotLoggedInError);
  });
});
