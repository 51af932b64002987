import { type Clock, Timer } from './clock.js';
import { SendWindow } from './send-window.js';

/** The server's limit: 10 client events per second per connection (excess is rejected with 4301). */
export const CLIENT_EVENTS_PER_SECOND = 10;
/**
 * The window those 10 are counted in here: a second, plus 100 ms because the server counts arrivals, and
 * events sent a second apart arrive closer together when the first ones were held up on the way.
 */
export const CLIENT_EVENT_WINDOW_MS = 1100;
/** Default buffer size: events beyond it are refused, not dropped later (see `ClientEventQueue`). */
export const DEFAULT_CLIENT_EVENT_BUFFER = 100;

interface Pending {
  channel: string;
  event: string;
  data: unknown;
}

/**
 * Client events wait here for a free slot (10 per window) and for their channel to be subscribed, for instance while
 * reconnecting. The buffer is bounded and REFUSES new events when full rather than dropping the oldest:
 * `trigger()` returns false at once, so the caller knows, whereas a silently dropped old event was
 * already reported as sent. Events keep their order per connection; an event whose channel is not ready
 * does not hold back events for channels that are.
 */
export class ClientEventQueue {
  private readonly pending: Pending[] = [];
  private readonly window: SendWindow;
  private readonly timer: Timer;

  constructor(
    private readonly limit: number,
    clock: Clock,
    private readonly ready: (channel: string) => boolean,
    private readonly send: (channel: string, event: string, data: unknown) => boolean,
  ) {
    this.window = new SendWindow(CLIENT_EVENTS_PER_SECOND, CLIENT_EVENT_WINDOW_MS, () => clock.now());
    this.timer = new Timer(clock);
  }

  get size(): number {
    return this.pending.length;
  }

  push(channel: string, event: string, data: unknown): boolean {
    if (this.pending.length >= this.limit) return false;
    this.pending.push({ channel, event, data });
    this.pump();
    return true;
  }

  /** Sends what the window and subscriptions allow; call it whenever a channel becomes subscribed. */
  pump(): void {
    for (let i = 0; i < this.pending.length; ) {
      const item = this.pending[i] as Pending;
      if (!this.ready(item.channel)) {
        i += 1;
        continue;
      }
      if (!this.window.take()) {
        this.timer.set(this.window.waitMs(), () => this.pump());
        return;
      }
      this.pending.splice(i, 1);
      // A send that fails (socket just closed) is not retried: the event may or may not have left.
      this.send(item.channel, item.event, item.data);
    }
  }

  /** The channel was left: its events will never be sent. */
  forget(channel: string): void {
    for (let i = this.pending.length - 1; i >= 0; i -= 1) {
      if (this.pending[i]?.channel === channel) this.pending.splice(i, 1);
    }
  }

  clear(): void {
    this.pending.length = 0;
    this.timer.clear();
  }
}
