import { money, plainText, type StorefrontProduct } from '@x/store/storefront';

/** The catalogue as the Store API lists it: name, price (from minor units, in the store's currency). */
export function ProductList({
  products,
  disabled,
  onAdd,
}: {
  products: StorefrontProduct[] | null;
  disabled: boolean;
  onAdd: (product: StorefrontProduct) => void;
}) {
  if (products === null) return <section className="products">Loading products…</section>;
  return (
    <section className="products">
      <h2>Products</h2>
      <ul data-testid="products">
        {products.map((p) => {
          const price = money(p.prices, 'price');
          // A variable product is added by choosing a variation; this page keeps to simple products.
          const buyable = p.is_purchasable && p.is_in_stock && p.type === 'simple';
          return (
            <li key={p.id} data-product={p.id}>
              <span className="name">{plainText(p.name)}</span>
              <span className="price" data-minor={price?.amount_minor ?? ''}>
                {price?.formatted ?? '—'}
              </span>
              <button type="button" disabled={disabled || !buyable} onClick={() => onAdd(p)}>
                {buyable ? 'Add to cart' : p.is_in_stock ? 'See options' : 'Out of stock'}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
