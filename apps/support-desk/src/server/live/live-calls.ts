import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TranscriptionClient } from '@x/transcription';
import {
  type CallView,
  DeskEvents,
  type LiveCallStart,
  type LiveTranscriptView,
  type LiveTurnInput,
} from '../../shared/api.js';
import { liveTranscriptInput } from '../analysis/live.js';
import type { CallPipeline } from '../calls/pipeline.js';
import { type CallRecord, type CallRegistry, logName, view } from '../calls/registry.js';
import { HttpError, tooMany } from '../errors.js';
import type { Broadcaster } from '../services.js';
import { type LiveCallLimits, SlidingWindow } from './limits.js';
import { TurnRelay } from './relay.js';
import { LiveTranscript, TranscriptFullError } from './transcript.js';

export interface LiveCallsOptions {
  streaming: TranscriptionClient['streaming'];
  /** The WebSocket base the page connects to (the streaming host as `wss://` or `ws://`). */
  websocketUrl: string;
  speechModel: string;
  registry: CallRegistry;
  pipeline: CallPipeline;
  broadcaster: Broadcaster;
  limits: LiveCallLimits;
  logger: Pick<Console, 'info' | 'warn'>;
}

/** The rate the page's microphone glue delivers; the session is opened at it. */
const SAMPLE_RATE = 16_000;
/** After the session's longest life and the token's wait, a call nobody ended is ended (the tab closed). */
const EXPIRY_GRACE_MS = 30_000;

interface LiveSession {
  call: CallRecord;
  key: Buffer;
  transcript: LiveTranscript;
  relay: TurnRelay;
  relays: SlidingWindow;
  tokens: number;
  /** The capturing tab's realtime connection, left out of its own turns' pushes. */
  socketId: string | undefined;
  expiry: NodeJS.Timeout;
}

/**
 * The live calls in progress: each holds a call record (shown with the others), the key of the tab that
 * captures it, its transcript and the relay of its turns to the other tabs. A call ends when that tab says
 * so, or on its own once its session cannot be running any more; either way its final turns are analysed
 * like an uploaded call's transcript.
 */
export class LiveCalls {
  readonly #sessions = new Map<string, LiveSession>();
  /** Calls this instance ended whose analysis has not begun: stored as `live` still, yet not elsewhere. */
  readonly #ending = new Set<string>();
  /** Starts past the open-calls check and not yet in `#sessions` (awaiting their token and record). */
  #starting = 0;
  readonly #starts: SlidingWindow;

  constructor(private readonly o: LiveCallsOptions) {
    this.#starts = new SlidingWindow(o.limits.startsPerMinute, 60_000);
  }

