import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

/**
 * What an editor shows on hover is the checker's `typeToString`. With types that are aliases of
 * `z.infer<...>` it printed the whole structure (740 characters for an order); interfaces print a name.
 */
it('hovers name the types: Order, Product, OrderNote, ManualRefundInput', () => {
  const file = fileURLToPath(new URL('./hover-probe.ts', import.meta.url));
  const probe = `
    import type { StoreClient } from '../../src/index.js';
    declare const store: StoreClient;
    export const order = await store.orders.get(1);
    export const product = await store.products.get(1);
    export const page = await store.orders.notes.list(1);
    export const note = page.data[0]!;
    export const line = order.line_items[0]!;
    export const billing = order.billing;
    export type Manual = Parameters<StoreClient['orders']['refunds']['createManual']>[1];
    export type Created = Parameters<StoreClient['products']['create']>[0];
  `;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? probe : read(name));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const shown: Record<string, string> = {};
  for (const statement of source.statements) {
    if (
      ts.isVariableStatement(statement) &&
      !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)
    ) {
      for (const declaration of statement.declarationList.declarations)
        shown[declaration.name.getText(source)] = checker.typeToString(
          checker.getTypeAtLocation(declaration),
        );
    } else if (ts.isTypeAliasDeclaration(statement)) {
      shown[statement.name.text] = checker.typeToString(checker.getTypeAtLocation(statement.type));
    }
  }
  expect(shown).toEqual({
    order: 'Order',
    product: 'Product',
    page: 'Page<OrderNote>',
    note: 'OrderNote',
    line: 'OrderLineItem',
    billing: 'Address',
    Manual: 'ManualRefundInput',
    Created: 'ProductInput',
  });
});
