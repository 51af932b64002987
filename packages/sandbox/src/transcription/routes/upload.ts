import type { Reply } from '../../kit/reply.js';
import { fail, json } from './respond.js';
import type { Call, TranscriptionService } from './service.js';

/**
 * `POST /v2/upload`: the raw bytes of the request body, streamed to disk. The answer's `upload_url` is what
 * `audio_url` takes; it works only with the key that uploaded it.
 */
export async function upload(service: TranscriptionService, call: Call): Promise<Reply> {
  const declared = Number(call.request.headers.get('content-length') ?? 'NaN');
  if (declared > service.maxUploadBytes) return tooLarge(service.maxUploadBytes);
  const saved = await service.uploads.save(call.key, call.request.body, service.maxUploadBytes);
  if ('tooLarge' in saved) return tooLarge(service.maxUploadBytes);
  if ('empty' in saved)
    return fail(400, 'Upload error, the request body is empty: send the audio file as the body.');
  if ('truncated' in saved) {
    return fail(
      400,
      `Upload error, the upload ended before the end of the file (${saved.truncated.message}).`,
    );
  }
  return json({ upload_url: `${service.baseUrl()}/v2/upload/${saved.upload.id}` });
}

function tooLarge(max: number): Reply {
  return {
    ...fail(413, `Upload error, the file is larger than the maximum upload size of ${max} bytes.`),
    headers: { Connection: 'close' },
  };
}
