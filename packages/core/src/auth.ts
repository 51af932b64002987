import { utf8Base64 } from './internal/encoding.js';
import { REDACTED } from './internal/redact.js';

/** A request as auth strategies see it, just before it is sent: they may change headers and URL. */
export interface PreparedRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The serialised body (JSON text, form data, bytes), for signers that cover it. */
  body: BodyInit | undefined;
}

export interface AuthStrategy {
  readonly kind: string;
  apply(request: PreparedRequest): void | Promise<void>;
  /** Secret values this strategy holds, so the client can scrub them from logs and errors. */
  secretValues(): readonly string[];
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * A credential that refuses to print itself: `String(secret)`, `JSON.stringify`, `util.inspect` and
 * template literals all give `[REDACTED]`. Only `reveal()` gives the value.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspectSymbol](): string {
    return REDACTED;
  }
}

function secretOf(value: string | Secret): Secret {
  return value instanceof Secret ? value : new Secret(value);
}

/** Strategies print as `{ kind }` only, whatever a logger or serializer does with them. */
abstract class BaseAuth implements AuthStrategy {
  abstract readonly kind: string;
  abstract apply(request: PreparedRequest): void | Promise<void>;
  abstract secretValues(): readonly string[];
  toJSON(): { kind: string } {
    return { kind: this.kind };
  }
  toString(): string {
    return `[auth ${this.kind}]`;
  }
  [inspectSymbol](): string {
    return this.toString();
  }
}

class BearerAuth extends BaseAuth {
  readonly kind = 'bearer';
  readonly #token: Secret;
  constructor(token: string | Secret) {
    super();
    this.#token = secretOf(token);
  }
  apply(request: PreparedRequest): void {
    request.headers.set('authorization', `Bearer ${this.#token.reveal()}`);
  }
  secretValues(): readonly string[] {
    return [this.#token.reveal()];
  }
}

class HeaderAuth extends BaseAuth {
  readonly kind = 'header';
  readonly #name: string;
  readonly #value: Secret;
  constructor(name: string, value: string | Secret) {
    super();
    this.#name = name;
    this.#value = secretOf(value);
  }
  apply(request: PreparedRequest): void {
    request.headers.set(this.#name, this.#value.reveal());
  }
  secretValues(): readonly string[] {
    return [this.#value.reveal()];
  }
}

class QueryAuth extends BaseAuth {
  readonly kind = 'query';
  readonly #params: ReadonlyArray<readonly [string, Secret]>;
  constructor(params: Record<string, string | Secret>) {
    super();
    this.#params = Object.entries(params).map(([name, value]) => [name, secretOf(value)] as const);
  }
  apply(request: PreparedRequest): void {
    for (const [name, value] of this.#params) request.url.searchParams.set(name, value.reveal());
  }
  secretValues(): readonly string[] {
    return this.#params.map(([, value]) => value.reveal());
  }
}

class BasicAuth extends BaseAuth {
  readonly kind = 'basic';
  readonly #username: string;
  readonly #password: Secret;
  constructor(username: string, password: string | Secret) {
    super();
    this.#username = username;
    this.#password = secretOf(password);
  }
  apply(request: PreparedRequest): void {
    request.headers.set(
      'authorization',
      `Basic ${utf8Base64(`${this.#username}:${this.#password.reveal()}`)}`,
    );
  }
  secretValues(): readonly string[] {
    return [this.#password.reveal(), `${this.#username}:${this.#password.reveal()}`];
  }
}

class SignerAuth extends BaseAuth {
  readonly kind: string;
  readonly #sign: (request: PreparedRequest) => void | Promise<void>;
  readonly #secrets: readonly Secret[];
  constructor(
    kind: string,
    sign: (request: PreparedRequest) => void | Promise<void>,
    secrets: ReadonlyArray<string | Secret>,
  ) {
    super();
    this.kind = kind;
    this.#sign = sign;
    this.#secrets = secrets.map(secretOf);
  }
  apply(request: PreparedRequest): void | Promise<void> {
    return this.#sign(request);
  }
  secretValues(): readonly string[] {
    return this.#secrets.map((s) => s.reveal());
  }
}

class ComposedAuth extends BaseAuth {
  readonly kind: string;
  readonly #parts: readonly AuthStrategy[];
  constructor(parts: readonly AuthStrategy[]) {
    super();
    this.#parts = parts;
    this.kind = parts.map((p) => p.kind).join('+');
  }
  async apply(request: PreparedRequest): Promise<void> {
    for (const part of this.#parts) await part.apply(request);
  }
  secretValues(): readonly string[] {
    return this.#parts.flatMap((p) => p.secretValues());
  }
}

export function bearerAuth(token: string | Secret): AuthStrategy {
  return new BearerAuth(token);
}

/** A raw header such as `authorization: <api key>` (AssemblyAI) or `x-api-key`. */
export function headerAuth(name: string, value: string | Secret): AuthStrategy {
  return new HeaderAuth(name, value);
}

export function queryAuth(params: Record<string, string | Secret>): AuthStrategy {
  return new QueryAuth(params);
}

export function basicAuth(username: string, password: string | Secret): AuthStrategy {
  return new BasicAuth(username, password);
}

/**
 * A request-signing hook for schemes that depend on the final method, URL and body (OAuth 1.0a, HMAC
 * query signing). `secrets` lists the values it uses, for redaction.
 */
export function signerAuth(
  kind: string,
  sign: (request: PreparedRequest) => void | Promise<void>,
  secrets: ReadonlyArray<string | Secret>,
): AuthStrategy {
  return new SignerAuth(kind, sign, secrets);
}

export function composeAuth(...strategies: AuthStrategy[]): AuthStrategy {
  return new ComposedAuth(strategies);
}
