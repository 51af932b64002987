import { join } from 'node:path';
import { DataFileError, Persister } from '../../kit/persistence.js';
import { type Entry, entryProblem, type Snapshot, snapshotProblem } from './durable-check.js';
import type { TranscriptRecord, Transcripts } from './transcripts.js';
import type { UploadRecord, Uploads } from './uploads.js';

/**
 * The transcription emulator's state in a data directory: uploads as files under `uploads/`, transcripts and
 * the upload index in `transcripts.json` with the kit's journal. Every change is journalled, and the emulator
 * answers no request before the changes made so far are on disk, so a transcript a client has seen (created,
 * completed, deleted) survives `kill -9`. Jobs that were waiting or running start again after a restart.
 */
export class DurableState {
  readonly #persister: Persister;
  #latest: Promise<void> = Promise.resolve();
  #failure: Error | null = null;

  private constructor(persister: Persister) {
    this.#persister = persister;
  }

  /** The uploads directory of a data directory. */
  static uploadsDir(dataDir: string): string {
    return join(dataDir, 'uploads');
  }

  /**
   * Loads what an earlier run left (snapshot, then newer journal entries) into `transcripts` and `uploads`,
   * then journals their changes. Answers the transcripts that had not finished, oldest first, to run again.
   */
  static async open(
    dataDir: string,
    transcripts: Transcripts,
    uploads: Uploads,
  ): Promise<{ state: DurableState; unfinished: TranscriptRecord[] }> {
    const file = join(dataDir, 'transcripts.json');
    const { persister, recovered } = await Persister.open(file);
    for (const note of recovered.notes) process.stderr.write(`x-sandbox: ${note}\n`);
    const records = new Map<string, TranscriptRecord>();
    const files = new Map<string, UploadRecord>();
    let fromSeq = 0;
    if (recovered.snapshot !== null) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(recovered.snapshot);
      } catch (error) {
        throw new DataFileError(file, `not JSON (${(error as Error).message})`);
      }
      const problem = snapshotProblem(parsed);
      if (problem) throw new DataFileError(file, problem);
      const snapshot = parsed as Snapshot;
      fromSeq = snapshot.seq;
      for (const r of snapshot.transcripts) records.set(r.id, r);
      for (const u of snapshot.uploads) files.set(u.id, u);
    }
    for (const { seq, entry, line } of recovered.journal) {
      if (seq <= fromSeq) continue;
      const problem = entryProblem(entry);
      if (problem) throw new DataFileError(persister.journalFile, `line ${line}: ${problem}`);
      const e = entry as Entry;
      if ('transcript' in e) records.set(e.transcript.id, e.transcript);
      else if ('upload' in e) files.set(e.upload.id, e.upload);
      else files.delete(e.deletedUpload);
    }
    for (const u of files.values()) uploads.restore(u);
    const unfinished: TranscriptRecord[] = [];
    for (const r of [...records.values()].sort((a, b) => a.seq - b.seq)) {
      if (r.status === 'queued' || r.status === 'processing') {
        r.status = 'queued';
        unfinished.push(r);
      }
      transcripts.restore(r);
    }
    const state = new DurableState(persister);
    await persister.start(
      (seq) =>
        JSON.stringify({
          version: 1,
          seq,
          transcripts: [...transcripts.all()],
          uploads: [...uploads.all()],
        } satisfies Snapshot),
      fromSeq,
    );
    uploads.onChange = (change) =>
      state.#append('upload' in change ? { upload: change.upload } : { deletedUpload: change.deleted });
    return { state, unfinished };
  }

  /** Journals the transcript as it is now. */
  saveTranscript(record: TranscriptRecord): void {
    this.#append({ transcript: record });
  }

  #append(entry: Entry): void {
    const written = this.#persister.append(entry);
    this.#latest = written.catch((error: Error) => {
      this.#failure = error;
    });
  }

  /** Resolves once every change so far is on disk; rejects if one could not be written. */
  async settled(): Promise<void> {
    await this.#latest;
    if (this.#failure) throw this.#failure;
  }

  /** Writes the whole state now (after a reset, which no journal entry describes). */
  snapshot(): Promise<void> {
    return this.#persister.compact();
  }

  close(): Promise<void> {
    return this.#persister.close();
  }
}
