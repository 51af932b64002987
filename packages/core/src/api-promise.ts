export interface WithResponse<T> {
  data: T;
  response: Response;
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

/** A promise of the parsed body that also offers the raw response through `.withResponse()`. */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;
  readonly [Symbol.toStringTag] = 'Promise';

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }
  // biome-ignore lint/suspicious/noThenProperty: this object is a promise by design.
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then((r) => r.data).then(onFulfilled, onRejected);
  }
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onRejected);
  }
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }
}
