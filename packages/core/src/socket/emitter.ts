/**
 * A small typed event dispatcher: named listeners plus catch-all ones, with the verbs of @x/realtime's
 * public API (pusher-js's `bind` / `unbind`), which is built on it. `E` maps each event name to its arguments
 * as a tuple, e.g. `Emitter<{ closed: [SocketClose]; turn: [Turn] }>`; the default takes any name.
 */

export type Listener<Args extends unknown[] = any[]> = (...args: Args) => void;
/** A listener for every event: the event's name first, then its arguments. */
export type AnyListener = (event: string, ...args: any[]) => void;
/** What an `Emitter` can carry: each event's arguments as a tuple. */
export type EventMap<E> = { [K in keyof E]: unknown[] };

/** Where a throwing listener is reported: `log('error', message, error)`, as a `SocketLog` takes it. */
export type ListenerErrorLog = (level: 'error', message: string, error: unknown) => void;

export class Emitter<E extends EventMap<E> = Record<string, any[]>> {
  private readonly named = new Map<keyof E, Set<Listener>>();
  private readonly all = new Set<AnyListener>();

  /**
   * A throwing listener does not stop the others, so one bad handler cannot starve the rest of an event;
   * it is logged as `a "<event>" callback<where> threw`, `where` naming the emitter (` on orders`).
   */
  constructor(
    private readonly log: ListenerErrorLog,
    private readonly where = '',
  ) {}

  bind<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this {
    const set = this.named.get(event);
    if (set) set.add(listener as Listener);
    else this.named.set(event, new Set([listener as Listener]));
    return this;
  }

  /** Without a listener, removes every listener of `event`; without arguments, every named listener. */
  unbind<K extends keyof E & string>(event?: K, listener?: Listener<E[K]>): this {
    if (event === undefined) this.named.clear();
    else if (listener === undefined) this.named.delete(event);
    else this.named.get(event)?.delete(listener as Listener);
    return this;
  }

  /** Calls `listener` for every event, before the event's named listeners. */
  bindGlobal(listener: AnyListener): this {
    this.all.add(listener);
    return this;
  }

  /** Without a listener, removes every catch-all listener. */
  unbindGlobal(listener?: AnyListener): this {
    if (listener) this.all.delete(listener);
    else this.all.clear();
    return this;
  }

  emit<K extends keyof E & string>(event: K, ...args: E[K]): void {
    // Copies, so a listener that removes itself (or adds another) does not change this dispatch.
    for (const listener of [...this.all]) this.call(event, () => listener(event, ...args));
    const set = this.named.get(event);
    if (set) for (const listener of [...set]) this.call(event, () => listener(...args));
  }

  private call(event: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.log('error', `a "${event}" callback${this.where} threw`, error);
    }
  }
}
