import { type APIPromise, type BaseClient, parseInput, type RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import {
  gatewayId,
  type PaymentGateway,
  type PaymentGatewayUpdateInput,
  paymentGateway,
  paymentGatewayUpdateInput,
} from '../schemas/payment-gateways.js';
import { checkInput } from '../schemas/validate.js';
import type { StoreContext } from './collection.js';

/** Payment gateways (`/payment_gateways`): list, read, and switch on or configure. */
export class PaymentGateways {
  readonly #client: BaseClient;
  readonly #allowUnknown: boolean;

  constructor(context: StoreContext) {
    this.#client = context.client;
    this.#allowUnknown = context.allowUnknownFields;
  }

  /** Every gateway, in the store's checkout order (one response, not paged). */
  list(options?: RequestOptions): APIPromise<PaymentGateway[]> {
    return this.#client.request({
      method: 'GET',
      path: '/payment_gateways',
      schema: z.array(paymentGateway),
      what: 'paymentGateways.list',
      options,
    });
  }

  /** One gateway by id (`bacs`, `cheque`, `cod`, ...). */
  get(id: string, options?: RequestOptions): APIPromise<PaymentGateway> {
    return this.#client.request(() => ({
      method: 'GET' as const,
      path: `/payment_gateways/${checkGatewayId(id)}`,
      schema: paymentGateway,
      what: 'paymentGateways.get',
      options,
    }));
  }

  /** Only what you pass changes; settings are checked by the store against each field's type. */
  update(id: string, input: PaymentGatewayUpdateInput, options?: RequestOptions): APIPromise<PaymentGateway> {
    return this.#client.request(() => ({
      method: 'PUT' as const,
      path: `/payment_gateways/${checkGatewayId(id)}`,
      body: checkInput(paymentGatewayUpdateInput, input, 'paymentGateways.update input', this.#allowUnknown),
      schema: paymentGateway,
      what: 'paymentGateways.update',
      options,
    }));
  }
}

function checkGatewayId(value: unknown): string {
  return parseInput(z.object({ id: gatewayId }), { id: value }, 'id').id;
}
