import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { type RedactedAudio, redactedAudio } from './common.js';

/*
 * Bodies AssemblyAI POSTs to `webhook_url`. They are parsed like responses (loose, open enums):
 * a receiver that rejects a notification with a 4xx makes AssemblyAI give up on it for good.
 */

/** Final status a webhook reports. */
export const transcriptReadyStatus = openEnum(['completed', 'error']);
export type TranscriptReadyStatus = z.infer<typeof transcriptReadyStatus>;

const readyShape = z.looseObject({
  transcript_id: z.string(),
  status: transcriptReadyStatus,
});
/** Sent when a transcript completes or fails; fetch the transcript for the rest. */
export interface TranscriptReadyNotification extends z.infer<typeof readyShape> {}
export const transcriptReadyNotification: z.ZodMiniType<TranscriptReadyNotification> = readyShape;

/** Sent, after the ready notification, when `redact_pii_audio` produced a redacted copy. */
export interface RedactedAudioNotification extends RedactedAudio {}
export const redactedAudioNotification: z.ZodMiniType<RedactedAudioNotification> = redactedAudio;

/** Either notification; they share no required field, so the first that matches wins. */
export const transcriptWebhookNotification = z.union([readyShape, redactedAudio]);
export type TranscriptWebhookNotification = TranscriptReadyNotification | RedactedAudioNotification;
