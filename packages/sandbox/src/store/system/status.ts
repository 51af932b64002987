import { currencySymbolHtml, getOption, storeCurrency } from '../data/options.js';
import type { Store } from '../data/store.js';
import { WC_VERSION, WP_VERSION } from '../data/store.js';

/**
 * The sections of GET /system_status (WC_REST_System_Status_V2_Controller::get_item_mappings()), for the install
 * the emulator plays: a stock WordPress with WooCommerce active on PHP 8.3 / MySQL 8.0, the default block theme
 * and the pages WC_Install::create_pages() makes. What WooCommerce measures on the server (limits, versions of
 * PHP and its extensions) are the values of such an install; what it reads from the database comes from the state.
 */

/** The tables WC_REST_System_Status_V2_Controller::get_database_info() checks (`woocommerce_database_tables`). */
const WC_TABLES = [
  'woocommerce_sessions',
  'woocommerce_api_keys',
  'woocommerce_attribute_taxonomies',
  'woocommerce_downloadable_product_permissions',
  'woocommerce_order_items',
  'woocommerce_order_itemmeta',
  'woocommerce_tax_rates',
  'woocommerce_tax_rate_locations',
  'woocommerce_shipping_zones',
  'woocommerce_shipping_zone_locations',
  'woocommerce_shipping_zone_methods',
  'woocommerce_payment_tokens',
  'woocommerce_payment_tokenmeta',
  'woocommerce_log',
];

const WP_TABLES = [
  'commentmeta',
  'comments',
  'links',
  'options',
  'postmeta',
  'posts',
  'term_relationships',
  'term_taxonomy',
  'termmeta',
  'terms',
  'usermeta',
  'users',
];

const MB = 1024 * 1024;

export function environmentInfo(store: Store): Record<string, unknown> {
  return {
    home_url: store.homeUrl,
    site_url: store.homeUrl,
    version: WC_VERSION,
    log_directory: '/var/www/html/wp-content/uploads/wc-logs/',
    log_directory_writable: true,
    wp_version: WP_VERSION,
    wp_multisite: false,
    wp_memory_limit: 256 * MB,
    wp_debug_mode: false,
    wp_cron: true,
    language: 'en_US',
    external_object_cache: null,
    server_info: 'Apache/2.4.62 (Debian)',
    php_version: '8.3.14',
    php_post_max_size: 64 * MB,
    php_max_execution_time: 30,
    php_max_input_vars: 1000,
    curl_version: '7.88.1, OpenSSL/3.0.15',
    suhosin_installed: false,
    max_upload_size: 64 * MB,
    mysql_version: '8.0.40',
    mysql_version_string: '8.0.40',
    default_timezone: 'UTC',
    fsockopen_or_curl_enabled: true,
    soapclient_enabled: false,
    domdocument_enabled: true,
    gzip_enabled: true,
    mbstring_enabled: true,
    remote_post_successful: true,
    remote_post_response: 200,
    remote_get_successful: true,
    remote_get_response: 200,
  };
}

export function databaseInfo(): Record<string, unknown> {
  const row = { data: '0.02', index: '0.02', engine: 'InnoDB' };
  const woocommerce: Record<string, typeof row> = {};
  for (const t of WC_TABLES) woocommerce[`wp_${t}`] = row;
  const other: Record<string, typeof row> = {};
  for (const t of WP_TABLES) other[`wp_${t}`] = row;
  const count = WC_TABLES.length + WP_TABLES.length;
  return {
    wc_database_version: WC_VERSION,
    database_prefix: 'wp_',
    maxmind_geoip_database: '',
    database_tables: { woocommerce, other },
    database_size: { data: Math.round(count * 2) / 100, index: Math.round(count * 2) / 100 },
  };
}

/** format_plugin_data() of the plugins a fresh install has. */
export function activePlugins(): Record<string, unknown>[] {
  return [
    {
      plugin: 'woocommerce/woocommerce.php',
      name: 'WooCommerce',
      version: WC_VERSION,
      version_latest: WC_VERSION,
      url: 'https://woocommerce.com/',
      author_name: 'Automattic',
      author_url: 'https://woocommerce.com',
      network_activated: false,
    },
  ];
}

export function inactivePlugins(): Record<string, unknown>[] {
  return [
    {
      plugin: 'akismet/akismet.php',
      name: 'Akismet Anti-spam: Spam Protection',
      version: '5.5',
      version_latest: '5.5',
      url: 'https://akismet.com/',
      author_name: 'Automattic - Anti-spam Team',
      author_url: 'https://automattic.com/wordpress-plugins/',
      network_activated: false,
    },
    {
      plugin: 'hello.php',
      name: 'Hello Dolly',
      version: '1.7.2',
      version_latest: '1.7.2',
      url: 'http://wordpress.org/plugins/hello-dolly/',
      author_name: 'Matt Mullenweg',
      author_url: 'http://ma.tt/',
      network_activated: false,
    },
  ];
}

