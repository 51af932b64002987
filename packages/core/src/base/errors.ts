/**
 * The root of the error hierarchy and the errors a browser client throws (`ValidationError`,
 * `RealtimeError`), apart from `errors.ts` so `@x/core/base` carries them without the HTTP errors.
 *
 * Branding instead of prototype identity: when the ESM and the CJS build of @x/core are both loaded
 * (a CJS dependency next to ESM app code), each has its own classes, and plain `instanceof` would say
 * an error thrown by one copy is not an instance of the other copy's class.
 */
const BRANDS = Symbol.for('@x/core/error-brands');

export interface XErrorOptions {
  cause?: unknown;
}

export class XError extends Error {
  static readonly brand: string = 'XError';
  declare readonly [BRANDS]: readonly string[];

  constructor(message: string, options?: XErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    const brands: string[] = [];
    for (let ctor: any = new.target; ctor && ctor !== Error; ctor = Object.getPrototypeOf(ctor)) {
      if (Object.hasOwn(ctor, 'brand')) brands.push(ctor.brand);
    }
    // Not enumerable (defineProperty's default), so neither shows in a spread or a console dump.
    Object.defineProperty(this, BRANDS, { value: Object.freeze(brands) });
    Object.defineProperty(this, 'name', { value: new.target.brand, writable: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    const brands = (value as { [BRANDS]?: unknown } | null | undefined)?.[BRANDS];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass being tested against, by design.
    return Array.isArray(brands) && brands.includes(this.brand);
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `line_items.0.quantity`; empty for the root. */
  path: string;
  message: string;
}

/** Input rejected before anything was sent. */
export class ValidationError extends XError {
  static override readonly brand: string = 'ValidationError';
  readonly issues: readonly ValidationIssue[];
  constructor(what: string, issues: readonly ValidationIssue[]) {
    super(
      `Invalid ${what}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    );
    this.issues = issues;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** A realtime protocol error: a `pusher:error` code or a WebSocket close code. */
export class RealtimeError extends XError {
  static override readonly brand: string = 'RealtimeError';
  readonly code: number | undefined;
  readonly closeCode: number | undefined;
  constructor(message: string, init?: { code?: number; closeCode?: number; cause?: unknown }) {
    super(message, { cause: init?.cause });
    this.code = init?.code;
    this.closeCode = init?.closeCode;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), code: this.code, closeCode: this.closeCode };
  }
}
