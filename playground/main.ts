/**
 * The playground page (playground/index.html): tag a message with any MAC, check a webhook, and
 * time keyed's HMAC-SHA256 against WebCrypto's. Bundled by scripts/build-playground.mjs from the
 * built package; `npm run playground` serves it on 127.0.0.1.
 */
// The page times keyed at its fastest: with the WebAssembly kernels (docs/bundle-size.md).
import "keyed/wasm";
import {
  base64ToBytes,
  bytesToHex,
  hexToBytes,
  KeyedError,
  type MacName,
  mac,
  macInfo,
  macNames,
  utf8ToBytes,
} from "keyed";
import {
  verifyGitHub,
  verifySlack,
  verifyStandardWebhook,
  verifyStripe,
  type WebhookResult,
} from "keyed/webhooks";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

type Encoding = "hex" | "base64" | "text";

/** The bytes of `value` in `encoding`; hex may have spaces and a 0x prefix. */
export function decode(value: string, encoding: Encoding): Uint8Array {
  if (encoding === "text") return utf8ToBytes(value);
  if (encoding === "hex") return hexToBytes(value.replace(/\s+/g, "").replace(/^0x/i, ""));
  return base64ToBytes(value.trim());
}

function show(output: HTMLElement, parts: [label: string, text: string, kind?: string][]): void {
  output.replaceChildren(
    ...parts.flatMap(([label, text, kind]) => {
      const name = document.createElement("span");
      name.className = "label";
      name.textContent = label;
      const value = document.createElement("span");
      value.textContent = text;
      if (kind) value.className = kind;
      return [name, value];
    }),
  );
}

const errorText = (e: unknown) => (e instanceof KeyedError ? `${e.code}: ${e.message}` : String(e));

// --- tag ----------------------------------------------------------------------------------------

function setUpTag(): void {
  const select = $<HTMLSelectElement>("algorithm");
  for (const name of macNames()) select.add(new Option(name, name, false, name === "hmac-sha256"));
  $<HTMLFormElement>("tag-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const output = $("tag-output");
    const name = select.value as MacName;
    try {
      const key = decode(
        $<HTMLInputElement>("key").value,
        $<HTMLSelectElement>("key-encoding").value as Encoding,
      );
      const message = decode(
        $<HTMLTextAreaElement>("message").value,
        $<HTMLSelectElement>("message-encoding").value as Encoding,
      );
      const m = mac(name, key, { allowShortKeys: $<HTMLInputElement>("allow-short-keys").checked });
      const tag = m.tag(message);
      m.destroy();
      const info = macInfo(name);
      show(output, [
        [
          `${name} tag (${tag.length} bytes${info.nonceLength ? `, a random ${info.nonceLength}-byte nonce first` : ""})`,
          bytesToHex(tag),
          "tag",
        ],
      ]);
    } catch (e) {
      show(output, [["error", errorText(e), "error"]]);
    }
  });
}

// --- webhooks -----------------------------------------------------------------------------------

/** "Name: value" lines as fetch Headers. */
function parseHeaders(text: string): Headers {
  const headers = new Headers();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

function checkWebhook(
  provider: string,
  secret: string,
  body: string,
  headers: Headers,
): WebhookResult {
  switch (provider) {
    case "github":
      return verifyGitHub(secret, body, headers.get("x-hub-signature-256"));
    case "stripe":
      return verifyStripe(secret, body, headers.get("stripe-signature"));
    case "slack":
      return verifySlack(secret, body, {
        signature: headers.get("x-slack-signature"),
        timestamp: headers.get("x-slack-request-timestamp"),
      });
    default:
      return verifyStandardWebhook(secret, body, headers);
  }
}

function setUpWebhook(): void {
  $<HTMLFormElement>("webhook-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const output = $("webhook-output");
    try {
      const result = checkWebhook(
        $<HTMLSelectElement>("provider").value,
        $<HTMLInputElement>("secret").value,
        $<HTMLTextAreaElement>("body").value,
        parseHeaders($<HTMLTextAreaElement>("headers").value),
      );
      show(
        output,
        result.ok
          ? [["verdict", "ok: the signature matches", "ok"]]
          : [
              ["verdict", `refused: ${result.reason}`, "refused"],
              ["why", result.message],
            ],
      );
    } catch (e) {
      // Only the receiver's own settings throw (an empty or malformed secret).
      show(output, [["error in the settings", errorText(e), "error"]]);
    }
  });
  $("webhook-example").addEventListener("click", () => {
    // GitHub's documentation ("Validating webhook deliveries").
    $<HTMLSelectElement>("provider").value = "github";
    $<HTMLInputElement>("secret").value = "It's a Secret to Everybody";
    $<HTMLTextAreaElement>("body").value = "Hello, World!";
    $<HTMLTextAreaElement>("headers").value =
      "X-Hub-Signature-256: sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
  });
}

