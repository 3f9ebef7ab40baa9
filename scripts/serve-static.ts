/**
 * A static file server on 127.0.0.1, for the playground (`npm run playground`) and the browser
 * tests. It serves files under `root` only (no directory listings, nothing outside `root`), with
 * `index.html` for a folder, and lets the caller add headers per path (the CSP tests do).
 */
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
};

export interface StaticServerOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Extra response headers for a request path (e.g. a Content-Security-Policy). */
  headers?: (path: string) => Record<string, string>;
}

export interface StaticServer {
  /** "http://127.0.0.1:PORT/" */
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(
  folder: string,
  options: StaticServerOptions = {},
): Promise<StaticServer> {
  const root = resolve(folder);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
        ...options.headers?.(path),
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
