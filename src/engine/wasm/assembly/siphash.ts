// AssemblyScript: SipHash-c-d with 64- or 128-bit output (Aumasson and Bernstein, "SipHash: a
// fast short-input PRF", 2012, section 2; the 128-bit mode from the reference code) on native
// u64 words. Only additions, XORs and fixed rotations, no branch or index on key or message
// bytes (the message length is public): constant time. Key-derived scratch is zeroed before
// return, except STATE between a stream's calls, which the JavaScript side copies out and zeroes.

// Memory map (bytes). A key slot holds k0 ‖ k1 (16 bytes, little-endian); a stream's state
// (v0..v3) is copied into STATE for each call and zeroed there after. Slots are 16 bytes.
export const KEY: usize = 1024; // a one-shot key, written and wiped by the JavaScript side
export const STATE: usize = 1056; // v0..v3 for a one-call hash
export const TAIL: usize = 1088; // the last message word
export const ZERO: usize = 1096; // a zero word: finalization is compress() over m = 0
export const OUT: usize = 1120; // the 8- or 16-byte result
export const MSG: usize = 2048; // the message, up to MSG_CAPACITY bytes (+8 spare), zeroed as read
export const MSG_CAPACITY: usize = 65536;
export const SLOTS: usize = 68608;

/**
 * Absorbs `words` little-endian words from `data` into the state at `state`, `rounds` SipRounds
 * each (section 2, compression: v3 ^= m, c rounds, v0 ^= m), zeroing each word once read: the
 * message does not stay in MSG, and no extra pass clears it. With m = 0 it is the finalization's d rounds.
 */
function compress(state: usize, data: usize, words: usize, rounds: i32): void {
  let v0 = load<u64>(state);
  let v1 = load<u64>(state, 8);
  let v2 = load<u64>(state, 16);
  let v3 = load<u64>(state, 24);
  const end = data + (words << 3);
  for (let p = data; p < end; p += 8) {
    const m = load<u64>(p);
    store<u64>(p, 0);
    v3 ^= m;
    // SipRound (section 2), its two halves interleaved. SipHash-2-4's two rounds per word are
    // written out: V8 puts an interrupt check on every loop back-edge, and the unrolled form
    // measured 15-25% faster on long inputs.
    if (rounds == 2) {
      v0 += v1;
      v2 += v3;
      v1 = rotl<u64>(v1, 13) ^ v0;
      v3 = rotl<u64>(v3, 16) ^ v2;
      v0 = rotl<u64>(v0, 32);
      v2 += v1;
      v0 += v3;
      v1 = rotl<u64>(v1, 17) ^ v2;
      v3 = rotl<u64>(v3, 21) ^ v0;
      v2 = rotl<u64>(v2, 32);
      v0 += v1;
      v2 += v3;
      v1 = rotl<u64>(v1, 13) ^ v0;
      v3 = rotl<u64>(v3, 16) ^ v2;
      v0 = rotl<u64>(v0, 32);
      v2 += v1;
      v0 += v3;
      v1 = rotl<u64>(v1, 17) ^ v2;
      v3 = rotl<u64>(v3, 21) ^ v0;
      v2 = rotl<u64>(v2, 32);
    } else {
      let r = rounds;
      do {
        v0 += v1;
        v2 += v3;
        v1 = rotl<u64>(v1, 13) ^ v0;
        v3 = rotl<u64>(v3, 16) ^ v2;
        v0 = rotl<u64>(v0, 32);
        v2 += v1;
        v0 += v3;
        v1 = rotl<u64>(v1, 17) ^ v2;
        v3 = rotl<u64>(v3, 21) ^ v0;
        v2 = rotl<u64>(v2, 32);
      } while (--r);
    }
    v0 ^= m;
  }
  store<u64>(state, v0);
  store<u64>(state, v1, 8);
  store<u64>(state, v2, 16);
  store<u64>(state, v3, 24);
}

/** v0..v3 from the key at `key` (section 2, initialization: "somepseudorandomlygeneratedbytes"). */
export function sip_init(state: usize, key: usize, wide: i32): void {
  const k0 = load<u64>(key);
  const k1 = load<u64>(key, 8);
  store<u64>(state, k0 ^ 0x736f6d6570736575);
  // The 128-bit mode marks v1 with 0xee.
  store<u64>(state, k1 ^ 0x646f72616e646f6d ^ (wide ? 0xee : 0), 8);
  store<u64>(state, k0 ^ 0x6c7967656e657261, 16);
  store<u64>(state, k1 ^ 0x7465646279746573, 24);
}

/** Absorbs (and zeroes) MSG[0..len), len a multiple of 8, into a stream's state. */
export function sip_absorb(state: usize, len: usize, c: i32): void {
  compress(state, MSG, len >> 3, c);
}

/**
 * Absorbs (and zeroes) MSG[0..len), then the last word (the remaining bytes, `total` mod 256 in
 * its top byte), and finalizes (section 2, finalization) into OUT; the state is wiped.
 */
export function sip_finish(state: usize, len: usize, total: u32, c: i32, d: i32, wide: i32): void {
  const full = len & ~7;
  compress(state, MSG, full >> 3, c);
  // The bytes past len are masked off: the tail word reads only the message.
  const rest = len - full;
  const mask: u64 = rest == 0 ? 0 : 0xffffffffffffffff >> ((8 - rest) << 3);
  store<u64>(TAIL, (load<u64>(MSG + full) & mask) | ((<u64>(total & 0xff)) << 56));
  store<u64>(MSG + full, 0);
  compress(state, TAIL, 1, c);
  store<u64>(state + 16, load<u64>(state + 16) ^ (wide ? 0xee : 0xff));
  compress(state, ZERO, 1, d);
  store<u64>(OUT, load<u64>(state) ^ load<u64>(state, 8) ^ load<u64>(state, 16) ^ load<u64>(state, 24));
  if (wide) {
    store<u64>(state + 8, load<u64>(state + 8) ^ 0xdd);
    compress(state, ZERO, 1, d);
    store<u64>(OUT + 8, load<u64>(state) ^ load<u64>(state, 8) ^ load<u64>(state, 16) ^ load<u64>(state, 24));
  }
  memory.fill(state, 0, 32);
}

/** SipHash-c-d of MSG[0..len) under the key at `key` (a slot or KEY) into OUT, in one call. */
export function siphash(key: usize, len: usize, c: i32, d: i32, wide: i32): void {
  sip_init(STATE, key, wide);
  sip_finish(STATE, len, <u32>len, c, d, wide);
}
