import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as z from 'zod/mini';
import { DeskEvents, type StorefrontHelpCode } from '../../shared/api.js';
import { type CallRecord, type StoredLink, view } from '../calls/registry.js';
import type { DeskContext } from '../context.js';
import { HttpError, parseInput, readJson } from '../errors.js';
import { issuedCodes, refusedCodes } from '../storefront/guesses.js';
import { type CodeRefusal, HelpCodes } from '../storefront/help-codes.js';
import { helpRequestSchema, linkRequestSchema } from '../storefront/input.js';
import { readStorefront } from '../storefront/read.js';
import { summaryOf } from '../storefront/snapshot.js';

/** A help request is a token and an order reference: a few hundred bytes. */
const MAX_HELP_BYTES = 4096;

const callParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'expected a call id')) });

const REFUSALS: Record<CodeRefusal, [number, string, string]> = {
  unknown: [404, 'no such support code: ask the customer to read it again', 'unknown_code'],
  expired: [410, 'this support code has expired: ask the customer for a new one', 'code_expired'],
  used: [409, 'this support code was used already: ask the customer for a new one', 'code_used'],
};

/**
 * The storefront's "Get help with this cart" and the call's link to that cart: the storefront trades its cart
 * token (and last order) for a six-digit code, the agent types the code into the call, and the desk reads the
 * cart through the Store API, stores what it read on the call and announces it. The token stays on the server.
 */
export function storefrontRoutes(app: Hono, desk: DeskContext): void {
  const codes = new HelpCodes();
  const refused = refusedCodes();
  const issued = issuedCodes();
  const limit = bodyLimit({
    maxSize: MAX_HELP_BYTES,
    onError: () => {
      throw new HttpError(413, `request body larger than ${MAX_HELP_BYTES} bytes`, 'too_large');
    },
  });
  app.use('/api/storefront/*', limit);
  app.use('/api/calls/:id/storefront', limit);
  app.use('/api/calls/:id/storefront/*', limit);

  app.post('/api/storefront/help', async (c) => {
    const request = parseInput(helpRequestSchema, await readJson(c.req.raw), 'help request');
    issued.check();
    issued.count();
    const { code, expiresInSeconds } = codes.issue(request);
    const body: StorefrontHelpCode = { code, expires_in_seconds: expiresInSeconds };
    return c.json(body, 201);
  });

  const callOf = async (id: string): Promise<CallRecord> => {
    const call = await desk.registry.get(id);
    if (!call) throw new HttpError(404, `no call ${id} (only the newest calls are kept)`, 'not_found');
    return call;
  };

  /**
   * Reads the cart (and order) behind `request`, stores it on the call and tells every open page. A code
   * makes a new link; a refresh (`refreshing`) reads the stored one again. Undefined when what was read is
   * stale: a later read or another link was stored meanwhile.
   */
  const link = async (call: CallRecord, request: StoredLink, refreshing: boolean) => {
    const { snapshot, cartToken } = await readStorefront(desk, request);
    const kept: StoredLink = {
      ...request,
      cart_token: cartToken,
      ...(refreshing ? {} : { link: randomUUID(), linked_at: snapshot.readAt }),
    };
    const stored = await desk.registry.linkStorefront(
      call,
      kept,
      snapshot,
      summaryOf(snapshot),
      refreshing ? request : undefined,
    );
    if (stored === 'gone')
      throw new HttpError(404, `no call ${call.id} (only the newest calls are kept)`, 'not_found');
    if (stored === 'stale') return undefined;
    await desk.broadcaster.push(DeskEvents.callStatus, view(call));
    return { call: view(call), cart: snapshot };
  };

  app.post('/api/calls/:id/storefront', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    const { code } = parseInput(linkRequestSchema, await readJson(c.req.raw), 'support code');
    const call = await callOf(id);
    // No await between the check, the claim and the count: guesses arriving together must not all pass
    // the check while each one's call lookup is still out.
    refused.check();
    const request = codes.claim(code);
    if (typeof request === 'string') {
      refused.count();
      const [status, message, reason] = REFUSALS[request];
      throw new HttpError(status, message, reason);
    }
    let linked: Awaited<ReturnType<typeof link>>;
    try {
      const started = new Date().toISOString();
      linked = await link(call, request, false);
      if (!linked) {
        // Stale because the link this one replaces was read again meanwhile, not because another code was
        // linked since this one was typed: a second read is later than that one.
        const stored = await desk.registry.storefrontLink(id);
        if ((stored?.linked_at ?? '') < started) linked = await link(call, request, false);
      }
      if (!linked)
        throw new HttpError(
          409,
          'another support code was linked to this call while this one was read: refresh to see that cart',
          'link_superseded',
        );
    } catch (error) {
      // A store that is down costs the customer nothing: the code stays good.
      codes.release(code);
      throw error;
    }
    codes.forget(code);
    return c.json(linked);
  });

  app.post('/api/calls/:id/storefront/refresh', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    const call = await callOf(id);
    const request = await desk.registry.storefrontLink(id);
    if (!request)
      throw new HttpError(
        409,
        'this call is not linked to a cart: enter the customer’s support code',
        'not_linked',
      );
    // Stale: a newer read or another link is stored; the call shows that one.
    const linked = await link(call, request, true);
    if (linked) return c.json(linked);
    const current = await callOf(id);
    return c.json({ call: view(current), cart: current.cart ?? null });
  });

  app.get('/api/calls/:id/storefront', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    const call = await callOf(id);
    return c.json({ call: view(call), cart: call.cart ?? null });
  });
}
