import type { Store } from '../data/store.js';

/** WC_REST_System_Status_Tools_V2_Controller::get_tools(): `button` is `action` in the API. */
export interface ToolDef {
  id: string;
  name: string;
  action: string;
  description: string;
}

const note = (text: string) => `<strong class="red">Note:</strong> ${text}`;

export const TOOLS: readonly ToolDef[] = [
  {
    id: 'clear_transients',
    name: 'WooCommerce transients',
    action: 'Clear transients',
    description: 'This tool will clear the product/shop transients cache.',
  },
  {
    id: 'clear_expired_transients',
    name: 'Expired transients',
    action: 'Clear transients',
    description: 'This tool will clear ALL expired transients from WordPress.',
  },
  {
    id: 'delete_orphaned_variations',
    name: 'Orphaned variations',
    action: 'Delete orphaned variations',
    description: 'This tool will delete all variations which have no parent.',
  },
  {
    id: 'clear_expired_download_permissions',
    name: 'Used-up download permissions',
    action: 'Clean up download permissions',
    description:
      'This tool will delete expired download permissions and permissions with 0 remaining downloads.',
  },
  {
    id: 'regenerate_product_lookup_tables',
    name: 'Product lookup tables',
    action: 'Regenerate',
    description: 'This tool will regenerate product lookup table data. This process may take a while.',
  },
  {
    id: 'repair_coupons_lookup_table',
    name: 'Coupons lookup table',
    action: 'Repair',
    description:
      'This tool will repair the coupons lookup table data with missing discount amounts. This process may take a while.',
  },
  {
    id: 'recount_terms',
    name: 'Term counts',
    action: 'Recount terms',
    description:
      'This tool will recount product terms - useful when changing your settings in a way which hides products from the catalog.',
  },
  {
    id: 'reset_roles',
    name: 'Capabilities',
    action: 'Reset capabilities',
    description:
      'This tool will reset the admin, customer and shop_manager roles to default. Use this if your users cannot access all of the WooCommerce admin pages.',
  },
  {
    id: 'clear_sessions',
    name: 'Clear customer sessions',
    action: 'Clear',
    description: note(
      'This tool will delete all customer session data from the database, including current carts and saved carts in the database.',
    ),
  },
  {
    id: 'clear_template_cache',
    name: 'Clear template cache',
    action: 'Clear',
    description: note('This tool will empty the template cache.'),
  },
  {
    id: 'clear_system_status_theme_info_cache',
    name: 'Clear system status theme info cache',
    action: 'Clear',
    description: note('This tool will empty the system status theme info cache.'),
  },
  {
    id: 'install_pages',
    name: 'Create default WooCommerce pages',
    action: 'Create pages',
    description: note(
      'This tool will install all the missing WooCommerce pages. Pages already defined and set up will not be replaced.',
    ),
  },
  {
    id: 'delete_taxes',
    name: 'Delete WooCommerce tax rates',
    action: 'Delete tax rates',
    description: note(
      'This option will delete ALL of your tax rates, use with caution. This action cannot be reversed.',
    ),
  },
  {
    id: 'regenerate_thumbnails',
    name: 'Regenerate shop thumbnails',
    action: 'Regenerate',
    description: 'This will regenerate all shop thumbnails to match your theme and/or image settings.',
  },
  {
    id: 'db_update_routine',
    name: 'Update database',
    action: 'Update database',
    description: note(
      'This tool will update your WooCommerce database to the latest version. Please ensure you make sufficient backups before proceeding.',
    ),
  },
  {
    id: 'verify_db_tables',
    name: 'Verify base database tables',
    action: 'Verify database',
    description: 'Verify if all base database tables are present.',
  },
];

export function findTool(id: string): ToolDef | undefined {
  return TOOLS.find((t) => t.id === id);
}

/**
 * WC_REST_System_Status_Tools_V2_Controller::execute_tool(): the tools that touch rows the emulator keeps act
 * on the state (orphaned variations, tax rates); caches, sessions, lookup tables and roles have nothing to
 * clear here, so those report what WooCommerce reports on a store where there was nothing to do. Term counts
 * are computed on every read, so a recount is already true.
 */
export function runTool(store: Store, id: string): { success: boolean; message: string } {
  const ok = (message: string) => ({ success: true, message });
  switch (id) {
    case 'clear_transients':
      return ok('Product transients cleared');
    case 'clear_expired_transients':
      return ok('0 transients rows cleared');
    case 'delete_orphaned_variations': {
      let n = 0;
      for (const v of [...store.state.variations.values()]) {
        if (store.state.products.has(v.parent_id)) continue;
        store.state.variations.delete(v.id);
        store.changed('variations', v.id);
        n++;
      }
      return ok(`${n} orphaned variations deleted`);
    }
    case 'clear_expired_download_permissions':
      return ok('0 permissions deleted');
    case 'regenerate_product_lookup_tables':
      return ok('Lookup tables are regenerating');
    case 'repair_coupons_lookup_table':
      return ok('No entries with zero discount amount found. Coupons lookup table is up to date.');
    case 'reset_roles':
      return ok('Roles successfully reset');
    case 'recount_terms':
      return ok('Terms successfully recounted');
    case 'clear_sessions':
      return ok('Deleted all active sessions, and 0 saved carts.');
    case 'install_pages':
      return ok('All missing WooCommerce pages successfully installed');
    case 'delete_taxes':
      for (const rateId of [...store.state.tax_rates.keys()]) {
        store.state.tax_rates.delete(rateId);
        store.changed('tax_rates', rateId);
      }
      return ok('Tax rates successfully deleted');
    case 'regenerate_thumbnails':
      return ok('Thumbnail regeneration has been scheduled to run in the background.');
    case 'db_update_routine':
      return ok('Database upgrade routine has been scheduled to run in the background.');
    case 'clear_template_cache':
      return ok('Template cache cleared.');
    case 'clear_system_status_theme_info_cache':
      return ok('System status theme info cache cleared.');
    case 'verify_db_tables':
      return ok('Database verified successfully.');
    default:
      return {
        success: false,
        message: 'There was an error calling this tool. There is no callback present.',
      };
  }
}
