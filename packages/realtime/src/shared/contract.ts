/**
 * One declaration of a channel family's events, read by the server's `trigger` and the client's `bind` and
 * client events alike, so a payload that changes shape is a type error at both ends (pusher-js#529,
 * pusher-http-node#202). A payload is declared with a Standard Schema (zod 4, valibot, arktype: the
 * `~standard` interface, copied below as the spec asks, so no schema library is imported here) or with the
 * type-only `event<T>()`. No imports: the browser client reaches this file only when the app passes a contract,
 * so a client without one carries none of it.
 */

/** The Standard Schema v1 interface (standardschema.dev), the part this file uses. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** A payload declared by type alone: checked by the compiler, never at run time. */
export interface EventType<T> {
  /** Phantom: carries `T` for the compiler; absent at run time. */
  readonly '~event'?: T;
}

/** `event<T>()`: the payload's type, without a schema. */
export function event<T>(): EventType<T> {
  return {};
}

export type EventSpec = StandardSchemaV1<any, any> | EventType<any>;

/** Channel-name patterns (`private-order-{id}`, or an exact name) mapped to their events. */
export type ContractShape = Record<string, Record<string, EventSpec>>;

/** A problem found in a payload: `path` is where (`data.items.0.qty`), `message` what; never the value. */
export interface ContractIssue {
  path: string;
  message: string;
}

/** What `check` answers: null when the payload passes (or the event has no schema). */
export type Verdict = ContractIssue[] | null;

export interface Contract<S extends ContractShape = ContractShape> {
  readonly channels: S;
  /**
   * The payload's problems by the schema its channel and event declare, or null; a Promise when a schema
   * validates asynchronously. Never throws: a throwing schema is a problem of the payload.
   */
  check(channel: string, event: string, data: unknown): Verdict | Promise<Verdict>;
  /**
   * Every problem of several events, each issue naming its event and channel (never the value), `prefix`
   * placing it in a batch (`3.data.qty`); a Promise when a schema validates asynchronously. The server's check.
   */
  checkAll(events: ReadonlyArray<CheckedEvent>): ContractIssue[] | Promise<ContractIssue[]>;
  /**
   * @internal Fits a client's channel host with validation: a `gate` for received payloads and a checking
   * `clientEvent`, as `settings.validate` says.
   */
  guard(host: GuardedHost, settings: GuardSettings, invalid: InvalidError): void;
}

/** One event for `checkAll`. */
export interface CheckedEvent {
  channel: string;
  name: string;
  data: unknown;
  prefix?: string;
}

/** Where a refused payload is reported: the channel's emitter, as `pusher:validation_error`. */
export interface Reporter {
  emit(event: 'pusher:validation_error', data: { event: string; error: Error }): void;
}

/** Received payloads pass through this: `go` runs for a valid one, in arrival order per channel. */
export type Gate = (
  channel: string,
  event: string,
  data: unknown,
  reporter: Reporter,
  go: () => void,
) => void;

/** The client-event queue's `push`: false when its buffer is full. */
export type Push = (channel: string, event: string, data: unknown, reporter?: Reporter) => boolean;

/** The error a refused payload becomes (core's `ValidationError`, passed in so this module imports nothing). */
export type InvalidError = new (what: string, issues: ContractIssue[]) => Error;

/** @internal The client options the guard reads. */
export interface GuardSettings {
  validate?: ValidateMode | undefined;
  /** Client events at most waiting on an async schema at once, as the queue bounds the rest. */
  clientEventBuffer: number;
}

/** @internal The part of the client's channel host the guard fits. */
export interface GuardedHost {
  log(level: 'warn', message: string): void;
  gate?: Gate | undefined;
  clientEvent: Push;
}

/** Where a contract's schemas run: `send` before anything leaves, `receive` before a callback sees it. */
export type ValidateMode = 'send' | 'receive' | 'both' | 'none';

