import { DeskEvents } from '../../shared/api.js';
import type { Broadcaster } from '../services.js';
import type { CallPipeline } from './pipeline.js';
import { type CallRecord, type CallRegistry, logName, view } from './registry.js';

/** Why a call that a stopped desk left unfinished cannot go on, by the stage it was in. */
const LOST: Partial<Record<CallRecord['status'], string>> = {
  receiving: 'the desk stopped while receiving the recording: upload it again',
  uploading: 'the desk stopped while uploading the recording to the transcription service: upload it again',
  live: 'the desk stopped during the live call: its session and unsent turns were lost',
  // The analysis writes to the store (a note per order): run again, it could write a note twice.
  analysing: 'the desk stopped while analysing the call: its store notes may be missing',
};

/**
 * On startup, the calls a stopped desk left unfinished (this process's previous life, or on PostgreSQL
 * another instance that is gone): a call whose transcript was submitted is resumed (its job runs on at the
 * service; it is fetched, or polled to completion); any other is marked failed with what was lost, since
 * the audio file or live session it needed was in that process only. Resolves once each is stored.
 */
export async function resumeCalls(o: {
  registry: CallRegistry;
  pipeline: CallPipeline;
  broadcaster: Broadcaster;
  logger: Pick<Console, 'info' | 'warn'>;
}): Promise<{ resumed: number; failed: number }> {
  let resumed = 0;
  let failed = 0;
  for (const call of await o.registry.adoptOrphans()) {
    if (call.status === 'transcribing' && call.transcriptId !== null && call.source !== 'live') {
      resumed += 1;
      o.logger.info(`call ${logName(call)}: resuming transcript ${call.transcriptId}`);
      o.pipeline
        .onWebhook(call.transcriptId)
        .catch((error: unknown) => o.logger.warn(`call ${logName(call)}: not resumed: ${String(error)}`));
      continue;
    }
    failed += 1;
    const error = LOST[call.status] ?? `the desk stopped while the call was ${call.status}`;
    o.logger.warn(`call ${logName(call)}: ${error}`);
    await o.registry.update(call, { status: 'error', error });
    await o.broadcaster.push(DeskEvents.callStatus, view(call));
  }
  return { resumed, failed };
}
