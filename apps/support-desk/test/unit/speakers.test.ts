import { describe, expect, it } from 'vitest';
import { insights } from '../../src/server/analysis/insights.js';
import { callerScore, identifySpeakers } from '../../src/server/analysis/speakers.js';
import { analyseSentiment, type TranscriptInput } from '../../src/server/analysis/summary.js';
import { callerIdentity } from '../../src/server/calls/link-store.js';

const u = (speaker: string, text: string, start: number, end: number) => ({ speaker, text, start, end });
const s = (speaker: string | null, sentiment: string, text: string, start: number, end: number) => ({
  speaker,
  sentiment,
  text,
  start,
  end,
  confidence: 0.9,
});

/** A long, cheerful agent and a short, angry customer: the agent speaks first, as `A`. */
function call(agent = 'A', customer = 'B'): TranscriptInput {
  return {
    id: 'tr_2',
    text: 'Thank you for calling the support desk. How can I help you? Hello, my name is Tom Baker. My order number 85 arrived broken, and I want a refund. I am sorry about that. I will send you a refund today, have a wonderful day.',
    audio_duration: 20,
    utterances: [
      u(agent, 'Thank you for calling the support desk. How can I help you?', 0, 4000),
      u(
        customer,
        'Hello, my name is Tom Baker. My order number 85 arrived broken, and I want a refund.',
        4600,
        9000,
      ),
      u(agent, 'I am sorry about that. I will send you a refund today, have a wonderful day.', 9600, 20000),
    ],
    sentiment_analysis_results: [
      s(agent, 'POSITIVE', 'Thank you for calling the support desk.', 0, 2500),
      s(agent, 'NEUTRAL', 'How can I help you?', 2500, 4000),
      s(customer, 'NEUTRAL', 'Hello, my name is Tom Baker.', 4600, 6000),
      s(customer, 'NEGATIVE', 'My order number 85 arrived broken, and I want a refund.', 6000, 9000),
      s(agent, 'NEUTRAL', 'I am sorry about that.', 9600, 11000),
      s(agent, 'POSITIVE', 'I will send you a refund today, have a wonderful day.', 11000, 20000),
    ],
  };
}

