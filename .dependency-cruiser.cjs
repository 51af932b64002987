/**
 * Import rules for every package's `src/` (`pnpm deps`, a CI step). No circle anywhere, type-only imports
 * included: a circle is a module that cannot be read, tested or moved without the others in it.
 * The store emulator's layers (packages/sandbox/src/store) import only downward (rules added with them).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module that imports itself through others: split the shared part into its own module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
