import { ValidationError, type ValidationIssue } from './errors.js';
import { utf8Base64 } from './internal/encoding.js';
import { REDACTED } from './internal/redact.js';
import { credentialIssue, isHeaderName } from './option-checks.js';

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

/** Names the client option a credential came from, so its error says `apiKey` rather than `value`. */
export interface CredentialOptions {
  option?: string | undefined;
}

/**
 * Refuses a credential that could not be sent (control characters, a header that cannot carry it) when
 * the strategy is made, that is at client construction, as a `ValidationError` that never quotes it.
 */
function refuse(what: string, issues: Array<ValidationIssue | undefined>): void {
  const found = issues.filter((issue): issue is ValidationIssue => issue !== undefined);
  if (found.length > 0) throw new ValidationError(what, found);
}

function reveal(value: unknown): unknown {
  return value instanceof Secret ? value.reveal() : value;
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
  constructor(token: string | Secret, options: CredentialOptions) {
    super();
    refuse('bearerAuth credentials', [
      credentialIssue(options.option ?? 'token', reveal(token), { inHeader: true }),
    ]);
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
  constructor(name: string, value: string | Secret, options: CredentialOptions) {
    super();
    refuse('headerAuth credentials', [
      typeof name === 'string' && isHeaderName(name)
        ? undefined
        : { path: 'name', message: 'is not a valid HTTP header name' },
      credentialIssue(options.option ?? `${String(name)} header value`, reveal(value), { inHeader: true }),
    ]);
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
    refuse(
      'queryAuth credentials',
      Object.entries(params ?? {}).map(([name, value]) => credentialIssue(name, reveal(value))),
    );
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
  constructor(username: string, password: string | Secret, options: BasicOptions) {
    super();
    const userPath = options.usernameOption ?? 'username';
    refuse('basicAuth credentials', [
      credentialIssue(userPath, username) ??
        (username.includes(':')
          ? { path: userPath, message: 'contains ":", which Basic auth uses to separate user and password' }
          : undefined),
      credentialIssue(options.passwordOption ?? 'password', reveal(password)),
    ]);
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
    refuse(
      `${kind} signer credentials`,
      secrets.map((secret, i) => credentialIssue(`secrets[${i}]`, reveal(secret))),
    );
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

/** `Authorization: Bearer <token>`. `options.option` names the client option in errors (e.g. `apiKey`). */
export function bearerAuth(token: string | Secret, options: CredentialOptions = {}): AuthStrategy {
  return new BearerAuth(token, options);
}

/**
 * A raw header such as `authorization: <api key>` (AssemblyAI) or `x-api-key`. `options.option` names the
 * client option in errors (e.g. `apiKey`).
 */
export function headerAuth(
  name: string,
  value: string | Secret,
  options: CredentialOptions = {},
): AuthStrategy {
  return new HeaderAuth(name, value, options);
}

export interface BasicOptions {
  /** The client options the user name and password came from, named in errors. */
  usernameOption?: string | undefined;
  passwordOption?: string | undefined;
}

export function queryAuth(params: Record<string, string | Secret>): AuthStrategy {
  return new QueryAuth(params);
}

export function basicAuth(
  username: string,
  password: string | Secret,
  options: BasicOptions = {},
): AuthStrategy {
  return new BasicAuth(username, password, options);
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
