import { expect } from 'vitest';
import type { CallDetail, CallView } from '../../src/shared/api.js';

/** The desk's API at `url`, as the page calls it. */
export function deskApi(url: () => string) {
  const json = async <T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${url()}${path}`, init);
    return { status: res.status, body: (await res.json()) as T };
  };
  return {
    json,
    list: async () => (await json<{ calls: CallView[] }>('/api/calls')).body.calls,
    get: (id: string) => json<CallDetail>(`/api/calls/${id}`),
    async sample(mood: 'happy' | 'unhappy' = 'unhappy', orderId?: number): Promise<CallView> {
      const { status, body } = await json<{ call: CallView }>('/api/calls/sample', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ mood, orderId }),
      });
      expect(status).toBe(202);
      return body.call;
    },
    async upload(name: string, audio: Uint8Array<ArrayBuffer>): Promise<CallView> {
      const { status, body } = await json<{ call: CallView }>(`/api/calls?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'audio/wav' },
        body: audio,
      });
      expect(status).toBe(202);
      return body.call;
    },
    /** The call once it is `done` or `error` (polled; the test's own timeout bounds the wait). */
    async finished(id: string): Promise<CallDetail> {
      for (;;) {
        const { status, body } = await json<CallDetail>(`/api/calls/${id}`);
        expect(status).toBe(200);
        if (body.status === 'done' || body.status === 'error') return body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
