/**
 * WooCommerce's value formats, shared by the wire layer (parameters), the model (rules) and the presenters:
 * site-time dates (the emulated site runs on UTC), decimals as wc_format_decimal() prints them.
 */

import { numberFormat } from './numbers.js';

/** `YYYY-MM-DDTHH:MM:SS` without offset, as wc_rest_prepare_date_response(). The emulated site runs on UTC. */
export function wcDate(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().slice(0, 19);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses an RFC 3339 / WordPress date-time; strings without an offset are site time (UTC here). */
export function parseWcDate(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = DATE_RE.exec(value.trim());
  if (!m) return null;
  const zone = m[8] && m[8] !== 'z' && m[8] !== 'Z' ? m[8] : 'Z';
  const normalized = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${
    zone.length === 3 ? `${zone}:00` : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
  }`;
  const ms = Date.parse(normalized);
  return Number.isFinite(ms) ? ms : null;
}

const REST_DATE_RE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?$/;

/**
 * rest_parse_date(): an RFC 3339 date-time (no offset means UTC, as PHP runs on UTC under WordPress) to whole
 * seconds like strtotime(); `forceUtc` first replaces a trailing offset with +00:00. Anything else is null.
 */
export function restParseDate(value: string, forceUtc = false): number | null {
  const date = forceUtc ? value.replace(/[+-]\d+:?\d+$/, '+00:00') : value;
  if (!REST_DATE_RE.test(date)) return null;
  const ms = parseWcDate(date);
  return ms === null ? null : Math.floor(ms / 1000) * 1000;
}

/** wc_format_decimal($n, $dp): number_format() with `dp` decimals (any number of them), never "-0.00". */
export function money(n: number, dp = 2): string {
  return numberFormat(n, dp);
}

export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
