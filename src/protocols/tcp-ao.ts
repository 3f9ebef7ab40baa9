/**
 * TCP-AO, the TCP Authentication Option (RFC 5925), with the algorithms of RFC 5926 and
 * HMAC-SHA-256-128.
 *
 * - Traffic keys (RFC 5925 5.2, RFC 5926 3.1.1): Traffic_Key = PRF(Master_Key, i ‖ "TCP-AO" ‖
 *   Context ‖ Output_Length), i = 1, Context = the connection's addresses, ports and ISNs.
 * - The MAC (RFC 5925 5.1) covers: the sequence number extension (SNE, 4 bytes), the IPv4 or IPv6
 *   pseudo-header, the TCP header with its checksum and the TCP-AO MAC field read as zero (and,
 *   when the key excludes options, no option but TCP-AO), then the payload.
 *
 * A prepared `TcpAoMac` allocates nothing per segment once it has seen a segment of that length:
 * the MAC input is assembled in one buffer it owns (grown on demand, with a view per input length,
 * at most 64 kept), and the kernel runs over it in one call; the caller's segment is read, never
 * changed or sliced.
 *
 * The parts live under tcp-ao/: common.ts (the algorithms), kdf.ts (traffic keys), segment.ts
 * (the option), mac.ts (the MAC).
 */
export {
  TCP_AO_OPTION_KIND,
  type TcpAoAlgorithm,
} from "./tcp-ao/common.js";
export {
  type TcpAoConnection,
  type TcpAoKdfOptions,
  type TcpAoKeyContext,
  type TcpAoTrafficKeys,
  tcpAoKdfContext,
  tcpAoTrafficKey,
  tcpAoTrafficKeys,
} from "./tcp-ao/kdf.js";
export {
  type TcpAoCheck,
  type TcpAoFailure,
  TcpAoMac,
  type TcpAoMacOptions,
  type TcpAoSegment,
  tcpAo,
} from "./tcp-ao/mac.js";
export { type TcpAoOption, tcpAoOption } from "./tcp-ao/segment.js";
