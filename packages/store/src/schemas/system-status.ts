import * as z from 'zod/mini';
import { links } from './common.js';

const section = z.record(z.string(), z.unknown());

const environmentShape = z.looseObject({
  home_url: z.string(),
  site_url: z.string(),
  version: z.string(),
  wp_version: z.string(),
  wp_multisite: z.boolean(),
  php_version: z.string(),
  mysql_version: z.nullable(z.string()),
});
/** Server and WordPress facts (versions, limits, what the server can reach); the main ones typed. */
export interface SystemStatusEnvironment extends z.infer<typeof environmentShape> {}

const settingsShape = z.looseObject({
  api_enabled: z.boolean(),
  force_ssl: z.boolean(),
  currency: z.string(),
  currency_symbol: z.string(),
  currency_position: z.string(),
  thousand_separator: z.string(),
  decimal_separator: z.string(),
  number_of_decimals: z.number(),
  geolocation_enabled: z.boolean(),
});
export interface SystemStatusSettings extends z.infer<typeof settingsShape> {}

const pluginShape = z.looseObject({
  plugin: z.string(),
  name: z.string(),
  version: z.string(),
});

/**
 * GET /system_status: every section is optional in the type, since `_fields` asks for some of them only.
 * Sections the SDK does not model in detail are open records.
 */
export const systemStatus = z.looseObject({
  environment: z.optional(environmentShape as z.ZodMiniType<SystemStatusEnvironment>),
  database: z.optional(section),
  active_plugins: z.optional(z.array(pluginShape)),
  inactive_plugins: z.optional(z.array(pluginShape)),
  dropins_mu_plugins: z.optional(section),
  theme: z.optional(section),
  settings: z.optional(settingsShape as z.ZodMiniType<SystemStatusSettings>),
  security: z.optional(z.looseObject({ secure_connection: z.boolean(), hide_errors: z.boolean() })),
  pages: z.optional(z.array(section)),
  post_type_counts: z.optional(
    z.array(z.looseObject({ type: z.string(), count: z.union([z.string(), z.number()]) })),
  ),
});
/** The store's system status report (WooCommerce > Status). */
export interface SystemStatus extends z.infer<typeof systemStatus> {}

const systemStatusParamsShape = z.strictObject({
  context: z.optional(z.enum(['view'])),
  /** Sections (or `section.field`) to compute and send, e.g. `['environment.version', 'settings']`. */
  _fields: z.optional(z.array(z.string())),
});
export interface SystemStatusParams extends z.input<typeof systemStatusParamsShape> {}
export const systemStatusParams: z.ZodMiniType<SystemStatusParams, SystemStatusParams> =
  systemStatusParamsShape;

export const systemStatusTool = z.looseObject({
  id: z.string(),
  name: z.string(),
  action: z.string(),
  description: z.string(),
  /** Only in the answer to a run. */
  success: z.optional(z.boolean()),
  /** Only in the answer to a run. */
  message: z.optional(z.string()),
  _links: links,
});
/** A maintenance tool of WooCommerce > Status > Tools (clear transients, recount terms, reset roles, ...). */
export interface SystemStatusTool extends z.infer<typeof systemStatusTool> {}

export const toolId = z.string().check(z.regex(/^[\w-]+$/, 'expected a tool id such as "clear_transients"'));
