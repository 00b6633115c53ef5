// The delivery dashboard (docs/decisions/dashboard.md): static files from ./page, served as they are
// (native ES modules, no build), under a policy that lets the page run only its own scripts and
// styles and talk only to this service. The page is a client of the public API; no data is rendered
// here.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import type { App } from '../http/app.ts';
import { ApiError } from '../http/problem.ts';

const PAGE_DIR = new URL('./page/', import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// No inline script or style, nothing from elsewhere, no framing; Trusted Types with no policy make
// the browser refuse any string assigned as HTML (innerHTML and its kin), so untrusted text can only
// ever be text.
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // Revalidated on every load (the ETag makes that a 304), so a new version is picked up at once.
  'cache-control': 'no-cache',
};

interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

async function loadAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const name of await readdir(PAGE_DIR)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType) continue;
    const body = await readFile(new URL(name, PAGE_DIR));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { body, contentType, etag });
  }
  return assets;
}

function sendAsset(reply: FastifyReply, asset: Asset, ifNoneMatch: string | undefined) {
  reply.headers(HEADERS).header('etag', asset.etag).header('content-type', asset.contentType);
  if (ifNoneMatch === asset.etag) return reply.status(304).send();
  return reply.send(asset.body);
}

const hide = { hide: true } as const;

export async function registerDashboard(app: App): Promise<void> {
  const assets = await loadAssets();
  const index = assets.get('index.html');
  if (!index) throw new Error('src/dashboard/page/index.html is missing');

  // The page's files are addressed relative to /dashboard/, so /dashboard sends the browser there
  // (relative, so a path prefix in front of the service is kept).
  app.get('/dashboard', { schema: hide }, async (request, reply) => {
    if (!request.url.split('?')[0]?.endsWith('/')) {
      return reply.headers(HEADERS).status(308).header('location', 'dashboard/').send();
    }
    return sendAsset(reply, index, request.headers['if-none-match']);
  });

  app.get(
    '/dashboard/:file',
    { schema: { ...hide, params: Type.Object({ file: Type.String() }) } },
    async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (!asset) throw new ApiError('ROUTE_NOT_FOUND', `No dashboard file ${request.params.file}`);
      return sendAsset(reply, asset, request.headers['if-none-match']);
    },
  );
}
