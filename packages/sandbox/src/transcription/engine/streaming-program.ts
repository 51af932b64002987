/**
 * The recogniser process of a streaming session: Debian's `python3-pocketsphinx` binding over the same
 * libpocketsphinx 5prealpha that `pocketsphinx_continuous` uses, one decoder per session, fed as audio arrives.
 * Why Python: the CLI prints only whole utterances, the binding gives partial hypotheses. Why a string run with
 * `python3 -c`: the sandbox's package then ships no file besides its JavaScript, and needs nothing new to build.
 *
 * stdin carries frames of 1 type byte and a 4-byte big-endian length, then the payload:
 * - `A`: 16 kHz mono s16le samples (an even number of bytes; Node keeps an odd trailing byte for the next frame);
 * - `E`: no payload; ends the utterance once the audio before it is recognised, and starts the next one.
 * End of stdin ends the process. stdout carries one JSON object a line:
 * - `{"type":"ready"}` once the model is loaded;
 * - `{"type":"update","words":[...],"audioMs":N,"inSpeech":B}` every 500 ms of audio and when the VAD flips;
 * - `{"type":"final","words":[...],"audioMs":N}` per `E`, in order;
 * - `{"type":"error","kind":"unavailable"|"failed","message":"..."}` before exiting.
 * A word is `[text, startMs, endMs, posterior]` as the decoder gives it (fillers and `(2)` suffixes included):
 * the cleaning is TypeScript's, where it is tested.
 */

export const FRAME_AUDIO = 0x41; // 'A'
export const FRAME_END = 0x45; // 'E'
export const FRAME_HEADER_BYTES = 5;
/** The largest payload the program accepts; Node sends at most `MAX_AUDIO_FRAME_BYTES`. */
export const MAX_FRAME_BYTES = 1 << 20;
/** 0.5 s of audio a frame: small enough that the program never waits long for a frame to arrive whole. */
export const MAX_AUDIO_FRAME_BYTES = 16_000;
export const SAMPLE_RATE = 16_000;

/*
 * Notes on the decoder, from running it (libpocketsphinx 0.8+5prealpha, Debian 12):
 * - Segment frames count from the start of the decoder's stream (`frame * 10 ms` is session time) only while
 *   an utterance holds one stretch of speech: at each new speech onset the decoder re-bases its frame count
 *   but keeps the frames it has searched, so after a pause inside an utterance every word comes out late by
 *   the length of the speech before the pause (measured: a sentence after a 0.9 s stretch of speech came out
 *   0.94 s late).
 *   So the program ends the decoder's utterance at every pause (the VAD going from speech to silence), as
 *   `pocketsphinx_continuous` does, and keeps that part's words; an update or a final is the parts so far
 *   plus the current one. This also makes a stream recognised as the batch engine recognises the same file.
 * - An utterance ended in the middle of speech can start its next one up to ~100 ms early; TypeScript clamps
 *   each utterance's words to the audio it covers.
 * - `seg().prob` is a log posterior only after `end_utt()` (from the lattice); in a partial it is 0, which
 *   `logmath.exp` makes 1.0.
 * - `end_frame` is the word's last frame, so a word ends at `(end_frame + 1) * 10 ms`.
 * - Audio is fed in slices of at most 100 ms, cut at every 500 ms boundary, so updates land exactly every
 *   500 ms of audio whatever sizes the frames come in, and a VAD change is seen within 100 ms of audio.
 */
export const PROGRAM = `
import json, os, struct, sys

AUDIO, END, MAX_FRAME = ${FRAME_AUDIO}, ${FRAME_END}, ${MAX_FRAME_BYTES}
RATE = ${SAMPLE_RATE}
UPDATE = RATE // 2
SLICE = RATE // 10


def emit(message):
    sys.stdout.write(json.dumps(message, separators=(',', ':')) + '\\n')
    sys.stdout.flush()


def main():
    try:
        from pocketsphinx.pocketsphinx import Decoder
    except ImportError as error:
        emit({'type': 'error', 'kind': 'unavailable', 'message': str(error)})
        return 3
    hmm, lm, dic = sys.argv[1:4]
    for what, path in (('acoustic model', hmm), ('language model', lm), ('dictionary', dic)):
        if not os.path.exists(path):
            emit({'type': 'error', 'kind': 'failed', 'message': 'the %s %s does not exist' % (what, path)})
            return 4
    config = Decoder.default_config()
    for flag, value in (('-hmm', hmm), ('-lm', lm), ('-dict', dic), ('-logfn', os.devnull)):
        config.set_string(flag, value)
    try:
        decoder = Decoder(config)
    except RuntimeError as error:
        message = 'pocketsphinx could not load the model %s (%s)' % (hmm, error)
        emit({'type': 'error', 'kind': 'failed', 'message': message})
        return 4
    frame_ms = 1000.0 / config.get_int('-frate')
    logmath = decoder.get_logmath()

    def words():
        return [[s.word, int(round(s.start_frame * frame_ms)), int(round((s.end_frame + 1) * frame_ms)),
                 logmath.exp(s.prob)] for s in decoder.seg()]

    state = {'consumed': 0, 'last': 0, 'speech': False}
    parts = []  # words of this utterance's stretches of speech already ended at a pause

    def utterance():
        return parts + words()

    def update():
        state['last'] = state['consumed']
        emit({'type': 'update', 'words': utterance(), 'audioMs': state['consumed'] * 1000 // RATE,
              'inSpeech': state['speech']})

    def feed(payload):
        view = memoryview(payload)
        offset, end = 0, len(view) - len(view) % 2
        while offset < end:
            due = UPDATE - (state['consumed'] - state['last'])
            samples = min(SLICE, due, (end - offset) // 2)
            decoder.process_raw(bytes(view[offset:offset + samples * 2]), False, False)
            offset += samples * 2
            state['consumed'] += samples
            speech = bool(decoder.get_in_speech())
            if state['speech'] and not speech:
                decoder.end_utt()
                parts.extend(words())
                decoder.start_utt()
            if speech != state['speech'] or samples == due:
                state['speech'] = speech
                update()

    stdin = sys.stdin.buffer
    decoder.start_utt()
    emit({'type': 'ready'})
    while True:
        header = stdin.read(5)
        if len(header) < 5:
            return 0
        kind, length = struct.unpack('>BI', header)
        if kind not in (AUDIO, END) or length > MAX_FRAME or (kind == END and length):
            emit({'type': 'error', 'kind': 'failed', 'message': 'bad frame (type %d, %d bytes)' % (kind, length)})
            return 2
        payload = stdin.read(length) if length else b''
        if len(payload) < length:
            return 0
        if kind == AUDIO:
            feed(payload)
            continue
        decoder.end_utt()
        emit({'type': 'final', 'words': utterance(), 'audioMs': state['consumed'] * 1000 // RATE})
        del parts[:]
        decoder.start_utt()
        state['last'] = state['consumed']


try:
    code = main()
except BrokenPipeError:
    code = 0
except Exception as error:
    try:
        emit({'type': 'error', 'kind': 'failed', 'message': '%s: %s' % (type(error).__name__, error)})
    except Exception:
        pass
    code = 1
os._exit(code)
`;
