import type { SentenceView } from '../../shared/api.js';

const WIDTH = 600;
const HEIGHT = 120;
const VALUE = { POSITIVE: 1, NEUTRAL: 0, NEGATIVE: -1 } as const;

/**
 * Sentiment over the call: one bar per sentence, as wide as it was long (up for positive, down for
 * negative, a sliver for neutral), and a line for the running duration-weighted mean.
 */
export function SentimentChart({ sentences, durationMs }: { sentences: SentenceView[]; durationMs: number }) {
  const total = Math.max(durationMs, sentences.at(-1)?.end ?? 0, 1);
  const x = (ms: number) => (ms / total) * WIDTH;
  const mid = HEIGHT / 2;
  const scale = mid - 8;
  let weighted = 0;
  let spoken = 0;
  const points = sentences.map((s) => {
    const weight = Math.max(s.end - s.start, 1);
    weighted += VALUE[s.sentiment] * weight;
    spoken += weight;
    return `${x(s.end).toFixed(1)},${(mid - (weighted / spoken) * scale).toFixed(1)}`;
  });
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label="Sentiment over the call"
      data-testid="sentiment-chart"
    >
      <line x1={0} x2={WIDTH} y1={mid} y2={mid} className="axis" />
      {sentences.map((s) => {
        const v = VALUE[s.sentiment];
        const h = v === 0 ? 3 : scale * s.confidence;
        return (
          <rect
            key={`${s.start}-${s.end}`}
            x={x(s.start)}
            width={Math.max(x(s.end) - x(s.start), 2)}
            y={v > 0 ? mid - h : v < 0 ? mid : mid - 1.5}
            height={h}
            className={`bar ${s.sentiment.toLowerCase()}`}
          >
            <title>{`${s.sentiment}: ${s.text}`}</title>
          </rect>
        );
      })}
      {points.length > 1 && <polyline points={points.join(' ')} className="trend" />}
      <text x={4} y={12} className="label">
        positive
      </text>
      <text x={4} y={HEIGHT - 4} className="label">
        negative
      </text>
    </svg>
  );
}
