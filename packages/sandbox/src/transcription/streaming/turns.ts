/**
 * Turn detection and the `Turn` messages of one session, driven by audio time (the 10 ms VAD frames of what
 * the client sent, not the wall clock) so a session decides the same way however fast its audio arrives.
 *
 * Universal-Streaming ("turn detection" and "message sequence" pages): partial `Turn`s as the recogniser's
 * hypothesis grows (finals as a prefix, `transcript` = the final words); after `min_turn_silence` of silence the
 * utterance ends (`utterance` filled, all words final); the turn ends once the end-of-turn confidence
 * (`eot.ts`) passes `end_of_turn_confidence_threshold`, or at `max_turn_silence`; threshold 1 leaves only the
 * acoustic end, 0 ends at `min_turn_silence`. With `format_turns` the final is sent again formatted.
 *
 * Universal-3 Pro ("u3-pro message sequence"): `SpeechStarted` before a turn's first message; no word-by-word
 * partials; after `min_turn_silence` the turn ends if the sentence is complete (terminal punctuation,
 * `end_of_turn_confidence` 1), else one partial per pause (words not final, ending in an em dash); at
 * `max_turn_silence` it ends regardless. Its end-of-turn message is always formatted.
 *
 * A turn needs 80 ms of speech since the last one ("minimum speech duration").
 *
 * Audio, `ForceEndpoint` and `Terminate` go through one queue, and the recogniser is written to from it, frame
 * by frame: when a pause ends an utterance, the queue waits for the recogniser's final words before the next
 * frame, so the utterance holds exactly the audio before the pause and every decision is taken at the audio
 * time it belongs to, however fast the audio arrived. Recogniser updates (partials) are applied as they come,
 * except while an utterance is being finalised, when they describe audio its final already covers.
 */
import type { VadFrame } from './audio.js';
import { completeness, endOfTurnConfidence, silenceToReach } from './eot.js';
import { speechStartedMessage, turnMessage } from './messages.js';
import type { TurnProfile, TurnSettings } from './params.js';
import type { RecognizerUpdate, StreamWord } from './recognizer.js';
import {
  finalTurns,
  partialTurn,
  type TurnBody,
  U3_COMPLETE,
  u3PartialTurn,
  utteranceTurn,
} from './turn-messages.js';
import { TurnWords } from './turn-words.js';

const MIN_SPEECH_MS = 80;
/**
 * Audio waiting in the queue past which the recogniser is deemed stuck (it has not finished an utterance in
 * that long): the session ends with a server error rather than holding audio without bound.
 */
const MAX_QUEUED_FRAMES = 3000; // 30 s

export interface TurnContext {
  profile: TurnProfile;
  /** Read at every decision, so `UpdateConfiguration` applies from the next frame. */
  settings(): TurnSettings;
  speakerLabels: boolean;
  languageDetection: boolean;
  /** Feeds the recogniser (16 kHz mono s16le). */
  write(pcm: Uint8Array): void;
  endUtterance(): Promise<StreamWord[]>;
  send(text: string): void;
  /** A step failed (the recogniser died): the session ends with a server error. */
  fail(error: unknown): void;
}

type Step =
  | { kind: 'audio'; frames: readonly VadFrame[] }
  | { kind: 'finish'; done: () => void; finished: Promise<void> };

export class TurnTracker {
  readonly #words = new TurnWords();
  #turnOrder = 0;
  readonly #queue: Step[] = [];
  #queuedFrames = 0;
  #pumping = false;
  #failed = false;
  #audioMs = 0;
  #speaking = false;
  #lastSpeechEnd = 0;
  /** Speech since the last end of turn. */
  #turnSpeechMs = 0;
  /** Speech since the last end of utterance (what the next `endUtterance` will finalise). */
  #utteranceOpen = false;
  /** Set once this pause's utterance is committed: the end-of-turn check can run. */
  #completeness: number | undefined;
  /** The last committed utterance, until a message has carried it in `utterance`. */
  #unsentUtterance: StreamWord[] | undefined;
  #speechStarted = false;
  #committing = false;

  constructor(private readonly context: TurnContext) {}

  get turnOrder(): number {
    return this.#turnOrder;
  }