// --- benchmark ----------------------------------------------------------------------------------

export interface BenchRow {
  size: number;
  keyed: number;
  webcrypto: number;
}

const SIZES = [64, 1024, 16384];

/** Tags per second of `tag` over `ms` milliseconds (awaited only when it returns a Promise). */
async function rate(tag: () => unknown, ms: number): Promise<number> {
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 16; i++) {
      const r = tag();
      if (r instanceof Promise) await r;
    }
    count += 16;
    now = performance.now();
  }
  return (count * 1000) / (now - start);
}

async function runBench(ms: number, status: HTMLElement): Promise<BenchRow[]> {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const keyedMac = mac("hmac-sha256", key);
  const webKey = await crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const rows: BenchRow[] = [];
  for (const size of SIZES) {
    const message = crypto.getRandomValues(new Uint8Array(size));
    const out = new Uint8Array(32);
    status.textContent = `timing ${size}-byte messages…`;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const keyed = await rate(() => keyedMac.tag(message, out), ms);
    const webcrypto = await rate(() => crypto.subtle.sign("HMAC", webKey, message), ms);
    rows.push({ size, keyed, webcrypto });
  }
  keyedMac.destroy();
  return rows;
}

const size = (n: number) => (n >= 1024 ? `${n / 1024} KiB` : `${n} B`);
const perSecond = (n: number) =>
  n >= 1e6
    ? `${(n / 1e6).toFixed(2)} M/s`
    : n >= 1e3
      ? `${(n / 1e3).toFixed(1)} k/s`
      : `${n.toFixed(0)}/s`;

/** Horizontal bars, two per message size, each pair scaled to its faster member. */
export function chart(rows: BenchRow[]): string {
  const width = 560;
  const rowHeight = 22;
  const left = 150;
  const right = 150;
  const top = 28;
  const groupGap = 14;
  const height = top + rows.length * (2 * rowHeight + groupGap) + 6;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="HMAC-SHA256 tags per second, keyed and WebCrypto">`,
    `<text x="${left}" y="16" font-size="12" fill="#5b6575">tags per second (MB/s), bars scaled per message size</text>`,
  ];
  rows.forEach((row, g) => {
    const y0 = top + g * (2 * rowHeight + groupGap);
    const best = Math.max(row.keyed, row.webcrypto);
    parts.push(
      `<text x="0" y="${y0 + rowHeight + 4}" font-size="13" font-weight="600" fill="#1d2430">${size(row.size)}</text>`,
    );
    (["keyed", "webcrypto"] as const).forEach((who, i) => {
      const value = row[who];
      const y = y0 + i * rowHeight;
      const w = Math.max(2, ((width - left - right) * value) / best);
      const mbps = ((value * row.size) / 1e6).toFixed(1);
      parts.push(
        `<text x="${left - 8}" y="${y + 15}" font-size="12" text-anchor="end" fill="#5b6575">${who === "keyed" ? "keyed" : "WebCrypto"}</text>`,
        `<rect class="bar ${who}" x="${left}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 6}" rx="3" fill="${who === "keyed" ? "#2456c9" : "#d9822b"}"/>`,
        `<text x="${(left + w + 6).toFixed(1)}" y="${y + 15}" font-size="12" fill="#1d2430">${perSecond(value)} (${mbps} MB/s)</text>`,
      );
    });
  });
  parts.push("</svg>");
  return parts.join("");
}

function setUpBench(): void {
  $("bench-button").addEventListener("click", async () => {
    const button = $<HTMLButtonElement>("bench-button");
    const status = $("bench-status");
    button.disabled = true;
    try {
      const rows = await runBench(Number($<HTMLSelectElement>("bench-time").value), status);
      $("bench-chart").innerHTML = chart(rows);
      status.textContent = `done: ${rows.map((r) => `${size(r.size)} keyed ${perSecond(r.keyed)}, WebCrypto ${perSecond(r.webcrypto)}`).join("; ")}`;
    } catch (e) {
      status.textContent = `error: ${errorText(e)}`;
    } finally {
      button.disabled = false;
    }
  });
}

setUpTag();
setUpWebhook();
setUpBench();
