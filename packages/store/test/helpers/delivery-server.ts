import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceiveResult, WebhookReceiver } from '../../src/index.js';

export interface Arrival {
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the receiver made of it; undefined when the server was failing or only capturing. */
  result?: ReceiveResult;
  /** The status the server answered. */
  answered: number;
}

/**
 * A webhook endpoint on a real socket: `fail` answers 500 to everything (a broken receiver), `capture`
 * answers 200 and keeps the delivery, `receive` hands it to `receiver.receive()` and answers its httpStatus.
 * `answered(n)` resolves once n requests have been answered: tests wait for deliveries, not for time.
 */
export class DeliveryServer {
  mode: 'fail' | 'capture' | 'receive' = 'capture';
  receiver: WebhookReceiver | undefined;
  readonly arrivals: Arrival[] = [];
  readonly handled: unknown[] = [];
  readonly #server: Server;
  #waiters: { n: number; resolve: () => void }[] = [];

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const arrival: Arrival = { headers: req.headers, body: Buffer.concat(chunks), answered: 200 };
        if (this.mode === 'fail') arrival.answered = 500;
        else if (this.mode === 'receive' && this.receiver) {
          try {
            arrival.result = await this.receiver.receive(arrival.body, req.headers, (event) => {
              this.handled.push(event);
            });
            arrival.answered = arrival.result.httpStatus;
          } catch {
            arrival.answered = 500;
          }
        }
        res.writeHead(arrival.answered).end();
        this.arrivals.push(arrival);
        this.#notify();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
  }

  answered(n: number): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push({ n, resolve });
      this.#notify();
    });
  }

  /** Sends a delivery again, byte for byte with its X-WC-* headers, as a retrying proxy would. */
  async replay(arrival: Arrival, url: string): Promise<Arrival> {
    const before = this.arrivals.length;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(arrival.headers)) {
      if (k.startsWith('x-wc-') || k === 'content-type' || k === 'user-agent') headers[k] = String(v);
    }
    await fetch(url, { method: 'POST', headers, body: new Uint8Array(arrival.body) });
    await this.answered(before + 1);
    return this.arrivals[before]!;
  }

  #notify(): void {
    this.#waiters = this.#waiters.filter((w) => {
      if (this.arrivals.length < w.n) return true;
      w.resolve();
      return false;
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/** Asks until `check` holds: for state the store changes after answering (a webhook disabled after a failure). */
export async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}
