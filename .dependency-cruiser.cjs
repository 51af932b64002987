/**
 * Import rules for every package's `src/` (`pnpm deps`, a CI step). No circle anywhere, type-only imports
 * included: a circle is a module that cannot be read, tested or moved without the others in it.
 * The store emulator's layers (packages/sandbox/src/store) import only downward (the store-* rules).
 */
const STORE = 'packages/sandbox/src/store';
const DOMAINS = '(catalog|customers|pricing|orders|shipping|settings|system|webhooks|cart)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module that imports itself through others: split the shared part into its own module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    // The store emulator in layers, bottom to top: runtime/ (PHP and WordPress helpers), data/ (the install's
    // rows and tables), the domain folders, then present/ and rest/ (the REST server), routes/, emulator.ts.
    // `pnpm layers` prints the picture.
    {
      name: 'store-runtime',
      comment: 'runtime/ is PHP and WordPress itself: it knows nothing of the store built on it.',
      severity: 'error',
      from: { path: `^${STORE}/runtime/` },
      to: { path: `^${STORE}/`, pathNot: `^${STORE}/runtime/` },
    },
    {
      name: 'store-data',
      comment: 'data/ holds the rows and tables: it uses the runtime and nothing that works on it.',
      severity: 'error',
      from: { path: `^${STORE}/data/` },
      to: { path: `^${STORE}/`, pathNot: `^${STORE}/(data|runtime)/` },
    },
    {
      name: 'store-domains-below-presentation',
      comment:
        'The model (domain folders) never reaches up to presenters, the REST server, routes or the emulator.',
      severity: 'error',
      from: { path: `^${STORE}/${DOMAINS}/` },
      to: { path: `^${STORE}/((present|rest|routes)/|emulator\\.ts$)` },
    },
    {
      name: 'store-leaf-domains',
      comment:
        'catalog, customers, shipping, settings and webhooks stand on data/ alone, not on another domain.',
      severity: 'error',
      from: { path: `^${STORE}/(catalog|customers|shipping|settings|webhooks)/` },
      to: { path: `^${STORE}/${DOMAINS}/`, pathNot: `^${STORE}/$1/` },
    },
    {
      name: 'store-pricing',
      comment: 'pricing/ (coupons, discounts, taxes) reads the catalog; orders and the rest build on it.',
      severity: 'error',
      from: { path: `^${STORE}/pricing/` },
      to: { path: `^${STORE}/(orders|customers|shipping|settings|system|webhooks|cart)/` },
    },
    {
      name: 'store-orders',
      comment:
        'orders/ builds on catalog, pricing and customers; system/ (reports, the demo seed) builds on orders.',
      severity: 'error',
      from: { path: `^${STORE}/orders/` },
      to: { path: `^${STORE}/(system|webhooks|cart)/` },
    },
    {
      name: 'store-cart',
      comment:
        "cart/ (the Store API's carts and checkout) builds on catalog, customers, pricing, shipping and settings, " +
        "and on orders: a cart is totalled by the order's own arithmetic and checked out as an order. Below it " +
        'nothing reaches up to it, and it never reaches system/ or webhooks/.',
      severity: 'error',
      from: { path: `^${STORE}/cart/` },
      to: { path: `^${STORE}/(system|webhooks)/` },
    },
    {
      name: 'store-present',
      comment:
        'Presenters turn rows into responses; routes and the REST server call them, never the reverse.',
      severity: 'error',
      from: { path: `^${STORE}/present/` },
      to: { path: `^${STORE}/((rest|routes)/|emulator\\.ts$)` },
    },
    {
      name: 'store-rest',
      comment:
        'rest/ is the REST server (router, parameters, request pipeline): routes register on it, it knows none.',
      severity: 'error',
      from: { path: `^${STORE}/rest/` },
      to: { path: `^${STORE}/(${DOMAINS}/|(present|routes)/|emulator\\.ts$)` },
    },
    {
      name: 'store-routes',
      comment:
        'The emulator wires routes, presenters and the webhook deliverer together; nothing imports it back.',
      severity: 'error',
      from: { path: `^${STORE}/`, pathNot: `^${STORE}/emulator\\.ts$` },
      to: { path: `^${STORE}/emulator\\.ts$` },
    },
    // The sandbox: kit/ (what every emulator uses) below the three emulators, server/ and index.ts above them.
    {
      name: 'sandbox-kit',
      comment: 'kit/ is shared by every emulator: it imports none of them, nor the server that hosts them.',
      severity: 'error',
      from: { path: '^packages/sandbox/src/kit/' },
      to: { path: '^packages/sandbox/src/(store|transcription|realtime|server)/' },
    },
    {
      name: 'sandbox-emulators-below-server',
      comment: "An emulator is hosted by server/ through the kit's Emulator interface and never imports it.",
      severity: 'error',
      from: { path: '^packages/sandbox/src/(store|transcription|realtime)/' },
      to: { path: '^packages/sandbox/src/(server/|index\\.ts$|cli\\.ts$)' },
    },
    {
      name: 'sandbox-emulators-apart',
      comment: 'The three emulators share code through kit/, never by importing one another.',
      severity: 'error',
      from: { path: '^packages/sandbox/src/(store|transcription|realtime)/' },
      to: {
        path: '^packages/sandbox/src/(store|transcription|realtime)/',
        pathNot: '^packages/sandbox/src/$1/',
      },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