  /** Opens a live call: a token for the page's socket (the key stays here), and the call record. */
  async start(name: string | undefined): Promise<LiveCallStart> {
    const { limits } = this.o;
    // Starts still awaiting their token count as open: ten requests at once must not all pass while none
    // is in `#sessions` yet.
    if (this.#sessions.size + this.#starting >= limits.maxOpen) {
      throw tooMany(
        `${limits.maxOpen} live calls are open already: end one first`,
        'too_many_live_calls',
        5000,
      );
    }
    const wait = this.#starts.take(Date.now());
    if (wait > 0)
      throw tooMany(`at most ${limits.startsPerMinute} live calls start per minute`, 'rate_limited', wait);
    this.#starting += 1;
    let token: Awaited<ReturnType<LiveCalls['token']>>;
    let call: CallRecord;
    try {
      token = await this.#token();
      call = await this.o.registry.create(
        name ?? `Live call ${new Date().toLocaleTimeString('en-GB')}`,
        'live',
        'live',
      );
    } finally {
      this.#starting -= 1;
    }
    const key = randomBytes(24);
    const session: LiveSession = {
      call,
      key,
      transcript: new LiveTranscript(limits),
      relay: new TurnRelay(
        (event) => this.o.broadcaster.push(DeskEvents.liveTurn, event, session.socketId),
        limits.partialIntervalMs,
      ),
      relays: new SlidingWindow(limits.relaysPerSecond, 1000),
      tokens: 1,
      socketId: undefined,
      expiry: this.#expireAfter(
        () => session,
        limits.abandonAfterMs ??
          (limits.maxSessionSeconds + limits.tokenExpiresSeconds) * 1000 + EXPIRY_GRACE_MS,
      ),
    };
    this.#sessions.set(call.id, session);
    await this.o.broadcaster.push(DeskEvents.callStatus, view(call));
    this.o.logger.info(`live call ${logName(call)} started`);
    return {
      call: view(call),
      token: token.token,
      expires_in_seconds: limits.tokenExpiresSeconds,
      max_session_duration_seconds: limits.maxSessionSeconds,
      streaming: {
        url: this.o.websocketUrl,
        params: { speech_model: this.o.speechModel, sample_rate: SAMPLE_RATE, format_turns: true },
      },
      key: key.toString('base64url'),
    };
  }

  /** A fresh token for the call's socket, when the page reconnects after a drop. */
  async token(id: string, key: string | undefined): Promise<{ token: string; expires_in_seconds: number }> {
    const session = await this.#session(id, key);
    if (session.tokens >= this.o.limits.tokensPerCall) {
      throw new HttpError(
        429,
        `this call has had ${session.tokens} tokens, as many as a call may`,
        'too_many_tokens',
      );
    }
    session.tokens += 1;
    const token = await this.#token();
    return { token: token.token, expires_in_seconds: this.o.limits.tokenExpiresSeconds };
  }

  /** Applies the turns the capturing tab relays, in order, and passes on what changed. */
  async relay(
    id: string,
    key: string | undefined,
    turns: readonly LiveTurnInput[],
    socketId?: string,
  ): Promise<number> {
    const session = await this.#session(id, key);
    // The call may have ended while this request waited: its transcript is stored, a turn now would be lost.
    if (this.#sessions.get(id) !== session) throw new HttpError(409, `live call ${id} has ended`, 'not_live');
    const wait = session.relays.take(Date.now());
    if (wait > 0)
      throw tooMany(`at most ${this.o.limits.relaysPerSecond} relays per second`, 'rate_limited', wait);
    if (socketId !== undefined) session.socketId = socketId;
    let changed = 0;
    for (const turn of turns) {
      let verdict: ReturnType<LiveTranscript['accept']>;
      try {
        verdict = session.transcript.accept(turn);
      } catch (error) {
        if (error instanceof TranscriptFullError)
          throw new HttpError(413, `${error.message}: end the call`, 'transcript_full');
        throw error;
      }
      if (verdict === 'ignored') continue;
      changed += 1;
      const event = {
        callId: id,
        turn_order: turn.turn_order,
        end_of_turn: turn.end_of_turn,
        turn_is_formatted: turn.turn_is_formatted,
        text: turn.text,
      };
      if (verdict === 'final') session.relay.final(event);
      else session.relay.partial(event);
    }
    return changed;
  }

  /** Ends the call (idempotent) and starts its analysis; resolves with the call as it now is. */
  async end(
    id: string,
    key: string | undefined,
    ending: { session_id?: string | undefined; audio_duration_seconds?: number | undefined },
  ): Promise<CallView> {
    const session = this.#sessions.get(id);
    if (!session) {
      const call = await this.o.registry.get(id);
      if (call?.source === 'live') return view(this.#notElsewhere(call));
      throw new HttpError(404, `no live call ${id}`, 'not_found');
    }
    this.#checkKey(session, key);
    await this.#end(session, ending);
    return view(session.call);
  }

  /** A running call's transcript so far, for a tab that opens during it. */
  transcript(id: string): LiveTranscriptView | null {
    return this.#sessions.get(id)?.transcript.view() ?? null;
  }

  /** Stops the timers and relays; calls still open stay as they are (the server is stopping). */
  close(): void {
    for (const session of this.#sessions.values()) {
      clearTimeout(session.expiry);
      void session.relay.close();
    }
    this.#sessions.clear();
  }

  async #end(
    session: LiveSession,
    ending: { session_id?: string | undefined; audio_duration_seconds?: number | undefined },
  ): Promise<void> {
    const { call, transcript } = session;
    // Taken out first: from here on, turns and a second end find no session.
    if (this.#sessions.get(call.id) !== session) return;
    this.#sessions.delete(call.id);
    // Until its analysis begins, the call is stored as `live`: it is this instance's, not another's.
    this.#ending.add(call.id);
    let analysing: Promise<void> | undefined;
    try {
      try {
        await this.o.registry.update(call, {
          live: transcript.view(),
          ...(ending.session_id ? { transcriptId: ending.session_id } : {}),
        });
      } catch (error) {
        // The database refused the ending (down): the call stays open, so the tab's retry ends it, or the
        // expiry, tried again later (a tab that is gone retries nothing); taken out for good, it would stay
        // `live` with its turns lost, and count against the open calls until a restart.
        this.#sessions.set(call.id, session);
        clearTimeout(session.expiry);
        session.expiry = this.#expireAfter(() => session, this.o.limits.abandonAfterMs ?? EXPIRY_GRACE_MS);
        throw error;
      }
      clearTimeout(session.expiry);
      // The turns pushed so far reach the other tabs before the call's status changes.
      await session.relay.close();
      const finals = transcript.finals();
      this.o.logger.info(`live call ${logName(call)} ended: ${finals.length} final turns`);
      if (finals.length === 0) {
        await this.o.registry.update(call, {
          status: 'error',
          error: 'the call ended before anything was transcribed',
        });
        await this.o.broadcaster.push(DeskEvents.callStatus, view(call));
        return;
      }
      analysing = this.o.pipeline.analyse(
        call,
        liveTranscriptInput(call.transcriptId ?? call.id, finals, ending.audio_duration_seconds),
        'live',
      );
    } finally {
      if (analysing) void analysing.finally(() => this.#ending.delete(call.id));
      else this.#ending.delete(call.id);
    }
  }

  /** Ends the call nobody ended after `ms` (its tab is gone); a failure is logged, and tried again. */
  #expireAfter(session: () => LiveSession, ms: number): NodeJS.Timeout {
    return setTimeout(
      () =>
        this.#end(session(), {}).catch((error) =>
          this.o.logger.warn(`live call ${logName(session().call)}: not ended: ${String(error)}`),
        ),
      ms,
    ).unref();
  }

  #token() {
    return this.o.streaming.createTemporaryToken({
      expires_in_seconds: this.o.limits.tokenExpiresSeconds,
      max_session_duration_seconds: this.o.limits.maxSessionSeconds,
    });
  }

  async #session(id: string, key: string | undefined): Promise<LiveSession> {
    const session = this.#sessions.get(id);
    if (!session) {
      const call = await this.o.registry.get(id);
      if (call?.source === 'live')
        throw new HttpError(409, `live call ${this.#notElsewhere(call).id} has ended`, 'not_live');
      throw new HttpError(404, `no live call ${id}`, 'not_found');
    }
    this.#checkKey(session, key);
    return session;
  }

  #checkKey(session: LiveSession, key: string | undefined): void {
    const given = Buffer.from(key ?? '', 'base64url');
    if (given.length !== session.key.length || !timingSafeEqual(given, session.key)) {
      throw new HttpError(
        403,
        'wrong or missing X-Live-Call-Key: only the tab that started the call writes it',
        'forbidden',
      );
    }
  }

  /**
   * `call`, which this instance does not hold, unless it is still live: then another desk instance on the
   * shared database holds its session (this one's own are adopted at startup), and saying it ended, or ending
   * nothing with a 202, would be a lie to the tab.
   */
  #notElsewhere(call: CallRecord): CallRecord {
    if (call.status !== 'live' || this.#ending.has(call.id)) return call;
    throw new HttpError(
      409,
      `live call ${call.id} is held by another desk instance: send its turns and its end there (sticky sessions)`,
      'live_elsewhere',
    );
  }
}
