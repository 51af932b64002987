import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCallScript } from '../../src/server/sample-call.js';
import { findSpeechTool, synthesize } from '../../src/server/speech.js';
import { deskApi } from '../helpers/calls.js';
import { type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
const api = deskApi(() => desk.server.url);

beforeAll(async () => {
  desk = await startDesk();
});

afterAll(async () => {
  await desk?.close();
});

describe('the order note of a two-speaker call, read back from the store', () => {
  it("carries the service's summary, action items and entities, and the caller who is not the order's customer", async () => {
    const order = await desk.store.orders.get(85);
    const onRecord = `${order.billing.first_name} ${order.billing.last_name}`;
    expect(onRecord).not.toBe('Tom Baker');
    const tool = await findSpeechTool();
    expect(tool?.name).toBe('flite');
    // An agent (flite's slt) and a caller (kal16) who says he is Tom Baker, about someone else's order.
    const lines = sampleCallScript({
      orderNumber: '85',
      firstName: order.billing.first_name ?? '',
      lastName: order.billing.last_name ?? '',
      callerName: 'Tom Baker',
      mood: 'unhappy',
    });
    const wav = await readFile(await synthesize(tool!, lines));
    const call = await api.upload('tom-baker.wav', new Uint8Array(wav));
    const detail = await api.finished(call.id);
    expect(detail.error).toBeNull();
    const analysis = detail.analysis!;
    // Two voices, told apart by the emulator's diarization, with the roles the service named.
    const utterances = analysis.utterances!;
    expect(utterances[0]).toMatchObject({ speaker: 'Agent' });
    expect(utterances[0]!.text.toLowerCase()).toContain('thank you for calling');
    expect(new Set(utterances.map((u) => u.label)).size).toBe(2);
    const caller = utterances.filter((u) => u.speaker === 'Customer').map((u) => u.text.toLowerCase());
    expect(caller.join(' ')).toContain('tom baker');
    expect(caller.join(' ')).toContain('arrived broken');
    expect(utterances.filter((u) => u.speaker === 'Agent').some((u) => /refund today/i.test(u.text))).toBe(
      true,
    );
    // The overall sentiment counts the customer's sentences only.
    const customerSentences = analysis.sentences.filter((x) => x.speaker === 'Customer');
    const { POSITIVE, NEUTRAL, NEGATIVE } = analysis.counts;
    expect(POSITIVE + NEUTRAL + NEGATIVE).toBe(customerSentences.length);
    expect(analysis.sentences.length).toBeGreaterThan(customerSentences.length);
    expect(analysis.sentences.find((x) => /arrived broken/i.test(x.text))?.sentiment).toBe('NEGATIVE');

    expect(analysis.overall).toBe('NEGATIVE');
    expect(analysis.identity).toEqual({ spoken: 'Tom Baker', onRecord, orderNumber: '85', matches: false });

    const notes = (await desk.store.orders.notes.list(85)).data.filter((n) =>
      n.note.startsWith('Support call analysed'),
    );
    expect(notes).toHaveLength(1);
    const note = notes[0]!;
    // The page shows the note exactly as the store keeps it.
    expect(analysis.notes).toEqual([{ orderId: 85, orderNumber: '85', noteId: note.id, note: note.note }]);
    expect(note.customer_note).toBe(false);
    expect(note.note).toContain(
      `\nCaller identity: caller said Tom Baker; order #85 belongs to ${onRecord}.\n`,
    );
    expect(note.note).toContain('Overall sentiment: NEGATIVE');
    expect(note.note).toMatch(/\nCall summary: (?!none)\S/);
    expect(note.note).toMatch(/\nAction items:\n- \S/);
    expect(note.note).toMatch(/\nEntities: (?!none)\S/);
    for (const item of analysis.actionItems!) expect(note.note).toContain(`- ${item}`);
    expect(analysis.entities!.length).toBeGreaterThan(0);
    // The customer's unhappiness tags the order's customer (the complaint is about their order).
    expect(analysis.customerTagged).toBe(true);
    const tagged = await desk.store.customers.get(order.customer_id);
    expect(tagged.meta_data.find((m) => m.key === 'support_desk_unhappy')?.value).toBe('yes');
  }, 120_000);
});
