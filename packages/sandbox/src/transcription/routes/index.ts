import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Reply } from '../../kit/reply.js';
import { fail } from './respond.js';
import type { Call, TranscriptionService } from './service.js';
import { createTranscript, deleteTranscript, getTranscript, listTranscripts } from './transcripts.js';
import { upload } from './upload.js';
import { transcriptView } from './views.js';

const VIEWS = new Set(['sentences', 'paragraphs', 'srt', 'vtt', 'word-search', 'redacted-audio']);

/** The v2 REST routes, by path below `/v2`. */
export async function dispatch(service: TranscriptionService, call: Call): Promise<Reply> {
  const [resource, id, view, ...rest] = call.segments;
  const method = call.method;
  if (rest.length > 0) return notFound();
  if (resource === 'upload' && id === undefined) {
    return method === 'POST' ? upload(service, call) : notAllowed();
  }
  if (resource !== 'transcript') return notFound();
  if (id === undefined) {
    if (method === 'POST') return createTranscript(service, call);
    if (method === 'GET' || method === 'HEAD') return listTranscripts(service, call);
    return notAllowed();
  }
  if (view === undefined) {
    if (method === 'GET' || method === 'HEAD') return getTranscript(service, call, id);
    if (method === 'DELETE') return deleteTranscript(service, call, id);
    return notAllowed();
  }
  if (!VIEWS.has(view)) return notFound();
  if (method !== 'GET' && method !== 'HEAD') return notAllowed();
  return transcriptView(service, call, id, view);
}

const notFound = () => fail(404, 'Not found');
const notAllowed = () => fail(405, 'Method not allowed');

/**
 * `GET /v2/redacted-audio/{id}`: the file behind `redacted_audio_url`. Like the service's pre-signed link it
 * needs no key: the transcript id in it is the capability.
 */
export async function serveRedactedAudio(service: TranscriptionService, id: string): Promise<Response> {
  const record = service.transcripts.get(id);
  const path = record && !record.deleted ? record.result?.redacted_audio_path : undefined;
  const notFound = () => new Response('Not found', { status: 404 });
  if (!path) return notFound();
  // Opened before its size is read, so a file removed meanwhile is a 404 rather than a cut-off answer.
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch {
    return notFound();
  }
  let size: number;
  try {
    ({ size } = await file.stat());
  } catch (error) {
    await file.close();
    throw error;
  }
  return new Response(Readable.toWeb(file.createReadStream()) as ReadableStream, {
    headers: { 'Content-Type': 'audio/wav', 'Content-Length': String(size) },
  });
}
