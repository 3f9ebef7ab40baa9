// AssemblyScript, shared by the blake3 and poly1305 modules (imported, not a module of its own):
// short copies and zeroing by v128 stores. memory.copy and memory.fill leave the module for a C
// call in V8, which costs more than the stores at the lengths a block, a tag or a state area has.

/** Copies n bytes, 16 at a time, then byte by byte. */
export function copyBytes(to: usize, from: usize, n: usize): void {
  let i: usize = 0;
  for (; i + 16 <= n; i += 16) v128.store(to + i, v128.load(from + i));
  for (; i < n; i++) store<u8>(to + i, load<u8>(from + i));
}

/** Zeroes n bytes, 16 at a time, then byte by byte. */
export function zeroBytes(at: usize, n: usize): void {
  const zero = i64x2.splat(0);
  let i: usize = 0;
  for (; i + 16 <= n; i += 16) v128.store(at + i, zero);
  for (; i < n; i++) store<u8>(at + i, 0);
}
