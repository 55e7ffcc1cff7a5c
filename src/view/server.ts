// `body-bridge view`'s server: a loopback HTTP server for one model. It serves the page (web/), three.js
// and urdf-loader from the package's own node_modules (nothing from the network), the URDF exactly as
// `body-bridge urdf` writes it with its meshes held in memory, the scene description, and a stream of
// server-sent events that tells the page to reload when the model or a file it uses changes. A broken
// file keeps the last good model served and sends the located error instead.
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRobotModel } from '../load.js';
import { ModelLoadError } from '../model/errors.js';
import type { LoadOptions } from '../model/options.js';
import { applyRosConventions, type RosConventions } from '../model/ros-conventions.js';
import type { RobotModel } from '../model/types.js';
import { toUrdf } from '../urdf/index.js';
import { describeScene, type Scene } from './scene.js';

export interface ViewOptions {
  file: string;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  load?: LoadOptions;
  conventions?: RosConventions;
  /** Milliseconds between checks of the files the model uses. */
  pollMs?: number;
}

export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

interface Served {
  version: number;
  urdf: string;
  meshes: Map<string, Uint8Array>;
  scene: Scene;
  /** Files whose change triggers a reload, with their last signature. */
  watched: Map<string, string>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.urdf': 'application/xml',
  '.stl': 'model/stl',
  '.obj': 'text/plain',
  '.mtl': 'text/plain',
  '.dae': 'model/vnd.collada+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

const signature = (file: string): string => {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
};

/** The package's web/ folder and the vendor packages, found from this file in src/ and in dist/ alike. */
function assetRoots(): { web: string; vendor: Record<string, string> } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const require = createRequire(import.meta.url);
  const packageDir = (name: string, entry: string): string => {
    const file = require.resolve(entry);
    const marker = `${sep}node_modules${sep}${name}${sep}`;
    return file.slice(0, file.lastIndexOf(marker) + marker.length - 1);
  };
  return { web: join(root, 'web'), vendor: { three: packageDir('three', 'three'), 'urdf-loader': packageDir('urdf-loader', 'urdf-loader') } };
}

/** Files a model reads besides its own: mesh resources, and model files beside it (imports, wrappers). */
function filesOf(model: RobotModel): string[] {
  const files = new Set<string>([model.sourceFile]);
  for (const l of model.links) for (const s of [...l.visuals, ...l.collisions]) if (s.geometry.kind === 'meshFile') files.add(s.geometry.path);
  return [...files];
}

function build(file: string, options: ViewOptions, version: number): Served {
  const loaded = loadRobotModel(file, options.load ?? {});
  const { model } = applyRosConventions(loaded, options.conventions ?? {});
  // Relative URIs into a virtual folder: the page resolves them against the URDF's URL, and copies of the
  // model's own mesh files (with their materials and textures) are served from memory, so nothing is written.
  const result = toUrdf(model, { meshDir: '/view/meshes', meshUris: 'relative', urdfDir: '/view', copyResources: true, ...(options.load?.packagePath ? { packagePath: options.load.packagePath } : {}) });
  const meshes = new Map(result.meshes.map((m) => [`meshes/${m.name}`, m.data]));
  const watched = new Map(filesOf(loaded).map((f) => [f, signature(f)]));
  return { version, urdf: result.xml, meshes, scene: describeScene(model, [...loaded.warnings, ...result.warnings]), watched };
}

/** Starts the server; the first load must succeed (the caller reports its error). */
export async function startViewServer(options: ViewOptions): Promise<ViewServer> {
  const file = resolve(options.file);
  let served = build(file, options, 1);
  let error: string | null = null;
  const clients = new Set<ServerResponse>();
  const { web, vendor } = assetRoots();

  const send = (event: string, data: unknown): void => {
    for (const c of clients) c.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const check = (): void => {
    const changed = [...served.watched].some(([f, sig]) => signature(f) !== sig) || (error !== null && signature(file) !== errorSignature);
    if (!changed) return;
    try {
      served = build(file, options, served.version + 1);
      error = null;
      send('model', { version: served.version });
    } catch (e) {
      // The last good model stays; the page shows where the file went wrong.
      error = e instanceof ModelLoadError ? e.message : `${file}: ${(e as Error).message}`;
      errorSignature = signature(file);
      served = { ...served, watched: new Map([...served.watched].map(([f]) => [f, signature(f)])) };
      send('error', { message: error });
    }
  };
  let errorSignature = '';
  const poll = setInterval(check, options.pollMs ?? 300);
  poll.unref();

  const serveFile = (res: ServerResponse, path: string, allowedRoot: string): void => {
    const full = resolve(path);
    if (full !== allowedRoot && !full.startsWith(allowedRoot + sep)) return notFound(res);
    let data: Buffer;
    try {
      data = readFileSync(full);
    } catch {
      return notFound(res);
    }
    res.writeHead(200, { 'content-type': MIME[extname(full).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(data);
  };
  const notFound = (res: ServerResponse): void => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };
  const json = (res: ServerResponse, value: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(value));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = decodeURIComponent(url.pathname);
    if (path === '/' || path === '/index.html') return serveFile(res, join(web, 'index.html'), web);
    if (path === '/favicon.ico') {
      res.writeHead(204);
      return void res.end();
    }
    if (path.startsWith('/web/')) return serveFile(res, join(web, path.slice(5)), web);
    for (const [name, dir] of Object.entries(vendor)) {
      if (path.startsWith(`/vendor/${name}/`)) return serveFile(res, join(dir, path.slice(`/vendor/${name}/`.length)), dir);
    }
    if (path === '/view/robot.urdf') {
      res.writeHead(200, { 'content-type': MIME['.urdf']!, 'cache-control': 'no-store' });
      return void res.end(served.urdf);
    }
    if (path === '/view/scene.json') return json(res, { version: served.version, error, scene: served.scene });
    if (path.startsWith('/view/')) {
      const data = served.meshes.get(path.slice(6));
      if (!data) return notFound(res);
      res.writeHead(200, { 'content-type': MIME[extname(path).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      return void res.end(data);
    }
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`event: hello\ndata: ${JSON.stringify({ version: served.version, error })}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    notFound(res);
  };

  const server: Server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String((e as Error).message));
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => ok());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        clearInterval(poll);
        for (const c of clients) c.end();
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
