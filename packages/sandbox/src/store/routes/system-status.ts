import type { Store } from '../data/store.js';
import type { Specs } from '../rest/params.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, EDITABLE, READABLE, type Result, type Router, requireCap } from '../rest/router.js';
import { forbidden, RestError } from '../runtime/errors.js';
import {
  activePlugins,
  databaseInfo,
  environmentInfo,
  inactivePlugins,
  pagesInfo,
  postTypeCounts,
  securityInfo,
  settingsInfo,
  themeInfo,
} from '../system/status.js';
import { findTool, runTool, TOOLS, type ToolDef } from '../system/tools.js';

/** get_collection_params(): `context`, whose only value is `view`. */
const VIEW_ONLY: Specs = { context: { type: 'string', enum: ['view'] } };

/** The tool schema's fields are all writable, so PUT validates them (and ignores anything else, `confirm` too). */
const TOOL_SPECS: Specs = {
  id: { type: 'string' },
  name: { type: 'string' },
  action: { type: 'string' },
  description: { type: 'string' },
  success: { type: 'boolean' },
  message: { type: 'string' },
};

function status(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW_ONLY);
  requireCap(ctx, 'list');
  const store = ctx.store;
  return {
    status: 200,
    body: {
      environment: environmentInfo(store),
      database: databaseInfo(),
      active_plugins: activePlugins(),
      inactive_plugins: inactivePlugins(),
      dropins_mu_plugins: { dropins: [], mu_plugins: [] },
      theme: themeInfo(),
      settings: settingsInfo(store),
      security: securityInfo(store),
      pages: pagesInfo(store),
      post_type_counts: postTypeCounts(store),
    },
  };
}

function presentTool(store: Store, t: ToolDef, extra: Record<string, unknown> = {}) {
  return {
    id: t.id,
    name: t.name,
    action: t.action,
    description: t.description,
    ...extra,
    _links: { item: [{ href: store.restUrl(`/system_status/tools/${t.id}`), embeddable: true }] },
  };
}

function toolParam(ctx: Ctx): ToolDef {
  const tool = findTool(ctx.urlParams.id ?? '');
  if (!tool) throw new RestError(404, 'woocommerce_rest_system_status_tool_invalid_id', 'Invalid tool ID.');
  return tool;
}

function tools(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW_ONLY);
  requireCap(ctx, 'list');
  return { status: 200, body: TOOLS.map((t) => presentTool(ctx.store, t)) };
}

function tool(ctx: Ctx): Result {
  requireCap(ctx, 'view');
  return { status: 200, body: presentTool(ctx.store, toolParam(ctx)) };
}

/** update_item(): runs the tool and answers in the edit context, with `success` and `message`. */
function run(ctx: Ctx): Result {
  validateParams(ctx.params, TOOL_SPECS);
  if (!ctx.key)
    throw forbidden(false, 'woocommerce_rest_cannot_update', 'Sorry, you cannot update resource.');
  const t = toolParam(ctx);
  return { status: 200, body: presentTool(ctx.store, t, runTool(ctx.store, t.id)) };
}

export function registerSystemStatus(router: Router, _store: Store): void {
  router.add('/wc/v3/system_status', READABLE, status);
  router.add('/wc/v3/system_status/tools', READABLE, tools);
  router.add('/wc/v3/system_status/tools/(?P<id>[\\w-]+)', READABLE, tool);
  router.add('/wc/v3/system_status/tools/(?P<id>[\\w-]+)', EDITABLE, run);
}
