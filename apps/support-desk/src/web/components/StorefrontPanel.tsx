import { money } from '@x/store/storefront';
import { type FormEvent, useEffect, useState } from 'react';
import type {
  CallView,
  StoreCurrency,
  StorefrontLine,
  StorefrontSnapshot,
  StorefrontTotals,
} from '../../shared/api.js';
import { api } from '../api.js';

/** An amount in minor units as the shop shows it ("$12.50"); the digits as they are if unreadable. */
function price(amount: string | null, currency: StoreCurrency): string {
  if (amount === null) return '—';
  try {
    return money({ ...currency, amount }, 'amount')?.formatted ?? '—';
  } catch {
    return `${amount} (minor units of ${currency.currency_code})`;
  }
}

function Lines({
  lines,
  count,
  currency,
}: {
  lines: StorefrontLine[];
  count: number;
  currency: StoreCurrency;
}) {
  return (
    <>
      {lines.map((l) => (
        <tr key={l.key || `${l.id}`} data-testid="cart-line" data-product={l.id} data-quantity={l.quantity}>
          <td>
            {l.name}
            {l.sku && <span className="muted small"> · {l.sku}</span>}
          </td>
          <td className="num">{l.quantity}</td>
          <td className="num">{price(l.price, currency)}</td>
          <td className="num" data-testid="line-total">
            {price(l.line_total, currency)}
          </td>
        </tr>
      ))}
      {count > lines.length && (
        <tr>
          <td colSpan={4} className="muted small">
            …and {count - lines.length} more lines
          </td>
        </tr>
      )}
    </>
  );
}

const TOTALS: [keyof StorefrontTotals, string][] = [
  ['total_items', 'Items'],
  ['total_discount', 'Discount'],
  ['total_shipping', 'Shipping'],
  ['total_tax', 'Tax'],
  ['total_price', 'Total'],
];

function Totals({ totals, currency }: { totals: StorefrontTotals; currency: StoreCurrency }) {
  return (
    <>
      {TOTALS.map(([field, label]) => (
        <tr key={field} data-total={field}>
          <th colSpan={3}>{label}</th>
          <td className="num" data-testid={`total-${field}`}>
            {price(totals[field], currency)}
          </td>
        </tr>
      ))}
    </>
  );
}

function CartView({ snapshot }: { snapshot: StorefrontSnapshot }) {
  const { cart, cartError } = snapshot;
  if (!cart) return <p className="error-text">{cartError ?? 'The cart could not be read.'}</p>;
  const { currency } = cart;
  return (
    <section data-testid="storefront-cart" data-items={cart.items_count}>
      <h3>Current cart</h3>
      {cart.items.length === 0 ? (
        <p className="muted">The cart is empty.</p>
      ) : (
        <table className="orders">
          <thead>
            <tr>
              <th>Item</th>
              <th className="num">Qty</th>
              <th className="num">Price</th>
              <th className="num">Line</th>
            </tr>
          </thead>
          <tbody>
            <Lines lines={cart.items} count={cart.lines} currency={currency} />
            <Totals totals={cart.totals} currency={currency} />
          </tbody>
        </table>
      )}
      {cart.coupons.length > 0 && (
        <p className="small" data-testid="cart-coupons">
          Coupons:{' '}
          {cart.coupons.map((c) => (
            <span key={c.code} className="tag" data-coupon={c.code}>
              {c.code} −{price(c.total_discount, currency)}
            </span>
          ))}
        </p>
      )}
      {cart.shipping_rate && (
        <p className="small" data-testid="cart-shipping">
          Shipping: {cart.shipping_rate.name} ({price(cart.shipping_rate.price, currency)})
        </p>
      )}
      {cart.errors.map((e) => (
        <p key={`${e.code}-${e.message}`} className="error-text" data-testid="cart-error">
          {e.message}
        </p>
      ))}
    </section>
  );
}

function OrderView({ snapshot }: { snapshot: StorefrontSnapshot }) {
  const { order, orderError } = snapshot;
  if (orderError) return <p className="error-text">{orderError}</p>;
  if (!order) return null;
  return (
    <section data-testid="storefront-order" data-order={order.id} data-status={order.status}>
      <h3>
        Last order #{order.id} <span className={`status status-${order.status}`}>{order.status}</span>
      </h3>
      <table className="orders">
        <tbody>
          <Lines lines={order.items} count={order.lines} currency={order.currency} />
          <Totals totals={order.totals} currency={order.currency} />
        </tbody>
      </table>
    </section>
  );
}

/**
 * The customer's cart and last order, linked by the support code they read out: the agent types the code,
 * the desk reads the cart through the Store API and every open page gets the update (the call's
 * `storefront.readAt` moves on, and this panel loads the newer read). Refresh reads it again.
 */
export function StorefrontPanel({ call, onError }: { call: CallView; onError: (error: unknown) => void }) {
  const [snapshot, setSnapshot] = useState<StorefrontSnapshot | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const readAt = call.storefront?.readAt ?? null;
  // Only a newer read replaces the one shown: an update sent from an older copy of the call may come late.
  const shown = snapshot?.readAt ?? '';
  useEffect(() => {
    if (readAt && readAt > shown)
      api.storefront(call.id).then((r) => r.cart && setSnapshot((s) => newer(s, r.cart!)), onError);
  }, [call.id, readAt, shown, onError]);

  const run = (action: Promise<{ cart: StorefrontSnapshot | null }>) => {
    setBusy(true);
    action
      .then((r) => {
        if (r.cart) setSnapshot((s) => newer(s, r.cart!));
        setCode('');
      }, onError)
      .finally(() => setBusy(false));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(api.linkStorefront(call.id, code));
  };

  return (
    <section className="storefront" data-testid="storefront-panel" data-read-at={snapshot?.readAt ?? ''}>
      <h3>Customer’s cart</h3>
      <form onSubmit={submit} className="small">
        <label>
          Support code{' '}
          <input
            data-testid="support-code"
            inputMode="numeric"
            autoComplete="off"
            maxLength={12}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="123 456"
          />
        </label>{' '}
        <button type="submit" disabled={busy || code.trim() === ''} data-testid="link-cart">
          Link cart
        </button>{' '}
        {snapshot && (
          <button
            type="button"
            disabled={busy}
            data-testid="refresh-cart"
            onClick={() => run(api.refreshStorefront(call.id))}
          >
            Refresh
          </button>
        )}
      </form>
      {snapshot && (
        <>
          <p className="muted small">
            Read {new Date(snapshot.readAt).toLocaleTimeString()} through the Store API
          </p>
          <CartView snapshot={snapshot} />
          <OrderView snapshot={snapshot} />
        </>
      )}
    </section>
  );
}

function newer(current: StorefrontSnapshot | null, next: StorefrontSnapshot): StorefrontSnapshot {
  return current && current.readAt > next.readAt ? current : next;
}
