import type { Store } from '../data/store.js';
import { phpEmpty } from '../runtime/numbers.js';
import { type GatewayDef, gatewayOrder, gatewaySettings } from '../settings/gateways.js';

/** The gateway object's title, description and enabled properties, read from its settings when it was built. */
export interface GatewayProps {
  title: unknown;
  description: unknown;
  enabled: unknown;
}

/**
 * WC_REST_Payment_Gateways_Controller::prepare_item_for_response() (v3: with method_supports) and get_settings().
 * `props` are the object's properties when they differ from its settings: update_item() changes them only for
 * the top-level `title`, `description` and `enabled`, so a change through `settings` shows in the next read.
 */
export function presentGateway(store: Store, g: GatewayDef, props?: GatewayProps): Record<string, unknown> {
  const values = gatewaySettings(store, g);
  const shown = props ?? values;
  const settings: Record<string, unknown> = {};
  for (const [id, f] of Object.entries(g.form_fields)) {
    if (!f.title || !f.type || id === 'enabled' || id === 'description') continue;
    const s: Record<string, unknown> = {
      id,
      label: f.label || f.title,
      description: f.description ?? '',
      type: f.type,
      value: phpEmpty(values[id]) ? '' : values[id],
      default: phpEmpty(f.default) ? '' : f.default,
      tip: f.description ?? '',
      placeholder: f.placeholder ?? '',
    };
    if (f.options && Object.keys(f.options).length > 0) s.options = f.options;
    settings[id] = s;
  }
  return {
    id: g.id,
    title: shown.title ?? '',
    description: shown.description ?? '',
    order: gatewayOrder(store)[g.id] ?? '',
    enabled: shown.enabled === 'yes',
    method_title: g.method_title,
    method_description: g.method_description,
    method_supports: g.supports,
    settings,
    _links: {
      self: [{ href: store.restUrl(`/payment_gateways/${g.id}`) }],
      collection: [{ href: store.restUrl('/payment_gateways') }],
    },
  };
}
