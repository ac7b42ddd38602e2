import net from 'node:net';

/**
 * An SMTP client driven by hand on a plain socket, from a chosen local address: unlike a mail
 * library it can stop anywhere (in the middle of DATA too) or trickle bytes, as an abusive client does.
 */
export class RawSmtp {
  private partial = '';
  private readonly replies: string[] = [];
  private readonly waiting: Array<(reply: string | null) => void> = [];
  private ended = false;
  /** Settles once the server has closed the connection. */
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      const lines = (this.partial + text).split('\r\n');
      this.partial = lines.pop()!;
      // The last line of a reply has a space after its code (`250 OK`); the lines before it, a dash.
      for (const line of lines.filter((l) => /^\d{3}( |$)/.test(l))) {
        const waiter = this.waiting.shift();
        if (waiter) waiter(line);
        else this.replies.push(line);
      }
    });
    // A reset from the server ends the connection like a close does.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        for (const waiter of this.waiting.splice(0)) waiter(null);
        resolve();
      }),
    );
  }

  static connect(port: number, localAddress: string): Promise<RawSmtp> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => {
        socket.off('error', reject);
        resolve(new RawSmtp(socket));
      });
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** The next reply's last line, or null once the connection is closed without one. */
  reply(): Promise<string | null> {
    const next = this.replies.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  command(line: string): Promise<string | null> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  write(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  destroy(): void {
    this.socket.destroy();
  }
}
