import type { Reply } from '../../kit/reply.js';
import { uploadIdOf } from '../model/audio-source.js';
import { checkTranscriptParams } from '../model/params.js';
import { serviceTimestamp, type TranscriptRecord } from '../model/transcripts.js';
import { readParamsBody } from './params-body.js';
import { presentListItem, presentTranscript } from './present.js';
import { fail, json, LOOKUP_ERROR } from './respond.js';
import type { Call, TranscriptionService } from './service.js';

/** `POST /v2/transcript`: checks the body, queues the job, answers the transcript as `queued`. */
export async function createTranscript(service: TranscriptionService, call: Call): Promise<Reply> {
  const body = call.body ?? (await readParamsBody(call.request));
  if ('reply' in body) return body.reply;
  const checked = checkTranscriptParams(body.value);
  if ('error' in checked) return fail(400, checked.error);
  const uploadId = uploadIdOf(checked.params.audio_url);
  if (uploadId) {
    const upload = service.uploads.get(uploadId);
    if (upload && upload.key !== call.key) return fail(403, 'Cannot access uploaded file');
    if (!upload) return fail(400, 'Cannot access uploaded file: the upload does not exist or was deleted.');
  }
  const record = service.transcripts.create(call.key, checked.params, uploadId);
  try {
    // Journalled before the job can start: a transcript that cannot be saved must never run.
    service.save(record);
  } catch (error) {
    service.transcripts.forget(record.id);
    throw error;
  }
  service.jobs.submit(record);
  return json(presentTranscript(record));
}

export function getTranscript(service: TranscriptionService, call: Call, id: string): Reply {
  const record = service.transcripts.find(call.key, id);
  return record ? json(presentTranscript(record)) : fail(400, LOOKUP_ERROR);
}

/**
 * `DELETE /v2/transcript/{id}`: scrubs the transcript and removes its upload. A job still waiting or running
 * is stopped and ends as `error`, so a poller of it stops too.
 */
export async function deleteTranscript(
  service: TranscriptionService,
  call: Call,
  id: string,
): Promise<Reply> {
  const record = service.transcripts.find(call.key, id);
  if (!record) return fail(400, LOOKUP_ERROR);
  if (!record.deleted) {
    record.deleted = true;
    if (record.status === 'queued' || record.status === 'processing') {
      service.jobs.cancel(record);
      record.status = 'error';
      record.error = 'Deleted by user.';
      record.completed = serviceTimestamp();
    }
    record.result = null;
    service.save(record);
    if (record.upload_id) await service.uploads.delete(record.upload_id);
  }
  return json(presentTranscript(record));
}

const STATUSES = new Set(['queued', 'processing', 'completed', 'error']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /v2/transcript`: newest first, `prev_url` to older pages and `next_url` to newer ones. */
export function listTranscripts(service: TranscriptionService, call: Call): Reply {
  const q = call.query;
  const limitText = q.get('limit') ?? '10';
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > 200) {
    return fail(
      400,
      `Invalid query parameter: limit must be an integer between 1 and 200, got ${JSON.stringify(limitText)}.`,
    );
  }
  const status = q.get('status') ?? undefined;
  if (status !== undefined && !STATUSES.has(status)) {
    return fail(400, `Invalid query parameter: status must be one of queued, processing, completed, error.`);
  }
  const createdOn = q.get('created_on') ?? undefined;
  if (createdOn !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(createdOn)) {
    return fail(400, 'Invalid query parameter: created_on must be a date (YYYY-MM-DD).');
  }
  for (const name of ['before_id', 'after_id'] as const) {
    const value = q.get(name);
    if (value !== null && !UUID.test(value))
      return fail(400, `Invalid query parameter: ${name} must be a transcript id.`);
  }
  const throttled = q.get('throttled_only');
  if (throttled !== null && throttled !== 'true' && throttled !== 'false') {
    return fail(400, 'Invalid query parameter: throttled_only must be true or false.');
  }
  const page = service.transcripts.list(call.key, {
    limit,
    status,
    created_on: createdOn,
    before_id: q.get('before_id') ?? undefined,
    after_id: q.get('after_id') ?? undefined,
    throttled_only: throttled === 'true',
  });
  const base = service.baseUrl();
  const link = (params: Record<string, string>) => {
    const url = new URL(`${base}/v2/transcript`);
    url.searchParams.set('limit', String(limit));
    if (status) url.searchParams.set('status', status);
    if (createdOn) url.searchParams.set('created_on', createdOn);
    if (throttled === 'true') url.searchParams.set('throttled_only', 'true');
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  };
  const current = new URL(`${base}/v2/transcript`);
  current.search = q.toString();
  const oldest = page.items.at(-1);
  const newest = page.items[0];
  return json({
    page_details: {
      limit,
      result_count: page.items.length,
      current_url: current.toString(),
      prev_url: page.hasOlder && oldest ? link({ before_id: oldest.id }) : null,
      next_url: page.hasNewer && newest ? link({ after_id: newest.id }) : null,
    },
    transcripts: page.items.map((r: TranscriptRecord) => presentListItem(r, base)),
  });
}
