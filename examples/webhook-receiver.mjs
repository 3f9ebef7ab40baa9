// A tiny GitHub webhook receiver on node:http. It reads the raw body once (with a size limit),
// checks X-Hub-Signature-256 on those bytes, and only then parses the JSON.
//
//   npm run build
//   GITHUB_WEBHOOK_SECRET=… node examples/webhook-receiver.mjs      (listens on 127.0.0.1:8787)
//   node examples/webhook-receiver.mjs --self-test                   (sends itself two requests)
import { createServer } from "node:http";
import { bytesToUtf8 } from "keyed";
import { signGitHub, verifyGitHubRequest } from "keyed/webhooks";

const selfTest = process.argv.includes("--self-test");
const secret = process.env.GITHUB_WEBHOOK_SECRET ?? (selfTest ? "self-test secret" : undefined);
if (!secret) {
  console.error("Set GITHUB_WEBHOOK_SECRET to the secret configured on GitHub.");
  process.exit(1);
}
const port = selfTest ? 0 : Number(process.env.PORT ?? 8787);

const server = createServer(async (req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  // GitHub caps payloads at 25 MB; most events are far smaller.
  const result = await verifyGitHubRequest(secret, req, { limit: 25 * 1024 * 1024 });
  if (!result.ok) {
    console.warn(`refused: ${result.reason} (${result.message})`);
    const status = result.reason === "body_too_large" ? 413 : 401;
    res.writeHead(status, { connection: "close" }).end();
    return;
  }
  const event = req.headers["x-github-event"] ?? "unknown";
  const payload = JSON.parse(bytesToUtf8(result.body));
  console.log(`${event} event for ${payload.repository?.full_name ?? "(no repository)"}`);
  res.writeHead(204).end();
});

server.listen(port, "127.0.0.1", async () => {
  const url = `http://127.0.0.1:${server.address().port}/`;
  console.log(`listening on ${url}`);
  if (!selfTest) return;
  const body = JSON.stringify({
    zen: "Keep it logically awesome.",
    repository: { full_name: "octo/hello" },
  });
  const send = (signature) =>
    fetch(url, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-hub-signature-256": signature,
      },
    });
  const good = await send(signGitHub(secret, body));
  const forged = await send(signGitHub("not the secret", body));
  console.log(`signed request: ${good.status}, forged request: ${forged.status}`);
  server.close();
  process.exitCode = good.status === 204 && forged.status === 401 ? 0 : 1;
});