/** `'private-order-{id}'` becomes `` `private-order-${string}` ``; a name without braces stays exact. */
export type ChannelPattern<K extends string> = K extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${ChannelPattern<Tail>}`
  : K;

/**
 * The payload type an event's spec declares: a schema's input, since payloads are validated, never
 * transformed: the sender's value is what travels and what the receiver's callback gets.
 */
export type PayloadOf<Spec> =
  Spec extends StandardSchemaV1<infer Input, any> ? Input : Spec extends EventType<infer T> ? T : unknown;

/** Payload types by event name, for a contract's `channels` entry. */
export type EventMap<Events> = { [E in keyof Events & string]: PayloadOf<Events[E]> };

/**
 * The event map of the channel `Name` under contract `C`, or `never` when no pattern matches it (the
 * channel is then untyped, as without a contract). A dynamic `string` name matches no pattern.
 */
export type ContractEvents<C, Name extends string> =
  C extends Contract<infer S>
    ? string extends keyof S
      ? never // `Contract` itself (options typed without a particular contract): untyped
      : {
          [K in keyof S & string]: Name extends ChannelPattern<K> ? EventMap<S[K]> : never;
        }[keyof S & string]
    : never;

/** The event map a channel gets: the contract's, or `{}` (untyped) when it has none. */
export type ChannelEventsOf<C, Name extends string> = [ContractEvents<C, Name>] extends [never]
  ? {}
  : ContractEvents<C, Name>;

/** Event names a sender may use on `Name`: the declared ones, or any string on an untyped channel. */
export type EventNameOf<C, Name extends string> = [ContractEvents<C, Name>] extends [never]
  ? string
  : keyof ContractEvents<C, Name> & string;

/** The payload of `Event` on `Name`: the declared type, or `unknown` where nothing is declared. */
export type EventDataOf<C, Name extends string, Event extends string> = [ContractEvents<C, Name>] extends [
  never,
]
  ? unknown
  : ContractEvents<C, Name> extends infer M
    ? M extends Record<string, unknown>
      ? Event extends keyof M
        ? M[Event]
        : never
      : never
    : never;

const PATTERN_PART = /\{[^}]*\}/g;

/**
 * Whether `name` is one of the names a pattern key stands for. The literal parts are found left to right
 * (right for any placeholder), which is linear: a regular expression of `.*`s backtracks polynomially, and
 * `'{a}-{b}-{c}-{d}-{e}x'` took seconds on a long channel name. No character of a key is special but `{…}`.
 */
function matcher(key: string): (name: string) => boolean {
  const parts = key.split(PATTERN_PART);
  if (parts.length === 1) return (name) => name === key;
  const head = parts[0] as string;
  const tail = parts[parts.length - 1] as string;
  const middle = parts.slice(1, -1);
  return (name) => {
    const end = name.length - tail.length;
    if (end < head.length || !name.startsWith(head) || !name.endsWith(tail)) return false;
    let at = head.length;
    for (const part of middle) {
      const found = name.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}

/**
 * Declares the events of each channel family once. Keys are channel names, `{…}` standing for any text
 * (`'private-order-{id}'`, `'presence-room-{room}'`, `'#server-to-user-{id}'` for `sendToUser`); values map
 * event names to a Standard Schema (validated at run time where the client or server option `validate`
 * says) or to `event<T>()` (types only).
 */
export function defineContract<const S extends ContractShape>(channels: S): Contract<S> {
  const patterns = Object.keys(channels).map((key) => ({ key, test: matcher(key) }));
  // A name that several patterns match is checked against every schema its event has in them. Only an
  // event's own key counts: `toString` or `__proto__` must not find Object.prototype's.
  const specs = (channel: string, name: string): StandardSchemaV1[] =>
    patterns.flatMap(({ key, test }) => {
      const events = test(channel) ? channels[key] : undefined;
      const spec = events && Object.hasOwn(events, name) ? events[name] : undefined;
      // A schema may be a function (ArkType's are callable); a spec that is neither is no schema.
      const object = typeof spec === 'object' || typeof spec === 'function';
      return spec && object && '~standard' in spec ? [spec as StandardSchemaV1] : [];
    });
  const check: Contract<S>['check'] = (channel, name, data) => {
    const results: unknown[] = [];
    try {
      for (const schema of specs(channel, name)) results.push(schema['~standard'].validate(data));
    } catch (error) {
      return thrown(error);
    }
    // Any thenable is awaited: one that is not a native Promise must not pass for a result without issues.
    if (!results.some(isThenable)) return issuesOf(results);
    return Promise.all(results).then(issuesOf, thrown);
  };
  return {
    channels,
    check,
    checkAll: (events) => checkAll(check, events),
    guard: (host, settings, invalid) => guard(check, host, settings, invalid),
  };
}

const isThenable = (value: unknown): boolean =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** Received events at most waiting on a channel's async schemas; later ones are dropped and reported. */
const MAX_HELD_RECEIVED = 1000;

/** One channel's events in one direction waiting on async verdicts: `tail` settles after the last of them. */
interface Lane {
  tail: Promise<void>;
  held: number;
}

/**
 * The client's validation, here rather than in the channel so a client without a contract carries none
 * of it. An async verdict holds its channel's later payloads (that direction only) until it settles, so
 * callbacks see events, and the server gets client events, in the order they came. The wait is per
 * channel object (its emitter, the `reporter`) and bounded: a schema that never answers holds that
 * channel only, a channel subscribed again after `unsubscribe` starts afresh, and beyond the bound events
 * are refused (client events) or dropped and reported (received ones) rather than kept for ever.
 */
function guard(
  check: Contract['check'],
  host: GuardedHost,
  { validate = 'both', clientEventBuffer }: GuardSettings,
  invalid: InvalidError,
): void {
  const received = new WeakMap<object, Lane>();
  const sent = new WeakMap<object, Lane>();
  // Client events pushed without a channel's emitter share one lane.
  const unowned = {};
  /** Runs `then` with the verdict in turn; false when `limit` events already wait in that lane. */
  const inOrder = (
    lanes: WeakMap<object, Lane>,
    owner: object,
    limit: number,
    verdict: Verdict | Promise<Verdict>,
    then: (issues: Verdict) => void,
  ): boolean => {
    let lane = lanes.get(owner);
    if (!lane && !(verdict instanceof Promise)) {
      then(verdict);
      return true;
    }
    lane ??= { tail: Promise.resolve(), held: 0 };
    if (lane.held >= limit) return false;
    lanes.set(owner, lane);
    const current = lane;
    current.held += 1;
    const next = current.tail
      .then(() => verdict)
      .then((issues) => {
        current.held -= 1;
        then(issues);
      })
      // A callback that throws must not break the order of those behind it.
      .catch((error: unknown) => host.log('warn', `validated event: ${(error as Error)?.name} thrown`));
    current.tail = next;
    void next.then(() => current.tail === next && lanes.delete(owner));
    return true;
  };
  const report = (what: string, event: string, issues: ContractIssue[], reporter?: Reporter) => {
    const error = new invalid(what, issues);
    host.log('warn', error.message);
    reporter?.emit('pusher:validation_error', { event, error });
  };
  // Anything but an explicit opt-out validates (a misspelt mode must not turn checks off).
  if (validate !== 'none' && validate !== 'send') {
    host.gate = (channel, event, data, reporter, go) => {
      const what = `received event ${event} on ${channel}`;
      const queued = inOrder(received, reporter, MAX_HELD_RECEIVED, check(channel, event, data), (issues) =>
        issues ? report(what, event, issues, reporter) : go(),
      );
      if (!queued) {
        const message = `dropped: ${MAX_HELD_RECEIVED} events already wait on the schema`;
        report(what, event, [{ path: 'data', message }], reporter);
      }
    };
  }
  if (validate !== 'none' && validate !== 'receive') {
    const push = host.clientEvent;
    host.clientEvent = (channel, event, data, reporter) => {
      const what = `client event ${event} on ${channel}`;
      const verdict = check(channel, event, data);
      const owner = reporter ?? unowned;
      if (!sent.has(owner) && !(verdict instanceof Promise)) {
        if (verdict) throw new invalid(what, verdict);
        return push(channel, event, data, reporter);
      }
      // Bounded like the queue: an app sending faster than its schema answers is refused, not buffered for ever.
      return inOrder(sent, owner, clientEventBuffer, verdict, (issues) => {
        if (issues) report(what, event, issues, reporter);
        else if (!push(channel, event, data, reporter))
          host.log('warn', `${what} dropped: the buffer is full`);
      });
    };
  }
}

function checkAll(
  check: Contract['check'],
  events: ReadonlyArray<CheckedEvent>,
): ContractIssue[] | Promise<ContractIssue[]> {
  const found = events.map(({ channel, name, data, prefix = '' }) => {
    const named = (verdict: Verdict) =>
      (verdict ?? []).map((issue) => ({
        path: `${prefix}${issue.path}`,
        message: `${issue.message} (event ${name} on ${channel})`,
      }));
    const verdict = check(channel, name, data);
    return verdict instanceof Promise ? verdict.then(named) : named(verdict);
  });
  if (found.some((f) => f instanceof Promise)) return Promise.all(found).then((all) => all.flat());
  return (found as ContractIssue[][]).flat();
}

/** At most this many issues are kept, each path and message cut to a bounded length. */
const MAX_ISSUES = 20;
const MAX_TEXT = 200;

const cut = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/**
 * The schemas' issues in our shape. A result that is not one (no object, `issues` no array, a path element
 * null) is a problem of the schema, said without quoting it, and nothing here may throw: a getter that
 * throws would otherwise escape `check` (with a message that may quote the value).
 */
function issuesOf(results: unknown[]): Verdict {
  const issues: ContractIssue[] = [];
  try {
    for (const result of results) {
      const found = (result as StandardResult<unknown> | null | undefined)?.issues;
      if (found === undefined && result !== null && typeof result === 'object') continue;
      if (!Array.isArray(found)) {
        issues.push({ path: 'data', message: 'the schema gave no result' });
        continue;
      }
      for (const issue of found.slice(0, MAX_ISSUES)) {
        const path = Array.isArray(issue?.path) ? issue.path.slice(0, MAX_ISSUES) : [];
        const keys = path.map((p: unknown) =>
          String(p !== null && typeof p === 'object' ? (p as { key?: unknown }).key : p),
        );
        issues.push({ path: cut(['data', ...keys].join('.')), message: cut(String(issue?.message)) });
      }
    }
  } catch (error) {
    return thrown(error);
  }
  return issues[0] ? issues.slice(0, MAX_ISSUES) : null;
}

/** A schema that throws says nothing about where; only the error's name is kept, its message may quote the value. */
function thrown(error: unknown): Verdict {
  let kind = 'a non-error';
  try {
    if (error instanceof Error) kind = cut(String(error.name));
  } catch {}
  return [{ path: 'data', message: `the schema threw ${kind}` }];
}
