/**
 * WC_Admin_Report::calculate_current_range() for the REST sales reports (WC_REST_Report_Sales_V1_Controller::
 * setup_report()): the period's first and last day (the site runs in UTC), how totals are grouped, and the
 * interval the average divides by. Dates are midnights in ms.
 */
export interface ReportRange {
  start: number;
  end: number;
  groupBy: 'day' | 'month';
  /** chart_interval: days (or months) after the first one. */
  interval: number;
}

const DAY = 86_400_000;

function midnight(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

function addMonths(ms: number, n: number): number {
  // strtotime('+1 MONTH') keeps the day of the month and overflows into the next one (Jan 31 + 1 month = Mar 3).
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate());
}

function monthsBetween(from: number, to: number): number {
  let n = 0;
  for (let d = addMonths(from, 1); d <= to; d = addMonths(d, 1)) n++;
  return n;
}

/** `YYYY-MM-DD` as strtotime() reads it, in UTC; `null` for what it cannot read. */
function parseDay(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export function reportRange(
  p: { period?: string; date_min?: string; date_max?: string },
  now: number,
): ReportRange {
  const today = midnight(now);
  let start: number;
  let end: number;
  let groupBy: 'day' | 'month' = 'day';
  const period = p.period ?? '';
  if (period === '') {
    // A custom range; without dates, today alone. start_date is never before 20 years ago.
    const min = p.date_min ? parseDay(p.date_min) : null;
    const max = p.date_max ? parseDay(p.date_max) : null;
    const floor = addMonths(today, -240);
    if (p.date_min || p.date_max) {
      start = Math.max(floor, min ?? 0);
      end = max ?? today;
    } else {
      start = today;
      end = today;
    }
    groupBy = monthsBetween(start, end) > 3 ? 'month' : 'day';
  } else if (period === 'year') {
    start = Date.UTC(new Date(today).getUTCFullYear(), 0, 1);
    end = today;
    groupBy = 'month';
  } else if (period === 'last_month') {
    const d = new Date(today);
    start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
    end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0);
  } else if (period === 'month') {
    const d = new Date(today);
    start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    end = today;
  } else {
    // 'week' is read as '7day'.
    start = today - 6 * DAY;
    end = today;
  }
  const interval =
    groupBy === 'day'
      ? Math.max(0, Math.ceil((end - start) / DAY))
      : monthsBetween(Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth(), 1), end);
  return { start, end, groupBy, interval };
}

/** filter_range: `post_date >= start AND post_date < end + 1 day`. */
export function inRange(range: ReportRange, ms: number): boolean {
  return ms >= range.start && ms < range.end + DAY;
}

/** The period key of a date: `Y-m-d` by day, `Y-m` by month. */
export function periodKey(range: ReportRange, ms: number): string {
  const iso = new Date(ms).toISOString();
  return range.groupBy === 'day' ? iso.slice(0, 10) : iso.slice(0, 7);
}

/**
 * Every period of the range, in order (the keys of `totals`). A long custom range is grouped by month, as
 * calculate_current_range() does past 3 months, so the longest one the dates allow (20 years ago to
 * 9999-12-31) is ~96,000 months: WooCommerce builds all of them too, so does this, a key in a few steps each.
 */
export function periodKeys(range: ReportRange): string[] {
  const keys: string[] = [];
  const first = new Date(range.start);
  const [year, month, day] = [first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate()];
  for (let i = 0; i <= range.interval; i++) {
    // strtotime( "+{$i} DAY" / "+{$i} MONTH", start ): the day of the month overflows, as in addMonths().
    const d =
      range.groupBy === 'day' ? new Date(range.start + i * DAY) : new Date(Date.UTC(year, month + i, day));
    const ym = `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    keys.push(range.groupBy === 'day' ? `${ym}-${String(d.getUTCDate()).padStart(2, '0')}` : ym);
  }
  return keys;
}
