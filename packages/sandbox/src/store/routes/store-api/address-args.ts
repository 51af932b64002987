/**
 * The address arguments of `cart/update-customer`, `checkout` and `checkout/{id}` as StoreApi/Schemas/V1/
 * AbstractAddressSchema.php checks them, as the args' own validate_callback and sanitize_callback (so before the
 * session and the nonce: args.ts): the country is upper-cased and must be one WooCommerce knows
 * (`invalid_country`); for a country with a list of states, the state is upper-cased, a state's name becomes its
 * code, and anything else is refused (`invalid_state`, naming the codes; ValidationUtils::format_state(),
 * validate_state()). A country without a list keeps the state as sent. The checks read the request's own
 * address: a state sent without its country is not checked.
 */

import { COUNTRIES, statesOf } from '../../data/geo.js';
import { invalidParams, type ParamIssue } from '../../runtime/errors.js';
import { escHtml } from '../../runtime/formatting.js';
import { isPlainObject } from '../../runtime/values.js';

/** ValidationUtils::get_states_for_country(): array_filter() of WC_Countries::get_states(). */
function statesFor(country: string): [string, string][] {
  return country ? (statesOf(country) ?? []).filter(([, name]) => name !== '') : [];
}

/** ValidationUtils::format_state(): a state's code or name, case-insensitively, as its code. */
function formatState(state: string, country: string): string {
  const states = statesFor(country);
  if (states.length === 0) return state;
  const upper = state.toUpperCase();
  const byName = states.find(([, name]) => name.toUpperCase() === upper);
  return byName ? byName[0].toUpperCase() : upper;
}

type Checked = { ok: true; address: Record<string, unknown> } | { ok: false; issue: ParamIssue };

/** One address: its sanitized copy, or the issue WordPress reports for it. */
function checkAddress(param: string, raw: Record<string, unknown>): Checked {
  const address = { ...raw };
  const country = typeof raw.country === 'string' ? raw.country.toUpperCase() : '';
  if (typeof raw.country === 'string') address.country = country;
  if (typeof raw.state === 'string') address.state = formatState(raw.state, country);
  if (country !== '' && !COUNTRIES.has(country)) {
    const message = `Invalid country code provided. Must be one of: ${[...COUNTRIES.keys()].join(', ')}`;
    return { ok: false, issue: { param, code: 'invalid_country', message } };
  }
  const state = typeof address.state === 'string' ? address.state : '';
  const states = statesFor(country);
  if (state !== '' && states.length > 0 && !states.some(([code]) => code.toUpperCase() === state)) {
    const codes = states.map(([code]) => code).join(', ');
    const message = `The provided state (${escHtml(state)}) is not valid. Must be one of: ${codes}`;
    return { ok: false, issue: { param, code: 'invalid_state', message } };
  }
  return { ok: true, address };
}

/** Checks and sanitizes `billing_address` and `shipping_address` in `params`, in place; throws the 400. */
export function checkAddressArgs(params: Record<string, unknown>): void {
  const issues: ParamIssue[] = [];
  for (const name of ['billing_address', 'shipping_address']) {
    const value = params[name];
    if (!isPlainObject(value)) continue;
    const r = checkAddress(name, value);
    if (r.ok) params[name] = r.address;
    else issues.push(r.issue);
  }
  if (issues.length > 0) throw invalidParams(issues);
}
