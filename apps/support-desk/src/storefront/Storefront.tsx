import {
  type Cart,
  type CartTokenStore,
  plainText,
  type StorefrontClient,
  type StorefrontProduct,
} from '@x/store/storefront';
import { useCallback, useEffect, useState } from 'react';
import { CartView } from './CartView.js';
import { addresses, Checkout, type CheckoutForm } from './Checkout.js';
import { askForHelp, type HelpCode, type PlacedOrder } from './help.js';
import { ProductList } from './ProductList.js';

/** The last order this page placed: what the desk needs to find it, and what the shopper is shown. */
interface Placed {
  order: PlacedOrder;
  number: string;
  status: string;
}

/**
 * The shop: products, the cart, checkout, and "Get help with this cart". Every change goes through the Store
 * API and the page shows the cart the API answers with, never one it computed itself.
 */
export function Storefront({ client, tokens }: { client: StorefrontClient; tokens: CartTokenStore }) {
  const [products, setProducts] = useState<StorefrontProduct[] | null>(null);
  const [cart, setCart] = useState<Cart | null>(null);
  const [placed, setPlaced] = useState<Placed | null>(null);
  const [help, setHelp] = useState<HelpCode | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** One action at a time; its error is shown until the next one. Whether it succeeded. */
  const run = useCallback(async (label: string, action: () => Promise<void>): Promise<boolean> => {
    setBusy(label);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBusy(null);
    }
  }, []);

  useEffect(() => {
    void run('loading', async () => {
      const [list, current] = await Promise.all([client.products.list({ per_page: 20 }), client.cart.get()]);
      setProducts(list.data);
      setCart(current);
    });
  }, [client, run]);

  const place = (form: CheckoutForm) =>
    run('placing the order', async () => {
      const order = await client.checkout.place({
        ...addresses(form.address),
        ...(form.paymentMethod ? { payment_method: form.paymentMethod } : {}),
      });
      setPlaced({
        order: {
          id: order.order_id,
          key: order.order_key,
          billing_email: order.billing_address.email ?? form.address.email,
        },
        number: order.order_number ?? String(order.order_id),
        status: order.status,
      });
      setCart(await client.cart.get());
    });

  const getHelp = () =>
    run('asking the desk', async () => {
      const token = await tokens.get();
      if (!token) throw new Error('There is no cart yet: add something first.');
      setHelp(await askForHelp(token, placed?.order ?? null));
    });

  return (
    <div className="shop" data-busy={busy ?? ''}>
      <header>
        <h1>Storefront</h1>
        <p className="hint">
          The WooCommerce Store API from a browser: no keys, a cart token in localStorage.
        </p>
      </header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <main>
        <ProductList
          products={products}
          disabled={busy !== null}
          onAdd={(p) =>
            run(`adding ${plainText(p.name)}`, async () =>
              setCart(await client.cart.addItem({ id: p.id, quantity: 1 })),
            )
          }
        />
        <aside>
          <CartView
            cart={cart}
            disabled={busy !== null}
            onCoupon={(code) =>
              run('applying the coupon', async () => setCart(await client.cart.applyCoupon(code)))
            }
          />
          {cart && cart.items.length > 0 && (
            <Checkout
              cart={cart}
              disabled={busy !== null}
              onAddress={(address) =>
                run('updating the address', async () =>
                  setCart(await client.cart.updateCustomer(addresses(address))),
                )
              }
              onRate={(package_id, rate_id) =>
                run('choosing shipping', async () =>
                  setCart(await client.cart.selectShippingRate({ package_id, rate_id })),
                )
              }
              onPlace={place}
            />
          )}
          {placed && (
            <section className="placed" data-testid="placed-order" data-order-id={placed.order.id}>
              <h2>Thank you</h2>
              <p>
                Order <strong data-testid="order-number">#{placed.number}</strong> is {placed.status}.
              </p>
            </section>
          )}
          <section className="help">
            <button type="button" onClick={getHelp} disabled={busy !== null}>
              Get help with this cart
            </button>
            {help && (
              <p data-testid="help-code">
                Read this code to the agent: <strong>{help.code}</strong>
                {help.expires_in_seconds && ` (valid ${Math.round(help.expires_in_seconds / 60)} min)`}
              </p>
            )}
          </section>
        </aside>
      </main>
    </div>
  );
}
