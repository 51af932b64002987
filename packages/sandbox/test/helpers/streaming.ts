/**
 * Helpers for the streaming emulator's tests: a raw `ws` client that records every message, PCM made on the
 * spot (tones for speech, zeros for silence), and a scripted recogniser: a stand-in at the emulator's
 * recogniser seam that "hears" a fixed list of words as the audio covering them is written, so turn logic can
 * be checked word for word without PocketSphinx (the contract test uses the real one).
 */
import WebSocket from 'ws';
import type { RecognizerUpdate, StreamingRecognizer, StreamWord } from '../../src/index.js';

export interface Message {
  type: string;
  [field: string]: any;
}

export class StreamClient {
  readonly messages: Message[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.ws = new WebSocket(url, options);
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.ws.on('message', (raw, isBinary) => {
      const message: Message = isBinary ? { type: '(binary)' } : JSON.parse(raw.toString());
      this.messages.push(message);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  /** Opens a session with the key in `Authorization` (or none) and waits for `Begin`. */
  static async open(url: string, key: string | null, query = 'sample_rate=16000'): Promise<StreamClient> {
    const client = new StreamClient(
      `${url}?${query}`,
      key === null ? {} : { headers: { Authorization: key } },
    );
    await client.next('Begin');
    return client;
  }

  /** The first message (received or to come) that matches; rejects if the socket closes first. */
  next(match: string | ((m: Message) => boolean), timeoutMs = 20_000): Promise<Message> {
    const test = typeof match === 'string' ? (m: Message) => m.type === match : match;
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${String(match)} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.closed.then(() => setTimeout(() => reject(new Error(`closed before ${String(match)}`)), 50));
      this.#waiters.push({
        match: test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  of(type: string): Message[] {
    return this.messages.filter((m) => m.type === type);
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  sendAudio(pcm: Uint8Array): void {
    this.ws.send(pcm, { binary: true });
  }

  /** Sends `pcm` in `chunkMs` frames, `paceMs` apart (0: as fast as the socket takes them). */
  async stream(
    pcm: Uint8Array,
    options: { rate?: number; chunkMs?: number; paceMs?: number } = {},
  ): Promise<void> {
    const rate = options.rate ?? 16_000;
    const bytes = ((options.chunkMs ?? 100) * rate * 2) / 1000;
    for (let at = 0; at < pcm.length; at += bytes) {
      this.sendAudio(pcm.subarray(at, at + bytes));
      if (options.paceMs) await sleep(options.paceMs);
    }
  }

  close(): void {
    this.ws.close();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** s16le PCM of a 220 Hz tone at a quarter of full scale: the energy VAD's speech. */
export function tone(ms: number, rate = 16_000): Uint8Array {
  const samples = Math.round((ms * rate) / 1000);
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate));
  return new Uint8Array(out.buffer);
}

export function silence(ms: number, rate = 16_000): Uint8Array {
  return new Uint8Array(Math.round((ms * rate) / 1000) * 2);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Words of a script spread over one tone: `text` spoken from `start` to `end` ms of session audio. */
export const word = (text: string, start: number, end: number, confidence = 0.9): StreamWord => ({
  text,
  start,
  end,
  confidence,
});

/**
 * A recogniser that hears `script`: at every 500 ms of audio written it reports (within `write`), as the hypothesis of the
 * utterance in progress, the script's words that end within the audio written and start after the last
 * `endUtterance`; `endUtterance` answers the same words up to the audio written before it. Counts starts
 * and closes.
 */
export class ScriptedRecognizers {
  started = 0;
  closed = 0;

  constructor(private readonly script: StreamWord[]) {}

  factory = async (): Promise<StreamingRecognizer> => {
    this.started += 1;
    const script = this.script;
    let written = 0;
    let utteranceStart = 0;
    let lastUpdate = 0;
    let closed = false;
    const listeners: ((u: RecognizerUpdate) => void)[] = [];
    const heard = (upTo: number) => script.filter((w) => w.end <= upTo && w.start >= utteranceStart);
    return {
      write: (pcm) => {
        written += pcm.length / 32;
        // Synchronously, so a test's partials do not depend on how the socket batched the frames.
        while (written - lastUpdate >= 500 && !closed) {
          lastUpdate += 500;
          // In speech when a word of the script is being said at that moment (then nothing is final yet).
          const inSpeech = script.some((w) => w.start < lastUpdate && w.end + 100 > lastUpdate);
          const update = { words: heard(lastUpdate), audioMs: lastUpdate, inSpeech };
          for (const l of listeners) l(update);
        }
        return true;
      },
      onUpdate: (listener) => {
        listeners.push(listener);
      },
      // The audio written before the call is the utterance; what comes while it is finalised is the next one.
      endUtterance: async () => {
        const upTo = written;
        const words = heard(upTo);
        utteranceStart = upTo;
        await sleep(5);
        return words;
      },
      onError: () => {},
      close: () => {
        if (!closed) this.closed += 1;
        closed = true;
      },
    };
  };
}

/** The PCM of a 16-bit WAV file (flite writes 16 kHz mono): the bytes of its `data` chunk. */
export function wavPcm(wav: Uint8Array): Uint8Array {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = String.fromCharCode(...wav.subarray(at, at + 4));
    const length = view.getUint32(at + 4, true);
    if (id === 'data') return wav.subarray(at + 8, Math.min(wav.length, at + 8 + length));
    at += 8 + length + (length % 2);
  }
  throw new Error('no data chunk in the WAV file');
}

/** Pads `pcm` with silence to whole `chunkMs` chunks (the service refuses frames under 50 ms). */
export function wholeChunks(pcm: Uint8Array, chunkMs = 100, rate = 16_000): Uint8Array {
  const bytes = (chunkMs * rate * 2) / 1000;
  return concat(pcm, new Uint8Array((bytes - (pcm.length % bytes)) % bytes));
}
