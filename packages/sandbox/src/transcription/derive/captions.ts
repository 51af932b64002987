import type { TranscriptWord } from './types.js';

export interface CaptionOptions {
  /**
   * The most characters (spaces included) in one caption. Absent, null, 0, negative or not a number means no
   * character limit: the SDKs leave the query parameter out when it is falsy, and the service documents no
   * default. Its examples without the parameter (openapi.yml SrtSubtitlesResponse/VttSubtitlesResponse, the
   * April 2020 captions blog post) have 57–79-character captions, so the default is not a small fixed number
   * such as 32; without a limit, CAPTION_TARGET_MS gives captions of that size.
   */
  chars_per_caption?: number | null;
}

/** One caption of `/srt` or `/vtt`; times are the first word's start and the last word's end. */
export interface Caption {
  start: number;
  end: number;
  text: string;
}

/**
 * The caption rule: words are added to a caption while the text stays within `chars_per_caption`, the pause
 * before the next word is under CAPTION_PAUSE_MS, and the caption spans less than CAPTION_TARGET_MS; a word
 * longer than the limit is a caption on its own. Sentence ends do not break captions.
 *
 * Why: the service's own output with chars_per_caption=60 (assemblyai-go-sdk testdata/transcript/subtitles.srt)
 * never exceeds 60 characters, runs captions across sentence ends ("the kneecap. It is caused by overuse,"),
 * breaks at every pause of a second or more, and mostly closes captions at 3–4 s even when the next word would
 * fit. The service's exact algorithm is not published; these three rules are the closest simple fit.
 */
export const CAPTION_TARGET_MS = 3_000;
export const CAPTION_PAUSE_MS = 1_000;

export function buildCaptions(words: readonly TranscriptWord[], options: CaptionOptions = {}): Caption[] {
  const limit = charLimit(options.chars_per_caption);
  const captions: Caption[] = [];
  let current: TranscriptWord[] = [];
  let length = 0;
  const flush = () => {
    const first = current[0];
    const last = current.at(-1);
    if (first && last) {
      captions.push({ start: first.start, end: last.end, text: current.map((word) => word.text).join(' ') });
    }
    current = [];
    length = 0;
  };
  for (const word of words) {
    const first = current[0];
    const last = current.at(-1);
    if (
      first &&
      last &&
      (length + 1 + word.text.length > limit ||
        word.start - last.end >= CAPTION_PAUSE_MS ||
        last.end - first.start >= CAPTION_TARGET_MS)
    ) {
      flush();
    }
    length += (current.length > 0 ? 1 : 0) + word.text.length;
    current.push(word);
  }
  flush();
  return captions;
}

/**
 * `GET /v2/transcript/{id}/srt`. Blocks are separated by one blank line and the file ends with a single
 * newline, as in the service's output (go-sdk testdata/transcript/subtitles.srt); no words is an empty file.
 */
export function toSrt(words: readonly TranscriptWord[], options: CaptionOptions = {}): string {
  const blocks = buildCaptions(words, options).map(
    (caption, i) =>
      `${i + 1}\n${formatSrtTimestamp(caption.start)} --> ${formatSrtTimestamp(caption.end)}\n${caption.text}`,
  );
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

/**
 * `GET /v2/transcript/{id}/vtt`. The spec's example prints cues with no blank lines between them, which WebVTT
 * parsers read as one cue; we keep the blank lines the format requires, laid out like the SRT. No words is the
 * header alone.
 */
export function toVtt(words: readonly TranscriptWord[], options: CaptionOptions = {}): string {
  const cues = buildCaptions(words, options).map(
    (caption) =>
      `${formatVttTimestamp(caption.start)} --> ${formatVttTimestamp(caption.end)}\n${caption.text}`,
  );
  return cues.length === 0 ? 'WEBVTT\n\n' : `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** `HH:MM:SS,mmm`; hours grow past two digits rather than wrap. */
export function formatSrtTimestamp(ms: number): string {
  const { hours, minutes, seconds, millis } = split(ms);
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)},${pad(millis, 3)}`;
}

/**
 * `MM:SS.mmm` under an hour, as the service writes it (openapi.yml VttSubtitlesResponse: `00:12.340`), and
 * `HH:MM:SS.mmm` from an hour on, since WebVTT allows no minutes past 59.
 */
export function formatVttTimestamp(ms: number): string {
  const { hours, minutes, seconds, millis } = split(ms);
  const short = `${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}`;
  return hours > 0 ? `${pad(hours, 2)}:${short}` : short;
}

function charLimit(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : Infinity;
}

function split(ms: number) {
  const total = Math.max(0, Math.round(ms));
  return {
    hours: Math.floor(total / 3_600_000),
    minutes: Math.floor(total / 60_000) % 60,
    seconds: Math.floor(total / 1000) % 60,
    millis: total % 1000,
  };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
