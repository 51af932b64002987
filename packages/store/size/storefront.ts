/**
 * What a storefront page ships of `@x/store/storefront`: the client with its token kept in localStorage, a
 * product list, add to cart, a coupon, checkout, names shown with `plainText()` and prices read with `money()`. size-limit bundles this with
 * esbuild (minified, browser platform, @x/core, ky and zod/mini included); a `node:` import reaching the
 * bundle fails the check.
 */
import { money, plainText, StorefrontClient, webStorageCartTokenStore } from '../dist/storefront.js';

const shop = new StorefrontClient({
  url: 'https://shop.example.com',
  cartTokenStore: webStorageCartTokenStore(localStorage),
});

export async function buy(code: string): Promise<string | undefined> {
  const page = await shop.products.list({ per_page: 12, on_sale: true });
  const first = page.data[0];
  if (!first) return undefined;
  await shop.cart.addItem({ id: first.id, quantity: 1 });
  const cart = await shop.cart.applyCoupon(code);
  await shop.checkout.place({ billing_address: { email: 'shopper@example.com' }, payment_method: 'cod' });
  return `${plainText(first.name)}: ${money(cart.totals, 'total_price')?.formatted}`;
}
