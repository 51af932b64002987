import type { Store } from '../data/store.js';
import { type AdminField, section } from './fields.js';

/**
 * The `account` group: WC_Settings_Accounts::get_settings_for_default_section() (class-wc-settings-accounts.php)
 * as the administrator behind the API keys sees it (links to the privacy screens), with the block checkout a new
 * store defaults to (CartCheckoutUtils::is_checkout_block_default(): the username option is left out). The
 * retention fields are `relative_date_selector`s, which the REST API never serves.
 */
export function accountFields(store: Store): AdminField[] {
  const admin = (page: string) => `${store.homeUrl}/wp-admin/${page}`;
  const erasure = `<a href="${admin('erase-personal-data.php')}">account erasure request</a>`;
  const privacy = `<a href="${admin('options-privacy.php')}">privacy page</a>`;
  const registration = section('account_registration_options', '');
  const policy = section(
    'privacy_policy_options',
    'Privacy policy',
    `This section controls the display of your website privacy policy. The privacy notices below will not show up unless a ${privacy} is set.`,
  );
  const retention = section(
    'personal_data_retention',
    'Personal data retention',
    "Choose how long to retain personal data when it's no longer needed for processing. Leave the following options blank to retain this data indefinitely.",
  );
  const retain = (id: string, title: string, tip: string, dflt: unknown): AdminField => ({
    id,
    title,
    desc_tip: tip,
    type: 'relative_date_selector',
    default: dflt,
  });
  const months = { number: '', unit: 'months' };
  return [
    registration.open,
    {
      id: 'woocommerce_enable_guest_checkout',
      title: 'Checkout',
      desc: 'Enable guest checkout (recommended)',
      desc_tip: 'Allows customers to checkout without an account.',
      default: 'yes',
      type: 'checkbox',
    },
    {
      id: 'woocommerce_enable_checkout_login_reminder',
      title: 'Login',
      desc: 'Enable log-in during checkout',
      default: 'no',
      type: 'checkbox',
    },
    {
      id: 'woocommerce_enable_signup_and_login_from_checkout',
      title: 'Account creation',
      desc: 'During checkout',
      desc_tip: 'Customers can create an account before placing their order.',
      default: 'no',
      type: 'checkbox',
    },
    {
      id: 'woocommerce_enable_myaccount_registration',
      title: 'Account creation',
      desc: 'On "My account" page',
      default: 'no',
      type: 'checkbox',
    },
    {
      id: 'woocommerce_registration_generate_password',
      title: 'Account creation options',
      desc: 'Send password setup link (recommended)',
      desc_tip: 'New customers receive an email to set up their password.',
      default: 'yes',
      type: 'checkbox',
    },
    {
      id: 'woocommerce_erasure_request_removes_order_data',
      title: 'Account erasure requests',
      desc: 'Remove personal data from orders on request',
      desc_tip: `When handling an ${erasure}, should personal data within orders be retained or removed?`,
      type: 'checkbox',
      default: 'no',
    },
    {
      id: 'woocommerce_erasure_request_removes_download_data',
      desc: 'Remove access to downloads on request',
      desc_tip: `When handling an ${erasure}, should access to downloadable files be revoked and download logs cleared?`,
      type: 'checkbox',
      default: 'no',
    },
    {
      id: 'woocommerce_allow_bulk_remove_personal_data',
      title: 'Personal data removal',
      desc: 'Allow personal data to be removed in bulk from orders',
      desc_tip:
        'Adds an option to the orders screen for removing personal data in bulk. Note that removing personal data cannot be undone.',
      type: 'checkbox',
      default: 'no',
    },
    registration.close,
    policy.open,
    {
      id: 'woocommerce_registration_privacy_policy_text',
      title: 'Registration privacy policy',
      desc_tip:
        'Optionally add some text about your store privacy policy to show on account registration forms.',
      default:
        'Your personal data will be used to support your experience throughout this website, to manage access to your account, and for other purposes described in our [privacy_policy].',
      type: 'textarea',
    },
    {
      id: 'woocommerce_checkout_privacy_policy_text',
      title: 'Checkout privacy policy',
      desc_tip: 'Optionally add some text about your store privacy policy to show during checkout.',
      default:
        'Your personal data will be used to process your order, support your experience throughout this website, and for other purposes described in our [privacy_policy].',
      type: 'textarea',
    },
    policy.close,
    retention.open,
    retain(
      'woocommerce_delete_inactive_accounts',
      'Retain inactive accounts ',
      'Inactive accounts are those which have not logged in, or placed an order, for the specified duration. They will be deleted. Any orders will be converted into guest orders.',
      months,
    ),
    retain(
      'woocommerce_trash_pending_orders',
      'Retain pending orders ',
      'Pending orders are unpaid and may have been abandoned by the customer. They will be trashed after the specified duration.',
      '',
    ),
    retain(
      'woocommerce_trash_failed_orders',
      'Retain failed orders',
      'Failed orders are unpaid and may have been abandoned by the customer. They will be trashed after the specified duration.',
      '',
    ),
    retain(
      'woocommerce_trash_cancelled_orders',
      'Retain cancelled orders',
      'Cancelled orders are unpaid and may have been cancelled by the store owner or customer. They will be trashed after the specified duration.',
      '',
    ),
    retain(
      'woocommerce_anonymize_completed_orders',
      'Retain completed orders',
      'Retain completed orders for a specified duration before anonymizing the personal data within them.',
      months,
    ),
    retention.close,
  ];
}
