import { float32ToPcm16 } from './pcm.js';
import { LinearResampler } from './resample.js';

/*
 * Browser glue: microphone → AudioWorklet → 16-bit PCM at the session's rate. The worklet only copies
 * each 128-sample render quantum (channel 0; getUserMedia asks for mono) to the main thread, where the
 * resampler and the conversion run, so the worklet code stays a few lines that need no bundling: it is
 * loaded from a Blob URL.
 */
const WORKLET = `registerProcessor('x-pcm-capture', class extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel && channel.length) this.port.postMessage(channel.slice(0));
    return true;
  }
});`;

export interface MicrophoneOptions {
  /** Receives 16-bit PCM at `sampleRate`, e.g. `(pcm) => transcriber.sendAudio(pcm)`. */
  onAudio(pcm: Int16Array): void;
  /** The session's `sample_rate` (default 16000). */
  sampleRate?: number;
  /** A stream you already have; otherwise one is asked for with `getUserMedia` (and stopped with `stop()`). */
  stream?: MediaStream;
  /** Extra constraints for `getUserMedia` (echo cancellation and noise suppression are on by default). */
  constraints?: MediaTrackConstraints;
}

export interface MicrophoneCapture {
  /** The rate of the PCM delivered. */
  readonly sampleRate: number;
  /** The rate the browser captures at (often 48000). */
  readonly inputRate: number;
  /** Stops capturing; releases the microphone if this capture asked for it. */
  stop(): Promise<void>;
}

/** Captures the microphone as PCM for a transcriber. Browsers only (AudioWorklet and getUserMedia). */
export async function captureMicrophone(options: MicrophoneOptions): Promise<MicrophoneCapture> {
  const sampleRate = options.sampleRate ?? 16000;
  if (typeof AudioWorkletNode === 'undefined' || typeof navigator === 'undefined') {
    throw new Error('captureMicrophone needs a browser with AudioWorklet and getUserMedia');
  }
  const owned = !options.stream;
  const stream =
    options.stream ??
    (await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, ...options.constraints },
    }));
  const context = new AudioContext();
  // A context created after an await (getUserMedia's) may start `suspended` (Safari, Chrome's autoplay
  // policy): the worklet would never run and no audio would come. Not awaited: where the browser wants a
  // user gesture first, resume() stays pending until then, and the capture must not hang on it.
  if (context.state === 'suspended') context.resume().catch(() => {});
  const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
  try {
    await context.audioWorklet.addModule(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  const source = context.createMediaStreamSource(stream);
  const node = new AudioWorkletNode(context, 'x-pcm-capture');
  const resampler = new LinearResampler(context.sampleRate, sampleRate);
  node.port.onmessage = (event: MessageEvent<Float32Array>) => {
    options.onAudio(float32ToPcm16(resampler.process(event.data)));
  };
  source.connect(node);
  // Some browsers pull a worklet only when it leads to the destination; it outputs silence.
  node.connect(context.destination);
  let stopped = false;
  return {
    sampleRate,
    inputRate: context.sampleRate,
    async stop() {
      if (stopped) return;
      stopped = true;
      node.port.onmessage = null;
      source.disconnect();
      node.disconnect();
      if (owned) for (const track of stream.getTracks()) track.stop();
      await context.close();
    },
  };
}
