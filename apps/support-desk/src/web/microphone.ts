import { captureMicrophone, type MicrophoneCapture } from '@x/transcription/streaming';
import type { AudioSource } from './live-session.js';

/** Why the browser gave no microphone, in words a support agent can act on. */
function describeRefusal(error: unknown): Error {
  const name = (error as { name?: string })?.name;
  if (name === 'NotAllowedError') {
    return new Error('The microphone was refused: allow it for this page (the icon in the address bar).');
  }
  if (name === 'NotFoundError') return new Error('No microphone was found: plug one in and try again.');
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * This computer's microphone as the live call's audio: the permission asked first (before a call is
 * opened), then `@x/transcription`'s capture glue (an AudioWorklet, resampled to the session's rate).
 */
export function browserMicrophone(): AudioSource {
  let stream: MediaStream | null = null;
  let capture: MicrophoneCapture | null = null;
  return {
    async open() {
      if (!navigator.mediaDevices?.getUserMedia) {
        throw new Error(
          'This page cannot use the microphone: browsers allow it only on https or http://localhost.',
        );
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
        });
      } catch (error) {
        throw describeRefusal(error);
      }
    },
    async start(sampleRate, onAudio) {
      if (!stream) throw new Error('the microphone is not open');
      const started = await captureMicrophone({ stream, sampleRate, onAudio });
      // Stopped while the audio graph was being set up: it is not kept running.
      if (!stream) await started.stop();
      else capture = started;
    },
    async stop() {
      const running = capture;
      capture = null;
      // The stream was asked for here, so it is released here (the glue stops only streams it opened).
      for (const track of stream?.getTracks() ?? []) track.stop();
      stream = null;
      await running?.stop();
    },
  };
}
