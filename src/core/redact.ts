/**
 * Redacted printing for objects that hold key material (cf. RustCrypto's `hmac`, whose Debug output
 * never shows the key). `console.log`, `util.inspect` and `JSON.stringify` show the class name and
 * the public fields a summary names, never a key, a pad block or a kernel state.
 */

/** Node's hook for `util.inspect` (and so `console.log`); a plain symbol elsewhere. */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** The text printed in place of key material. */
export const REDACTED = "[redacted]";

/**
 * Makes every instance of `cls` (and of its subclasses) print as `Name { …summary, key: "[redacted]" }` and serialize as
 * `{ …summary, key: "[redacted]" }`. `summary` returns only public, non-secret fields.
 */
export function redactKeyMaterial<T extends object>(
  cls: { prototype: T; name: string },
  summary: (self: T) => Record<string, unknown> = () => ({}),
): void {
  const plain = (self: T) => ({ ...summary(self), key: REDACTED });
  Object.defineProperty(cls.prototype, "toJSON", {
    value(this: T) {
      return plain(this);
    },
    configurable: true,
    writable: true,
  });
  Object.defineProperty(cls.prototype, INSPECT, {
    value(
      this: T,
      _depth: number,
      options: unknown,
      inspect?: (value: unknown, options: unknown) => string,
    ) {
      const body =
        inspect === undefined ? JSON.stringify(plain(this)) : inspect(plain(this), options);
      // The instance's own class, so that a subclass prints its own name.
      return `${(this as { constructor: { name: string } }).constructor.name ?? cls.name} ${body}`;
    },
    configurable: true,
    writable: true,
  });
}
