/**
 * The calls scripts/instructions.mjs counts: `node contenders.mjs <contender> <size> <warmup> <n>`
 * runs the contender `warmup` times, then `n` times (the count taken is the difference between a
 * run with n calls and one with none). Fixed inputs, like the bench's rows.
 */
import { createHmac, createSecretKey, randomBytes } from "node:crypto";
import sodium from "libsodium-wrappers-sumo";
import { nodeSeal } from "../../bench/poly1305.js";
import { chacha20poly1305, chacha20poly1305Key, poly1305 } from "../../src/hazmat.js";
import { mac } from "../../src/index.js";

await sodium.ready;
const [name = "", sizeText = "8192", warmupText = "30000", callsText = "0"] = process.argv.slice(2);
const size = Number(sizeText);
const key = new Uint8Array(randomBytes(32));
const nonce = new Uint8Array(randomBytes(12));
const message = new Uint8Array(randomBytes(size));
const keyObject = createSecretKey(key);
const preparedAead = chacha20poly1305Key(key);
const hmac = mac("hmac-sha256", key);

const CONTENDERS: Record<string, () => Uint8Array> = {
  "aead-keyed": () => chacha20poly1305(key, nonce).seal(message),
  "aead-keyed-prepared": () => preparedAead.seal(nonce, message),
  "aead-node": () => nodeSeal(key, nonce, message),
  "aead-node-keyobject": () => nodeSeal(keyObject, nonce, message),
  "poly1305-keyed": () => mac("poly1305", key).tag(message),
  "poly1305-hazmat": () => poly1305(key, message),
  "poly1305-libsodium": () => sodium.crypto_onetimeauth(message, key),
  "hmac-keyed": () => hmac.tag(message),
  "hmac-node": () => createHmac("sha256", key).update(message).digest(),
};

const call = CONTENDERS[name];
if (call === undefined) {
  console.error(`unknown contender ${name}; one of: ${Object.keys(CONTENDERS).join(", ")}`);
  process.exit(2);
}
let sink = 0;
for (let i = 0; i < Number(warmupText); i++) sink ^= call()[0];
for (let i = 0; i < Number(callsText); i++) sink ^= call()[0];
if (sink === 256) console.log(sink); // never: keeps the results used
