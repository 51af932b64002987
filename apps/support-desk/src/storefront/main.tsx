import { StorefrontClient, webStorageCartTokenStore } from '@x/store/storefront';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { cartTokenKey, storeUrlFrom } from './params.js';
import { Storefront } from './Storefront.js';
import './storefront.css';

const root = createRoot(document.getElementById('root')!);
const store = storeUrlFrom(window.location.search);
if (store === null) {
  // `pnpm dev` prints the full address; the store is a page parameter because the shop is public, not the desk's.
  root.render(
    <p className="error" role="alert">
      Open this page with the store's address: <code>/storefront/?store=http://127.0.0.1:8787</code>
    </p>,
  );
} else {
  // localStorage: a reload (or another tab) finds the same cart.
  const tokens = webStorageCartTokenStore(window.localStorage, cartTokenKey(store));
  const client = new StorefrontClient({ url: store, cartTokenStore: tokens });
  root.render(
    <StrictMode>
      <Storefront client={client} tokens={tokens} />
    </StrictMode>,
  );
}