  /** 10 ms frames of 16 kHz audio, in order: written to the recogniser and measured, in turn. */
  audio(frames: readonly VadFrame[]): void {
    if (frames.length === 0 || this.#failed) return;
    this.#queuedFrames += frames.length;
    if (this.#queuedFrames > MAX_QUEUED_FRAMES) {
      this.#failed = true;
      this.context.fail(new Error('the recogniser is not keeping up: 30 s of audio waits for it'));
      return;
    }
    this.#push({ kind: 'audio', frames });
  }

  /** A recogniser update: the hypothesis of the utterance in progress. */
  update(update: RecognizerUpdate): void {
    if (this.#committing || this.#failed) return;
    this.#words.update(update.words, update.inSpeech);
    if (this.context.profile === 'universal') this.#sendPartial();
  }

  /** `ForceEndpoint`: the turn ends now, with whatever was said before it. */
  forceEndpoint(): Promise<void> {
    // Back to back, with no audio between them, they end the same turn: one step for all, so a client's
    // flood of them behind a busy recogniser costs nothing (audio has its own bound, MAX_QUEUED_FRAMES).
    const last = this.#queue.at(-1);
    if (last?.kind === 'finish') return last.finished;
    let done = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.#push({ kind: 'finish', done, finished });
    return finished;
  }

  /** At `Terminate` (or any end of session that answers): the last turn is sent if it has words. */
  flush(): Promise<void> {
    return this.forceEndpoint();
  }

  #push(step: Step): void {
    this.#queue.push(step);
    if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      for (let step = this.#queue.shift(); step; step = this.#queue.shift()) {
        if (this.#failed) {
          if (step.kind === 'finish') step.done();
          continue;
        }
        try {
          if (step.kind === 'audio') {
            this.#queuedFrames -= step.frames.length;
            await this.#frames(step.frames);
          } else {
            await this.#finish();
            step.done();
          }
        } catch (error) {
          this.#failed = true;
          if (step.kind === 'finish') step.done();
          this.context.fail(error);
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  async #frames(frames: readonly VadFrame[]): Promise<void> {
    let unwritten: Int16Array[] = [];
    const write = () => {
      if (unwritten.length === 0) return;
      const pcm = new Int16Array(unwritten.reduce((n, f) => n + f.length, 0));
      let at = 0;
      for (const f of unwritten) {
        pcm.set(f, at);
        at += f.length;
      }
      unwritten = [];
      this.context.write(new Uint8Array(pcm.buffer));
    };
    for (const frame of frames) {
      unwritten.push(frame.samples);
      const settings = this.context.settings();
      this.#audioMs = frame.endMs;
      if (frame.speech) {
        if (this.context.profile === 'u3' && !this.#speechStarted) {
          this.#speechStarted = true;
          this.context.send(speechStartedMessage(frame.endMs - 10, frame.probability));
        }
        this.#speaking = true;
        this.#turnSpeechMs += 10;
        this.#lastSpeechEnd = frame.endMs;
        this.#utteranceOpen = true;
        this.#completeness = undefined;
        continue;
      }
      this.#speaking = false;
      if (this.#turnSpeechMs < MIN_SPEECH_MS) continue;
      const silence = frame.endMs - this.#lastSpeechEnd;
      if (this.#utteranceOpen && silence >= settings.min_turn_silence) {
        write();
        await this.#pause(silence);
      } else if (this.#completeness !== undefined && silence >= this.#endSilence(settings)) {
        this.#endTurn(silence);
      }
    }
    write();
  }

  /** `ForceEndpoint` or the end of the session: what is open is finalised, and the turn ends. */
  async #finish(): Promise<void> {
    if (this.#utteranceOpen || this.#words.open) await this.#commit();
    this.#endTurn(this.#silence());
  }

  /** Silence after which the current turn ends, given its committed words and the settings now. */
  #endSilence(settings: TurnSettings): number {
    const c = this.#completeness ?? 0;
    const { min_turn_silence: min, max_turn_silence: max } = settings;
    if (this.context.profile === 'u3') return c >= U3_COMPLETE ? min : max;
    const semantic = silenceToReach(c, settings.end_of_turn_confidence_threshold, max);
    return Math.min(max, Math.max(min, semantic));
  }

  async #commit(): Promise<StreamWord[]> {
    this.#utteranceOpen = false;
    this.#committing = true;
    let finals: StreamWord[];
    try {
      finals = await this.context.endUtterance();
    } finally {
      this.#committing = false;
    }
    const utterance = this.#words.commit(finals);
    if (utterance.length > 0) this.#unsentUtterance = utterance;
    return utterance;
  }

  /** A pause of `min_turn_silence`: the utterance ends; the turn may end with it. */
  async #pause(silence: number): Promise<void> {
    await this.#commit();
    if (this.#words.empty) {
      // Sound without words (a cough, noise): no turn to report, and the next speech starts afresh.
      this.#turnSpeechMs = 0;
      this.#speechStarted = false;
      return;
    }
    this.#completeness = completeness(this.#words.committed);
    if (silence >= this.#endSilence(this.context.settings())) {
      this.#endTurn(silence);
      return;
    }
    const committed = this.#words.committed;
    if (this.context.profile === 'u3') {
      this.#send(u3PartialTurn(committed, this.context));
      return;
    }
    const turn = utteranceTurn(
      committed,
      this.#takeUtterance() ?? [],
      this.#confidence(committed, silence),
      this.context,
    );
    this.#words.changed(turn.words);
    this.#send(turn);
  }

  #sendPartial(): void {
    const entries = this.#words.partial();
    if (entries.length === 0) return;
    const words = entries.map((e) => e.word);
    const turn = partialTurn(entries, this.#confidence(words, this.#silence()), this.context);
    if (this.#words.changed(turn.words)) this.#send(turn);
  }

  #send(turn: TurnBody): void {
    this.context.send(turnMessage({ turn_order: this.#turnOrder, ...turn }));
  }

  #takeUtterance(): StreamWord[] | undefined {
    const utterance = this.#unsentUtterance;
    this.#unsentUtterance = undefined;
    return utterance;
  }

  /** Ends the turn with its committed words (none: nothing to end), then starts the next one. */
  #endTurn(silence: number): void {
    const committed = [...this.#words.committed];
    const utterance = this.#takeUtterance();
    this.#words.reset();
    this.#completeness = undefined;
    this.#turnSpeechMs = 0;
    this.#speechStarted = false;
    if (committed.length === 0) return;
    const options = {
      u3: this.context.profile === 'u3',
      formatTurns: this.context.settings().format_turns,
      confidence: this.#confidence(committed, silence),
    };
    for (const turn of finalTurns(committed, utterance, options, this.context)) this.#send(turn);
    this.#turnOrder += 1;
  }

  #silence(): number {
    return this.#speaking ? 0 : Math.max(0, this.#audioMs - this.#lastSpeechEnd);
  }

  #confidence(words: readonly StreamWord[], silence: number): number {
    return endOfTurnConfidence(words, {
      speaking: this.#speaking && silence === 0,
      silenceMs: silence,
      maxTurnSilence: this.context.settings().max_turn_silence,
    });
  }
}
