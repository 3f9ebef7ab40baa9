/**
 * The playground (playground/, built into dist-playground/ by `npm run build`) in headless
 * Chromium: the tag form gives RFC 4231 test case 2, the webhook form gives GitHub's documented
 * example's verdict and a refusal with its reason, and the benchmark draws its chart. The page is
 * then photographed for docs/playground.png: written when that file is missing or when
 * KEYED_UPDATE_SCREENSHOT=1 (the benchmark's numbers differ on every run, and a test run should
 * not leave the work tree changed); otherwise into the temporary folder, whose path is printed.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { type StaticServer, serveStatic } from "../../scripts/serve-static.js";
import { CHROMIUM, CHROMIUM_FLAGS, need, skipUnlessFound } from "../services.js";

const root = join(import.meta.dirname, "..", "..");
const site = join(root, "dist-playground");
const screenshot = join(root, "docs", "playground.png");
const updateScreenshot = process.env.KEYED_UPDATE_SCREENSHOT === "1" || !existsSync(screenshot);

describe("the playground in Chromium", {
  skip: existsSync(join(site, "index.html"))
    ? skipUnlessFound(CHROMIUM)
    : "dist-playground/ not built (npm test runs `npm run build` first)",
}, () => {
  let dir: string;
  let server: StaticServer;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "keyed-playground-"));
    server = await serveStatic(site);
    const { chromium } = await import("playwright-core");
    context = await chromium.launchPersistentContext(join(dir, "profile"), {
      executablePath: need(CHROMIUM).path,
      args: CHROMIUM_FLAGS,
      headless: true,
      viewport: { width: 1280, height: 720 },
    });
    page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForSelector("#algorithm option", { state: "attached" });
    assert.deepEqual(errors, []);
  });
  after(async () => {
    await context?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('tags RFC 4231 test case 2 (HMAC-SHA256, key "Jefe" as text)', async () => {
    await page.selectOption("#algorithm", "hmac-sha256");
    await page.fill("#key", "Jefe");
    await page.selectOption("#key-encoding", "text");
    await page.fill("#message", "what do ya want for nothing?");
    await page.check("#allow-short-keys");
    await page.click("#tag-button");
    assert.equal(
      await page.textContent("#tag-output .tag"),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
    // The same key in hex, and without the opt-in the 4-byte key is refused.
    await page.fill("#key", "4a656665");
    await page.selectOption("#key-encoding", "hex");
    await page.click("#tag-button");
    assert.match((await page.textContent("#tag-output .tag")) ?? "", /^5bdcc146/);
    await page.uncheck("#allow-short-keys");
    await page.click("#tag-button");
    assert.match((await page.textContent("#tag-output .error")) ?? "", /^KEY_TOO_SHORT/);
    await page.check("#allow-short-keys");
    await page.click("#tag-button");
  });

  it("checks GitHub's documentation webhook, and refuses a changed body with its reason", async () => {
    await page.click("#webhook-example");
    await page.fill("#body", "Hello, World?");
    await page.click("#webhook-button");
    assert.equal(await page.textContent("#webhook-output .refused"), "refused: signature_mismatch");
    await page.fill("#body", "Hello, World!");
    await page.click("#webhook-button");
    assert.equal(await page.textContent("#webhook-output .ok"), "ok: the signature matches");
  });

  it('benchmarks keyed against crypto.subtle.sign("HMAC") and draws the chart', async () => {
    await page.selectOption("#bench-time", "200");
    await page.click("#bench-button");
    await page.waitForSelector("#bench-chart svg", { timeout: 30_000 });
    assert.equal(await page.locator("#bench-chart rect.bar.keyed").count(), 3);
    assert.equal(await page.locator("#bench-chart rect.bar.webcrypto").count(), 3);
    assert.match((await page.textContent("#bench-status")) ?? "", /^done: 64 B keyed [\d.]+/);
  });

  it(`photographs the page (${updateScreenshot ? "docs/playground.png" : "KEYED_UPDATE_SCREENSHOT=1 writes docs/playground.png"})`, async (t) => {
    const path = updateScreenshot ? screenshot : join(dir, "playground.png");
    await page.screenshot({ path, fullPage: true });
    assert.ok(existsSync(path));
    if (!updateScreenshot) t.diagnostic(`screenshot: ${path} (removed after the run)`);
  });
});
