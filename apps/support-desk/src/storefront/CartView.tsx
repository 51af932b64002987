import { type Cart, money, plainText } from '@x/store/storefront';
import { useState } from 'react';

type Totals = Cart['totals'];

function Amount({
  of,
  field,
  label,
}: {
  of: Totals;
  field: Parameters<typeof money<Totals>>[1];
  label: string;
}) {
  const m = money(of, field);
  if (m === null) return null;
  return (
    <tr data-total={field} data-minor={m.amount_minor}>
      <th colSpan={2}>{label}</th>
      <td className="num">{m.formatted}</td>
    </tr>
  );
}

/** The cart as the Store API computed it: lines, coupons and totals. */
export function CartView({
  cart,
  disabled,
  onCoupon,
}: {
  cart: Cart | null;
  disabled: boolean;
  /** Resolves true once the store applied it. */
  onCoupon: (code: string) => Promise<boolean>;
}) {
  const [code, setCode] = useState('');
  if (cart === null) return <section className="cart">Loading the cart…</section>;
  return (
    <section className="cart" data-testid="cart" data-items={cart.items_count}>
      <h2>Cart</h2>
      {cart.items.length === 0 ? (
        <p>Your cart is empty.</p>
      ) : (
        <table>
          <tbody>
            {cart.items.map((item) => (
              <tr key={item.key} data-cart-item={item.id}>
                <td>{plainText(item.name)}</td>
                <td className="qty">× {item.quantity}</td>
                <td className="num">{money(item.totals, 'line_subtotal')?.formatted}</td>
              </tr>
            ))}
            {cart.coupons.map((c) => (
              <tr key={c.code} data-coupon={c.code}>
                <td colSpan={2}>Coupon {c.code}</td>
                <td className="num">-{money(c.totals, 'total_discount')?.formatted}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <Amount of={cart.totals} field="total_items" label="Items" />
            <Amount of={cart.totals} field="total_discount" label="Discount" />
            <Amount of={cart.totals} field="total_shipping" label="Shipping" />
            <Amount of={cart.totals} field="total_tax" label="Tax" />
            <Amount of={cart.totals} field="total_price" label="Total" />
          </tfoot>
        </table>
      )}
      <form
        className="coupon"
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim() !== '') void onCoupon(code.trim()).then((applied) => applied && setCode(''));
        }}
      >
        <label>
          Coupon code <input value={code} onChange={(e) => setCode(e.target.value)} />
        </label>
        <button type="submit" disabled={disabled || cart.items.length === 0}>
          Apply
        </button>
      </form>
    </section>
  );
}
