import { APIPromise, BatchError, type RequestOptions, ValidationError, type ValidationIssue } from '@x/core';
import type { CheckedEvent, Contract, EventDataOf, EventNameOf } from '../../shared/contract.js';
import { channelKind } from '../../shared/names.js';
import type { RealtimeContext } from '../context.js';
import { encryptEventData } from '../encryption.js';
import { TriggerCoalescer } from '../internal/coalescer.js';
import {
  type BatchItem,
  type EventBody,
  type EventInput,
  type EventRules,
  encodeData,
  eventIssues,
  infoParam,
  MAX_EVENTS_PER_BATCH,
  payloadIssue,
  SERVER_TO_USER_PREFIX,
  throwIfAny,
} from '../internal/event-input.js';
import { type BatchResult, batchResult, type TriggerResult, triggerResult } from '../schemas/events.js';

export interface TriggerParams {
  /** Leave this connection out of the delivery (the sender's own socket, as pusher-js reports it). */
  socketId?: string | undefined;
  /** Attributes to return per channel, e.g. `['user_count', 'subscription_count']` (billed as an extra message). */
  info?: 'user_count' | 'subscription_count' | (string & {}) | ReadonlyArray<string> | undefined;
}

/** One event of `triggerBatch`, in the HTTP API's own spelling. `data` is JSON-encoded unless a string. */
export interface BatchEvent {
  channel: string;
  name: string;
  data: unknown;
  socket_id?: string | undefined;
  info?: string | undefined;
}

/**
 * `triggerBatch`'s events checked one by one against a contract: each event's `name` and `data` by its own
 * `channel`. An array typed as plain `BatchEvent[]` (a dynamic channel) is not checked.
 */
export type TypedBatch<C, T extends readonly BatchEvent[]> = {
  [I in keyof T]: T[I] extends { channel: infer Ch extends string; name: infer E extends string }
    ? Omit<T[I], 'name' | 'data'> & { name: EventNameOf<C, Ch>; data: EventDataOf<C, Ch, E> }
    : T[I];
};

/** `POST /events` and `POST /batch_events`: publishing. */
export class Events {
  readonly #context: RealtimeContext;
  readonly #coalescer: TriggerCoalescer;
  readonly #contract: Contract | undefined;

