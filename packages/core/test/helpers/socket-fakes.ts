/**
 * For the `@x/core/socket` unit and fuzz tests: a clock whose timers run only when the test advances it,
 * sockets the test plays the server for, and a small line protocol on `ReconnectingSocket` (`hello <id>`
 * is the handshake, `ping` / `pong` the heartbeat, `close <code>` verdicts set per test).
 */
import {
  type Clock,
  type CloseVerdict,
  ReconnectingSocket,
  type ReconnectingSocketOptions,
  type SocketClose,
  type SocketEvents,
  type SocketLike,
  type WebSocketFactory,
} from '../../src/socket/index.js';

export class FakeClock implements Clock {
  time = 0;
  private timers: { id: number; at: number; callback: () => void }[] = [];
  private next = 1;

  now = (): number => this.time;
  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = this.next++;
    this.timers.push({ id, at: this.time + ms, callback });
    return id;
  };
  clearTimeout = (handle: unknown): void => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };

  /** Runs every timer due within `ms`, in order, including timers they set. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const timer = this.timers[0];
      if (!timer || timer.at > end) break;
      this.timers.shift();
      this.time = timer.at;
      timer.callback();
    }
    this.time = end;
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Ms until the next timer fires, or undefined when none is pending. */
  get nextIn(): number | undefined {
    const at = Math.min(...this.timers.map((t) => t.at));
    return Number.isFinite(at) ? at - this.time : undefined;
  }
}

/** A socket the test plays the server for. */
export class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closedWith: { code: number | undefined; reason: string | undefined } | null = null;
  terminated = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  /** Set to false to play an implementation without `terminate` (a browser's WebSocket). */
  static canTerminate = true;

  constructor(readonly url: string) {
    if (!FakeSocket.canTerminate) this.terminate = undefined;
  }

  send(data: string | ArrayBufferLike | ArrayBufferView): void {
    this.sent.push(String(data));
  }
  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
  }
  terminate: (() => void) | undefined = () => {
    this.terminated = true;
  };

  /** The client let go of it: closed or terminated. */
  get dropped(): boolean {
    return this.terminated || this.closedWith !== null;
  }
  /** Server → client. */
  frame(data: unknown): void {
    this.onmessage?.({ data });
  }
  serverClose(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

export function socketFactory(): { sockets: FakeSocket[]; factory: WebSocketFactory } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    factory: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  };
}

/** Lets awaited `url()` and factory promises settle. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

type LineEvents = SocketEvents & { line: [string] };

/**
 * A line protocol: `hello <id>` completes the handshake, `ping` is answered with `pong`, every other line
 * is a `line` event. `verdict` decides each close; `urls` hands out one URL per attempt.
 */
export class LineSocket extends ReconnectingSocket<LineEvents> {
  urls = 0;
  pings = 0;
  deaths = 0;
  closes: { close: SocketClose; wasConnected: boolean; errorEvent: unknown }[] = [];
  verdict: (close: SocketClose) => CloseVerdict = () => 'backoff';
  onOpenFailed: (error: unknown) => CloseVerdict = (error) => ({ fail: error });
  /** Resolves `url()` later when set: a token fetch in flight. */
  urlGate: Promise<void> | null = null;
  /** Where the URLs point; each attempt adds a fresh `?token=`. */
  base = 'ws://fake/';

  constructor(options: ReconnectingSocketOptions) {
    super(options);
  }

  /** The test's way to send, as a protocol's public method would. */
  say(line: string): boolean {
    return this.sendRaw(line);
  }

  protected async url(): Promise<string> {
    const n = ++this.urls;
    if (this.urlGate) await this.urlGate;
    return `${this.base}?token=t${n}`;
  }

  protected message(data: unknown): void {
    const line = String(data);
    if (line.startsWith('hello ')) {
      this.socketId = line.slice(6);
      this.established();
    } else if (line === 'ping') this.sendRaw('pong');
    else this.events.emit('line', line);
    this.alive();
  }

  protected classify(close: SocketClose, wasConnected: boolean, errorEvent: unknown): CloseVerdict {
    this.closes.push({ close, wasConnected, errorEvent });
    return this.verdict(close);
  }

  protected openFailed(error: unknown): CloseVerdict {
    return this.onOpenFailed(error);
  }

  protected ping(): void {
    this.pings += 1;
    this.sendRaw('ping');
  }

  protected dead(): void {
    this.deaths += 1;
    this.lost(4201, 'no pong');
  }
}

export function lineSetup(options: Partial<ReconnectingSocketOptions> = {}) {
  const clock = new FakeClock();
  const { sockets, factory } = socketFactory();
  const logged: string[] = [];
  const socket = new LineSocket({
    factory: () => factory,
    connectTimeoutMs: 5000,
    activityTimeoutMs: 1000,
    pongTimeoutMs: 500,
    clock,
    random: () => 0.5,
    log: (level, message) => logged.push(`${level} ${message}`),
    ...options,
  });
  const states: string[] = [];
  socket.events.bind('state_change', ({ current }) => states.push(current));
  const last = () => sockets.at(-1) as FakeSocket;
  return { clock, sockets, socket, states, logged, last };
}