describe('telling the customer from the agent', () => {
  it('takes the voice that gives the order number and a name, not the one thanking for the call', () => {
    expect(identifySpeakers(call()).customer).toEqual({ label: 'B', by: 'cues' });
    expect(identifySpeakers(call('B', 'A')).customer).toEqual({ label: 'A', by: 'cues' });
    expect(callerScore('Thank you for calling, how can I help?')).toBeLessThan(0);
    expect(callerScore('My order number 85 arrived broken.')).toBeGreaterThan(0);
  });

  it("uses the customer's sentences only for the overall sentiment, however long the agent's are", () => {
    const a = analyseSentiment(call());
    expect(a.overall).toBe('NEGATIVE');
    expect(a.counts).toEqual({ POSITIVE: 0, NEUTRAL: 1, NEGATIVE: 1 });
    expect(a.sentences.map((x) => x.speaker)).toEqual([
      'Agent',
      'Agent',
      'Customer',
      'Customer',
      'Agent',
      'Agent',
    ]);
    expect(a.utterances!.map((x) => x.speaker)).toEqual(['Agent', 'Customer', 'Agent']);
    // Every sentence together reads positive: the agent's politeness would have hidden the complaint.
    const everyone = analyseSentiment({ ...call(), utterances: null });
    expect(everyone.customerSpeaker).toEqual({ label: null, by: 'none' });
    expect(everyone.overall).toBe('POSITIVE');
  });

  it("follows the service's speaker identification over the cues, as a mapping or as relabelled utterances", () => {
    const mapped = {
      ...call(),
      speech_understanding: {
        response: { speaker_identification: { mapping: { A: 'Customer', B: 'Agent' } } },
      },
    };
    expect(identifySpeakers(mapped).customer).toEqual({ label: 'A', by: 'service' });
    const relabelled = call('Agent', 'Customer');
    expect(identifySpeakers(relabelled).customer).toEqual({ label: 'Customer', by: 'service' });
    expect(analyseSentiment(relabelled).overall).toBe('NEGATIVE');
  });

  it('places a sentence without a speaker by the utterance it falls in', () => {
    const t = call();
    t.sentiment_analysis_results = t.sentiment_analysis_results!.map((x) => ({ ...x, speaker: null }));
    expect(analyseSentiment(t).sentences.map((x) => x.speaker)).toEqual([
      'Agent',
      'Agent',
      'Customer',
      'Customer',
      'Agent',
      'Agent',
    ]);
  });

  it('makes a single voice the customer, and a tie the second voice (support answers the phone)', () => {
    const single = identifySpeakers({
      utterances: [u('A', 'Thank you for calling. My order number 85 is late.', 0, 1)],
      speech_understanding: { response: { speaker_identification: { mapping: { A: 'Agent' } } } },
    });
    expect(single.customer).toEqual({ label: 'A', by: 'single' });
    expect(single.roles.get('A')).toBe('Customer');
    const tie = identifySpeakers({ utterances: [u('A', 'hello', 0, 1), u('B', 'hello', 2, 3)] });
    expect(tie.customer).toEqual({ label: 'B', by: 'cues' });
    expect(tie.roles.get('A')).toBe('Agent');
  });

  it('keeps a voice split in two by the diarizer on the customer side when it talks like a caller', () => {
    const split = identifySpeakers({
      utterances: [
        u('A', 'Thank you for calling, how can I help you?', 0, 1),
        u('B', 'My name is Tom Baker, my order number 85 is late.', 2, 3),
        u('C', 'I want a refund.', 4, 5),
      ],
    });
    expect([...split.roles]).toEqual([
      ['A', 'Agent'],
      ['B', 'Customer'],
      ['C', 'Customer'],
    ]);
  });
});

describe("the service's insights", () => {
  it('joins the summary sections, keeps the action items, and lists each entity once', () => {
    expect(
      insights({
        entities: [
          { entity_type: 'person_name', text: 'Tom Baker' },
          { entity_type: 'person_name', text: 'tom baker ' },
          { entity_type: 'order_number', text: '85' },
        ],
        speech_understanding: {
          response: {
            summarization: {
              summary: [
                { headline: 'Refund', text: 'Order 85 arrived broken.' },
                { text: 'A refund today.' },
              ],
            },
            action_items: { items: [{ action_item: 'Send a refund. ' }, { action_item: ' ' }] },
          },
        },
      }),
    ).toEqual({
      serviceSummary: 'Refund: Order 85 arrived broken. A refund today.',
      actionItems: ['Send a refund.'],
      entities: [
        { entity_type: 'person_name', text: 'Tom Baker' },
        { entity_type: 'order_number', text: '85' },
      ],
    });
    expect(insights({})).toEqual({ serviceSummary: null, actionItems: [], entities: [] });
  });
});

describe("the caller's name against the order's customer", () => {
  it('matches when every spoken word is in the name on record, without case or accents', () => {
    expect(callerIdentity('Jane', 'Jane Smith', '88').matches).toBe(true);
    expect(callerIdentity('Zoe Muller', 'Zoë Müller', '3').matches).toBe(true);
    expect(callerIdentity('Tom Baker', 'Amara Okafor', '85')).toEqual({
      spoken: 'Tom Baker',
      onRecord: 'Amara Okafor',
      orderNumber: '85',
      matches: false,
    });
    expect(callerIdentity('Jane Baker', 'Jane Smith', '88').matches).toBe(false);
    expect(callerIdentity(null, 'Jane Smith', '88').matches).toBeNull();
    expect(callerIdentity('Tom Baker', null, null).matches).toBeNull();
  });
});