  /** `contract`: payloads are checked by its schemas before any request (none when validation is off). */
  constructor(context: RealtimeContext, contract?: Contract) {
    this.#context = context;
    this.#contract = contract;
    this.#coalescer = new TriggerCoalescer({
      single: (item) => this.#post(toEventBody(item), undefined).withResponse(),
      batch: (items) => this.#postBatch(items, undefined).withResponse(),
    });
  }

  /**
   * Publishes one event to 1..100 channels. A single-channel trigger without `info` or request options is
   * coalesced with the others of the same tick into `batch_events` calls (unless `coalesce: false`).
   */
  trigger(
    channels: string | readonly string[],
    name: string,
    data: unknown,
    params: TriggerParams = {},
    options?: RequestOptions,
  ): APIPromise<TriggerResult> {
    const list = typeof channels === 'string' ? [channels] : [...channels];
    const input: EventInput = { channels: list, name, data, socketId: params.socketId, info: params.info };
    const coalesce = this.#context.coalesce && list.length === 1 && params.info === undefined && !options;
    if (coalesce) {
      let item: Promise<BatchItem>;
      try {
        const prepare = () => this.#prepare({ ...input, channel: list[0]! }, this.#rules(), 'trigger input');
        const issues = this.#contractIssues([{ channel: list[0]!, name, data }]);
        if (issues instanceof Promise) item = issues.then(throwIn('trigger input')).then(prepare);
        else {
          throwIfAny('trigger input', issues);
          item = prepare();
        }
      } catch (error) {
        return new APIPromise(Promise.reject(error));
      }
      return new APIPromise(this.#coalescer.add(item));
    }
    return this.#publish(input, this.#rules(), options);
  }

  /** Publishes to the user's `#server-to-user-{id}` channel (pusher-js `user.bind`); needs a signed-in user. */
  sendToUser(
    userId: string,
    name: string,
    data: unknown,
    options?: RequestOptions,
  ): APIPromise<TriggerResult> {
    if (typeof userId !== 'string' || userId === '') {
      const error = new ValidationError('sendToUser input', [
        { path: 'userId', message: 'must be a non-empty string (the id the user signed in with)' },
      ]);
      return new APIPromise(Promise.reject(error));
    }
    // Sent as-is, never coalesced: batch_events taking `#server-to-user-` channels is undocumented.
    const input = { channels: [`${SERVER_TO_USER_PREFIX}${userId}`], name, data };
    return this.#publish(input, { ...this.#rules(), internalChannel: true }, options);
  }

  /**
   * Publishes several events, each to its own channel. More than 10 are split into calls of 10, sent in
   * order; their `batch` results are concatenated. If a call fails, the calls after it are not made and a
   * `BatchError` says how many events were published (`result`) and which call failed (`failures`).
   */
  async triggerBatch(events: readonly BatchEvent[], options?: RequestOptions): Promise<BatchResult> {
    const rules = this.#rules();
    if (!Array.isArray(events) || events.length === 0) {
      throwIfAny('triggerBatch input', [{ path: 'events', message: 'must be a non-empty array' }]);
    }
    const issues = events.flatMap((event, i) =>
      eventIssues(
        { channels: [event.channel], name: event.name, data: event.data, socketId: event.socket_id },
        rules,
        `${i}.`,
      ),
    );
    throwIfAny('triggerBatch input', issues);
    const checked = events.map((e, i) => ({
      channel: e.channel,
      name: e.name,
      data: e.data,
      prefix: `${i}.`,
    }));
    throwIfAny('triggerBatch input', await this.#contractIssues(checked));
    const items = await Promise.all(
      events.map((event, i) =>
        this.#prepare(
          {
            channel: event.channel,
            name: event.name,
            data: event.data,
            socketId: event.socket_id,
            info: event.info,
          },
          rules,
          'triggerBatch input',
          `${i}.`,
        ),
      ),
    );
    const combined: BatchResult = {};
    for (let start = 0; start < items.length; start += MAX_EVENTS_PER_BATCH) {
      try {
        const result = await this.#postBatch(items.slice(start, start + MAX_EVENTS_PER_BATCH), options);
        if (result.batch) combined.batch = [...(combined.batch ?? []), ...result.batch];
      } catch (error) {
        if (start === 0) throw error;
        throw new BatchError(
          `triggerBatch: events ${start}..${Math.min(start + MAX_EVENTS_PER_BATCH, items.length) - 1} failed (${(error as Error).message}); events 0..${start - 1} were published, the rest were not sent`,
          [{ from: start, error }],
          { published: start, ...combined },
        );
      }
    }
    return combined;
  }

  /**
   * The contract's problems with these events, each naming its event and channel (never the value), or a
   * Promise of them when a schema validates asynchronously. Empty without a contract.
   */
  #contractIssues(events: CheckedEvent[]): ValidationIssue[] | Promise<ValidationIssue[]> {
    return this.#contract?.checkAll(events) ?? [];
  }

  #rules(): EventRules {
    return { maxPayloadBytes: this.#context.maxPayloadBytes, hasMasterKey: !!this.#context.masterKey };
  }

  /** Checks an event, then encodes (and for encrypted channels encrypts) its data; throws synchronously on bad input. */
  #prepare(
    input: Omit<EventInput, 'channels'> & { channel: string },
    rules: EventRules,
    what: string,
    prefix = '',
  ): Promise<BatchItem> {
    throwIfAny(what, eventIssues({ ...input, channels: [input.channel] }, rules, prefix));
    const finish = (data: string): BatchItem => {
      throwIfAny(
        what,
        [payloadIssue(data, rules, `${prefix}data`)].filter((i) => i !== undefined),
      );
      const item: BatchItem = { channel: input.channel, name: input.name, data };
      if (input.socketId !== undefined) item.socket_id = input.socketId;
      const info = infoParam(input.info);
      if (info !== undefined) item.info = info;
      return item;
    };
    const { masterKey } = this.#context;
    if (channelKind(input.channel) === 'encrypted' && masterKey) {
      return encryptEventData(input.channel, input.data, masterKey).then(finish);
    }
    return Promise.resolve(finish(encodeData(input.data)));
  }

  /** A trigger sent as it is: to several channels, with `info`, with request options, or with coalescing off. */
  #publish(
    input: EventInput,
    rules: EventRules,
    options: RequestOptions | undefined,
  ): APIPromise<TriggerResult> {
    return this.#context.client.request(async () => ({
      method: 'POST' as const,
      path: `${this.#context.appPath}/events`,
      body: await this.#eventBody(input, rules),
      schema: triggerResult,
      what: 'trigger',
      options,
    }));
  }

  async #eventBody(input: EventInput, rules: EventRules): Promise<EventBody> {
    throwIfAny('trigger input', eventIssues(input, rules));
    const checked = input.channels.map((channel) => ({ channel, name: input.name, data: input.data }));
    throwIfAny('trigger input', await this.#contractIssues(checked));
    const [first] = input.channels;
    if (input.channels.length === 1 && first !== undefined) {
      return toEventBody(await this.#prepare({ ...input, channel: first }, rules, 'trigger input'));
    }
    // Several channels: never encrypted (eventIssues refused that), so the data is encoded once for all.
    const data = encodeData(input.data);
    throwIfAny(
      'trigger input',
      [payloadIssue(data, rules, 'data')].filter((i) => i !== undefined),
    );
    const event: EventBody = { name: input.name, data, channels: [...input.channels] };
    if (input.socketId !== undefined) event.socket_id = input.socketId;
    const info = infoParam(input.info);
    if (info !== undefined) event.info = info;
    return event;
  }

  #post(event: EventBody, options: RequestOptions | undefined): APIPromise<TriggerResult> {
    return this.#context.client.request({
      method: 'POST',
      path: `${this.#context.appPath}/events`,
      body: event,
      schema: triggerResult,
      what: 'trigger',
      options,
    });
  }

  #postBatch(items: BatchItem[], options: RequestOptions | undefined): APIPromise<BatchResult> {
    return this.#context.client.request({
      method: 'POST',
      path: `${this.#context.appPath}/batch_events`,
      body: { batch: items },
      schema: batchResult,
      what: 'triggerBatch',
      options,
    });
  }
}

const throwIn = (what: string) => (issues: ValidationIssue[]) => throwIfAny(what, issues);

function toEventBody(item: BatchItem): EventBody {
  const { channel, ...rest } = item;
  return { ...rest, channels: [channel] };
}