export function themeInfo(): Record<string, unknown> {
  return {
    name: 'Twenty Twenty-Five',
    version: '1.3',
    version_latest: '1.3',
    author_url: 'https://wordpress.org/',
    is_child_theme: false,
    has_woocommerce_support: true,
    has_woocommerce_file: false,
    has_outdated_templates: false,
    overrides: [],
    parent_name: '',
    parent_version: '',
    parent_version_latest: '',
    parent_author_url: '',
  };
}

const PRODUCT_VISIBILITY = [
  'exclude-from-catalog',
  'exclude-from-search',
  'featured',
  'outofstock',
  'rated-1',
  'rated-2',
  'rated-3',
  'rated-4',
  'rated-5',
];

/** get_settings(): options through getOption(), so a changed setting shows here. */
export function settingsInfo(store: Store): Record<string, unknown> {
  const currency = storeCurrency(store);
  const visibility: Record<string, string> = {};
  for (const slug of PRODUCT_VISIBILITY) visibility[slug] = slug;
  return {
    api_enabled: getOption(store, 'woocommerce_api_enabled', 'no') === 'yes',
    force_ssl: getOption(store, 'woocommerce_force_ssl_checkout', 'no') === 'yes',
    currency,
    currency_symbol: currencySymbolHtml(currency),
    currency_position: getOption(store, 'woocommerce_currency_pos', 'left'),
    thousand_separator: getOption(store, 'woocommerce_price_thousand_sep', ','),
    decimal_separator: getOption(store, 'woocommerce_price_decimal_sep', '.'),
    number_of_decimals:
      Number.parseInt(String(getOption(store, 'woocommerce_price_num_decimals', '2')), 10) || 0,
    geolocation_enabled: ['geolocation', 'geolocation_ajax'].includes(
      String(getOption(store, 'woocommerce_default_customer_address', 'base')),
    ),
    taxonomies: { external: 'external', grouped: 'grouped', simple: 'simple', variable: 'variable' },
    product_visibility_terms: visibility,
    woocommerce_com_connected: 'no',
  };
}

export function securityInfo(store: Store): Record<string, unknown> {
  return { secure_connection: store.homeUrl.startsWith('https'), hide_errors: true };
}

/**
 * get_pages(): the pages WC_Install::create_pages() makes (ids 5 to 8 of the install's reserved posts); cart and
 * checkout hold their blocks, not the shortcodes. No terms page is set on a fresh install.
 */
export function pagesInfo(store: Store): Record<string, unknown>[] {
  const pages: [string, string, string, string, string][] = [
    ['Shop base', 'woocommerce_shop_page_id', '5', '', ''],
    ['Cart', 'woocommerce_cart_page_id', '6', '[woocommerce_cart]', 'woocommerce/cart'],
    ['Checkout', 'woocommerce_checkout_page_id', '7', '[woocommerce_checkout]', 'woocommerce/checkout'],
    ['My account', 'woocommerce_myaccount_page_id', '8', '[woocommerce_my_account]', ''],
    ['Terms and conditions', 'woocommerce_terms_page_id', '', '', ''],
  ];
  return pages.map(([name, option, fallback, shortcode, block]) => {
    const id = String(getOption(store, option, fallback));
    const exists = ['5', '6', '7', '8'].includes(id);
    return {
      page_name: name,
      page_id: id,
      page_set: id !== '' && id !== '0',
      page_exists: exists,
      page_visible: exists,
      shortcode,
      block,
      shortcode_required: shortcode !== '' && exists,
      // The account page holds its shortcode; cart and checkout were created with blocks.
      shortcode_present: exists && shortcode !== '' && block === '',
      block_present: exists && block !== '',
      block_required: exists && block !== '',
    };
  });
}

/** get_post_type_counts(): `SELECT post_type, count(1) ... GROUP BY post_type` (counts come back as strings). */
export function postTypeCounts(store: Store): { type: string; count: string }[] {
  const s = store.state;
  const counts: [string, number][] = [
    ['page', 6],
    ['post', 1],
    ['product', s.products.size],
    ['product_variation', s.variations.size],
    ['shop_coupon', s.coupons.size],
    ['shop_order', s.orders.size],
    ['shop_order_refund', s.refunds.size],
  ];
  return counts.filter(([, n]) => n > 0).map(([type, n]) => ({ type, count: String(n) }));
}
