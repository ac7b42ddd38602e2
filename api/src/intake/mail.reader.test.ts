import { createLogger } from '@receipts/infra';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageRefusedError } from './mail.parser.js';
import { MailReader } from './mail.reader.js';

const log = createLogger({ level: 'silent', role: 'test' });
const message = (html: string, subject = 'Your receipt') =>
  Buffer.from(
    ['From: shop@example.test', 'To: r-abc@in.example.test', `Subject: ${subject}`, 'Message-ID: <m1@example.test>', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', '', html, ''].join('\r\n'),
  );
const readers: MailReader[] = [];
const reader = (options: Partial<ConstructorParameters<typeof MailReader>[0]> = {}) => {
  const r = new MailReader({ maxAttachments: 20, timeoutMs: 20_000, maxHeapMb: 128, log, ...options });
  readers.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(readers.splice(0).map((r) => r.close()));
});

/** How long the event loop went without a turn while `work` ran. */
async function longestStall<T>(work: Promise<T>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work.catch(() => undefined); // only the stall is measured here; each test asserts the outcome itself
  } finally {
    clearInterval(tick);
  }
  return longest;
}

describe('reading mail on a bounded thread', () => {
  it('reads a message: its head, and its HTML body as text with the table kept as columns', async () => {
    const read = await reader().read(message('<h1>Shop</h1><table><tr><td>Total</td><td>$7.23</td></tr></table>'));
    expect(read).toMatchObject({ subject: 'Your receipt', from: 'shop@example.test', messageId: '<m1@example.test>', attachments: [] });
    expect(read.body).toMatch(/Total\s+\$7\.23/);
  });

  it('refuses a body whose tables would take seconds to lay out, with its head, and the loop keeps turning', async () => {
    const bomb = message(`<table>${'<tr><td colspan="1000" rowspan="1000">x</td></tr>'.repeat(20_000)}</table>`, 'Bomb');
    const r = reader();
    const read = r.read(bomb);
    expect(await longestStall(read)).toBeLessThan(500);
    const err = await read.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MessageRefusedError);
    expect(err).toMatchObject({ refusal: 'too-complex', head: { subject: 'Bomb' } });
    // The same reader goes on with the next message.
    expect((await r.read(message('<p>Total 7.23</p>'))).body).toContain('Total 7.23');
  });

  it('refuses nesting deeper than any e-mail, which would overflow the converter', async () => {
    await expect(reader().read(message('<div>'.repeat(5000)))).rejects.toMatchObject({ refusal: 'too-complex' });
  });

  it('ends a reading that overruns its time and refuses the message; a new thread reads the next', async () => {
    const slow = reader({ timeoutMs: 1 });
    await expect(slow.read(message('<p>Total 7.23</p>'))).rejects.toMatchObject({ refusal: 'too-complex', message: 'reading took longer than 1 ms' });
    await expect(slow.read(message('<p>Total 7.23</p>'))).rejects.toMatchObject({ refusal: 'too-complex' });
  });

  it('takes messages one at a time, in order', async () => {
    const r = reader();
    const reads = await Promise.all(['one', 'two', 'three'].map((s) => r.read(message(`<p>${s}</p>`, s))));
    expect(reads.map((m) => [m.subject, m.body?.trim()])).toEqual([
      ['one', 'one'],
      ['two', 'two'],
      ['three', 'three'],
    ]);
  });
});
