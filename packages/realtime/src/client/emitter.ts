import type { Log } from './log.js';

/**
 * The small event dispatcher behind channels, the connection and the user: named callbacks plus
 * catch-all ones. A throwing callback is logged (`where` names the emitter) and does not stop the others, so one bad
 * handler cannot starve the rest of an event.
 */
export type Callback = (...args: any[]) => void;
export type GlobalCallback = (event: string, data: unknown, ...rest: unknown[]) => void;

export class Emitter {
  private readonly named = new Map<string, Set<Callback>>();
  private readonly global = new Set<GlobalCallback>();

  constructor(
    private readonly log: Log,
    private readonly where = '',
  ) {}

  bind(event: string, callback: Callback): this {
    const set = this.named.get(event);
    if (set) set.add(callback);
    else this.named.set(event, new Set([callback]));
    return this;
  }

  /** Without a callback, removes every callback of `event`; without arguments, every named callback. */
  unbind(event?: string, callback?: Callback): this {
    if (event === undefined) this.named.clear();
    else if (callback === undefined) this.named.delete(event);
    else this.named.get(event)?.delete(callback);
    return this;
  }

  onAll(callback: GlobalCallback): void {
    this.global.add(callback);
  }

  offAll(callback?: GlobalCallback): void {
    if (callback) this.global.delete(callback);
    else this.global.clear();
  }

  emit(event: string, ...args: unknown[]): void {
    // Copies, so a callback that unbinds itself (or binds another) does not change this dispatch.
    for (const callback of [...this.global]) this.call(event, () => (callback as Callback)(event, ...args));
    const set = this.named.get(event);
    if (set) for (const callback of [...set]) this.call(event, () => callback(...args));
  }

  private call(event: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.log('error', `a "${event}" callback${this.where} threw`, error);
    }
  }
}
