// node:http helpers the OAuth peer's authorization servers and resource server share.
import { randomBytes } from "node:crypto";

export const now = () => Math.floor(Date.now() / 1000);
export const random = (n = 32) => randomBytes(n).toString("base64url");
export const log = (msg) => console.error(`[oauth-server] ${msg}`);
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Browser clients fetch everything but the consent page cross-origin; DPoP-Nonce must be
// readable for a client to answer a use_dpop_nonce refusal.
export const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "mcp-session-id, mcp-protocol-version, www-authenticate, dpop-nonce" };

export function json(res, status, body, extra = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...extra });
  res.end(JSON.stringify(body));
}

export function html(res, status, body) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Frame-Options": "DENY" });
  res.end(`<!doctype html><meta charset="utf-8"><title>Test AS</title>
<style>body{font:16px system-ui,sans-serif;margin:2em}button{font-size:1.3em;padding:.5em 2em;margin-right:1em}</style>${body}`);
}

export function redirect(res, target, params) {
  const url = new URL(target);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  res.writeHead(302, { Location: url.href, "Cache-Control": "no-store" });
  res.end();
}

export async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}

export const isForm = (req) => String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
