import * as z from 'zod/mini';
import { transcriptStatus } from './common.js';

/** Query of `GET /v2/transcript`. Strict, like every request schema: a misspelt filter is an error. */
const listParamsShape = z.strictObject({
  /** Transcripts per page, 1–200; the server's default is 10. */
  limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(200))),
  status: z.optional(transcriptStatus),
  /** A calendar date, `YYYY-MM-DD`. */
  created_on: z.optional(z.iso.date()),
  /** Transcripts created before this transcript id (older ones). */
  before_id: z.optional(z.string()),
  /** Transcripts created after this transcript id (newer ones). */
  after_id: z.optional(z.string()),
  /** @deprecated Only throttled transcripts; overrides `status`. */
  throttled_only: z.optional(z.boolean()),
});
export interface ListTranscriptParams extends z.infer<typeof listParamsShape> {}
export const listTranscriptParams: z.ZodMiniType<ListTranscriptParams> = listParamsShape;

const pageDetailsShape = z.looseObject({
  limit: z.number(),
  result_count: z.number(),
  current_url: z.string(),
  /** The page of OLDER transcripts (`before_id`), despite the name; null on the last page. */
  prev_url: z.optional(z.nullable(z.string())),
  /** The page of NEWER transcripts (`after_id`); null on the first page. */
  next_url: z.optional(z.nullable(z.string())),
});
export interface PageDetails extends z.infer<typeof pageDetailsShape> {}
export const pageDetails: z.ZodMiniType<PageDetails> = pageDetailsShape;

const listItemShape = z.looseObject({
  id: z.string(),
  /** The API URL of the full transcript. */
  resource_url: z.string(),
  status: transcriptStatus,
  // Left as strings: the service sends them without a UTC offset, so `new Date()` would read them
  // in the caller's local time zone.
  /** `YYYY-MM-DDTHH:MM:SS[.ffffff]`, no offset. */
  created: z.string(),
  /** `YYYY-MM-DDTHH:MM:SS[.ffffff]`, no offset; null until the job ends. */
  completed: z.optional(z.nullable(z.string())),
  audio_url: z.string(),
  error: z.optional(z.nullable(z.string())),
});
/** A transcript as the list shows it: no text, no options. */
export interface TranscriptListItem extends z.infer<typeof listItemShape> {}
export const transcriptListItem: z.ZodMiniType<TranscriptListItem> = listItemShape;

const transcriptListShape = z.looseObject({
  page_details: pageDetailsShape,
  /** Newest first; only the last 90 days. */
  transcripts: z.array(listItemShape),
});
export interface TranscriptList extends z.infer<typeof transcriptListShape> {}
export const transcriptList: z.ZodMiniType<TranscriptList> = transcriptListShape;
