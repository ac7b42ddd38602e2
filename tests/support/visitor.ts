import type { ClientToServerEvents, ServerToClientEvents, UploadView } from '@receipts/common';
import { io, type Socket } from 'socket.io-client';

let visitorCount = 0;
/** A client address no other visitor of this test run has used. */
export function uniqueIp(): string {
  visitorCount += 1;
  return `198.51.${Math.floor(visitorCount / 250)}.${(visitorCount % 250) + 1}`;
}

export interface RecordedEvent {
  event: keyof ServerToClientEvents;
  payload: { id: string } & Record<string, unknown>;
  /** performance.now() when it arrived. */
  at: number;
}

/** A browser-like visitor: keeps its session cookie across HTTP calls and its socket. */
export class Visitor {
  /** The session cookie; share it to act as a second tab of the same visitor. */
  cookie = '';
  socket: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;
  readonly events: RecordedEvent[] = [];
  /** The same events by upload id: waits poll them, and a benchmark's client shares the cores. */
  private readonly eventsById = new Map<string, RecordedEvent[]>();
  /** Called as each event arrives: waits on events alone need no polling. */
  private readonly onEvent = new Set<() => void>();

  /**
   * `clientIp` is sent as X-Forwarded-For (a Deployment trusts a proxy on loopback), so test
   * visitors count as different client addresses for the per-address quota.
   */
  constructor(
    readonly baseUrl: string,
    readonly clientIp?: string,
  ) {}

  /** What every request of this visitor carries: the api's marker, its cookie, its address. */
  headers(): Record<string, string> {
    return {
      'X-Requested-With': 'XMLHttpRequest',
      ...(this.cookie ? { cookie: this.cookie } : {}),
      ...(this.clientIp ? { 'X-Forwarded-For': this.clientIp } : {}),
    };
  }

  /** Keeps the session cookie an answer set (not the known-device cookie a sign-in sets beside it). */
  remember(setCookies: readonly string[] | undefined): void {
    const session = setCookies?.find((c) => !c.startsWith('rdev='));
    if (session) this.cookie = session.split(';')[0]!;
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(`${this.baseUrl}${path}`, { ...init, headers: { ...this.headers(), ...init.headers } });
    this.remember(res.headers.getSetCookie());
    return res;
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
    const res = await this.request(path, init);
    return { status: res.status, body: (await res.json()) as T };
  }

  upload(bytes: Buffer | Uint8Array, filename: string, query = '', field = 'file') {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)]), filename);
    form.append('currencyCode', 'MYR');
    return this.json<Record<string, unknown>>(`/api/ocr${query}`, { method: 'POST', body: form });
  }

  /** Opens the live connection (after a first request gave this visitor its cookie). */
  async connect(): Promise<void> {
    if (!this.cookie) await this.request('/api/uploads');
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(this.baseUrl, {
      extraHeaders: { cookie: this.cookie },
      transports: ['websocket'],
      reconnection: true,
    });
    for (const event of ['upload:progress', 'upload:completed', 'upload:failed', 'upload:cancelled'] as const) {
      const record = (payload: RecordedEvent['payload']) => {
        const recorded = { event, payload, at: performance.now() };
        this.events.push(recorded);
        const own = this.eventsById.get(payload.id);
        if (own) own.push(recorded);
        else this.eventsById.set(payload.id, [recorded]);
        for (const check of this.onEvent) check();
      };
      (socket.on as (e: string, listener: typeof record) => void)(event, record);
    }
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    this.socket = socket;
  }

  sync(): Promise<UploadView[]> {
    return new Promise((resolve) => this.socket!.emit('uploads:sync', resolve));
  }

  eventsFor(id: string): RecordedEvent[] {
    return [...(this.eventsById.get(id) ?? [])];
  }

  /** Waits until `predicate` holds for the recorded events (polling; the events arrive on their own). */
  async waitFor(predicate: () => boolean, timeoutMs = 120_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * The upload's last event, once it arrives. Checked as events arrive, not polled: a throughput
   * benchmark's 40 polling waits cost its client 19 ms of CPU a receipt, on the service's cores.
   */
  async waitForEnd(id: string, timeoutMs = 180_000): Promise<RecordedEvent> {
    const final = ['upload:completed', 'upload:failed', 'upload:cancelled'];
    const end = () => this.eventsById.get(id)?.find((e) => final.includes(e.event));
    const found = end();
    if (found) return found;
    return new Promise((resolve, reject) => {
      const check = () => {
        const event = end();
        if (!event) return;
        stop();
        resolve(event);
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`Timed out waiting for upload ${id} to end`));
      }, timeoutMs);
      const stop = () => {
        clearTimeout(timer);
        this.onEvent.delete(check);
      };
      this.onEvent.add(check);
    });
  }

  close(): void {
    this.socket?.close();
  }
}

/**
 * A script calling the api with a personal access token: every request carries
 * `Authorization: Bearer <token>` and its address, never X-Requested-With, and no cookie unless
 * one is given (to show it is ignored); cookies set in answers are not kept.
 */
export class BearerVisitor extends Visitor {
  constructor(
    baseUrl: string,
    readonly token: string,
    clientIp?: string,
    /** A session cookie sent beside the token (name=value). */
    readonly sentCookie = '',
  ) {
    super(baseUrl, clientIp);
  }

  override headers(): Record<string, string> {
    return {
      Authorization: `Bearer ${this.token}`,
      ...(this.sentCookie ? { cookie: this.sentCookie } : {}),
      ...(this.clientIp ? { 'X-Forwarded-For': this.clientIp } : {}),
    };
  }

  override remember(): void {}
}
