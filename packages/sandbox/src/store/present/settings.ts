import type { Store } from '../data/store.js';
import type { Setting, SettingGroup } from '../settings/settings.js';

/**
 * WC_REST_Setting_Options_V2_Controller::prepare_item_for_response() + filter_setting(): the allowed keys in the
 * order the controller built them, `options` dropped when empty, `_links` self and collection.
 */
export function presentSetting(
  store: Store,
  groupId: string,
  s: Setting & { group_id?: string },
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: s.id,
    label: s.label,
    description: s.description,
    type: s.type,
  };
  if (s.default !== undefined) body.default = s.default;
  if (s.options && Object.keys(s.options).length > 0) body.options = s.options;
  if (s.tip !== undefined) body.tip = s.tip;
  body.value = s.value;
  if (s.group_id !== undefined) body.group_id = s.group_id;
  body._links = {
    self: [{ href: store.restUrl(`/settings/${groupId}/${s.id}`) }],
    collection: [{ href: store.restUrl(`/settings/${groupId}`) }],
  };
  return body;
}

/** WC_REST_Settings_V2_Controller::get_items(): wp_parse_args() over the group defaults, `_links.options`. */
export function presentGroup(store: Store, g: SettingGroup, all: SettingGroup[]): Record<string, unknown> {
  return {
    id: g.id,
    label: g.label,
    description: g.description ?? '',
    parent_id: g.parent_id ?? '',
    sub_groups: all.filter((o) => o.parent_id && o.parent_id === g.id).map((o) => o.id),
    _links: { options: [{ href: store.restUrl(`/settings/${g.id}`) }] },
  };
}
