import { type Cart, money, plainText } from '@x/store/storefront';
import { useState } from 'react';

const FIELDS = [
  ['email', 'Email', 'email'],
  ['first_name', 'First name', 'text'],
  ['last_name', 'Last name', 'text'],
  ['address_1', 'Address', 'text'],
  ['city', 'City', 'text'],
  ['postcode', 'Postcode', 'text'],
  ['country', 'Country (two letters)', 'text'],
] as const;

export type AddressForm = Record<(typeof FIELDS)[number][0], string>;

export interface CheckoutForm {
  address: AddressForm;
  paymentMethod: string;
}

/** The Store API's addresses from the form: the filled fields, the shipping address the billing one without email. */
export function addresses(form: AddressForm): {
  billing_address: Partial<AddressForm>;
  shipping_address: Partial<Omit<AddressForm, 'email'>>;
} {
  const filled: Partial<AddressForm> = {};
  for (const [name] of FIELDS) {
    const value = form[name].trim();
    if (value !== '') filled[name] = name === 'country' ? value.toUpperCase() : value;
  }
  const { email: _, ...shipping } = filled;
  return { billing_address: filled, shipping_address: shipping };
}

/** Cash on delivery when the store offers it (no payment step to fake), else the first method offered. */
function defaultMethod(methods: string[]): string {
  return methods.includes('cod') ? 'cod' : (methods[0] ?? '');
}

/**
 * The billing address (the shipping one is the same), the shipping rates the Store API offers for it, the
 * payment method and "Place order".
 */
export function Checkout({
  cart,
  disabled,
  onAddress,
  onRate,
  onPlace,
}: {
  cart: Cart;
  disabled: boolean;
  onAddress: (address: AddressForm) => void;
  onRate: (packageId: number, rateId: string) => void;
  onPlace: (form: CheckoutForm) => void;
}) {
  const [address, setAddress] = useState<AddressForm>(() => {
    const b = cart.billing_address as Partial<Record<keyof AddressForm, string>>;
    return Object.fromEntries(FIELDS.map(([name]) => [name, b[name] ?? ''])) as AddressForm;
  });
  const methods = cart.payment_methods ?? [];
  const [method, setMethod] = useState(() => defaultMethod(methods));
  const chosen = methods.includes(method) ? method : defaultMethod(methods);
  const rates = cart.shipping_rates.flatMap((p) =>
    p.shipping_rates.map((r) => ({ ...r, package_id: p.package_id })),
  );
  // WooCommerce selects the first rate itself; a package can still end up with none chosen.
  const needsRate = rates.length > 0 && !rates.some((r) => r.selected);
  return (
    <section className="checkout" data-testid="checkout">
      <h2>Checkout</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onAddress(address);
        }}
      >
        {FIELDS.map(([name, label, type]) => (
          <label key={name}>
            {label}
            <input
              name={name}
              type={type}
              value={address[name]}
              required={name === 'email'}
              onChange={(e) => setAddress({ ...address, [name]: e.target.value })}
            />
          </label>
        ))}
        <button type="submit" disabled={disabled}>
          Save address and see shipping
        </button>
      </form>
      {rates.length > 0 && (
        <fieldset className="rates" data-testid="shipping-rates">
          <legend>Shipping</legend>
          {rates.map((r) => (
            <label key={`${r.package_id}:${r.rate_id}`} data-rate={r.rate_id}>
              <input
                type="radio"
                name={`rate-${r.package_id}`}
                checked={r.selected}
                disabled={disabled}
                onChange={() => onRate(Number(r.package_id), r.rate_id)}
              />
              {plainText(r.name)} {money(r, 'price')?.formatted}
            </label>
          ))}
        </fieldset>
      )}
      {cart.needs_payment && (
        <label>
          Payment
          <select value={chosen} onChange={(e) => setMethod(e.target.value)}>
            {methods.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      )}
      {cart.needs_payment && methods.length === 0 && (
        <p className="error">The store offers no payment method.</p>
      )}
      <button
        type="button"
        className="place"
        disabled={disabled || address.email === '' || needsRate}
        onClick={() => onPlace({ address, paymentMethod: cart.needs_payment ? chosen : '' })}
      >
        Place order
      </button>
    </section>
  );
}
