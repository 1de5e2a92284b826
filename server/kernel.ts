import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LocalSource } from '../spoke/source';
import type { IndexingProgress } from '../spoke/model/types';
import { createHttpServer } from './http';
import { claimStateDir } from './state-dir';
import { attachWebSocket } from './websocket';
import { createLoomYoga } from './yoga';

// One running kernel: this machine's sessions, served over HTTP and WebSocket on loopback.

export interface KernelOptions {
  projectsRoot: string;
  stateDir: string;
  /** 0 picks a free port */
  port: number;
  bindHost?: string;
  hostName?: string;
  /** sessions kept awake (graph in memory) beyond those being streamed */
  awakeLimit?: number;
  log?: (message: string) => void;
  onProgress?: (progress: IndexingProgress) => void;
}

export interface Kernel {
  url: string;
  port: number;
  source: LocalSource;
  /** resolves when the first index is done */
  indexed: Promise<void>;
  close(): Promise<void>;
}

export async function startKernel(options: KernelOptions): Promise<Kernel> {
  const log = options.log ?? (() => {});
  const bindHost = options.bindHost ?? '127.0.0.1';
  const source = new LocalSource({
    projectsRoot: options.projectsRoot,
    host: options.hostName,
    cacheFile: join(options.stateDir, 'index-cache.json'),
    awakeLimit: options.awakeLimit,
    log,
  });
  const yoga = createLoomYoga(source, log);
  const server = createHttpServer(source, yoga);
  const wss = attachWebSocket(server, yoga);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bindHost, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${bindHost.includes(':') ? `[${bindHost}]` : bindHost}:${port}/`;
  let release: () => void;
  try {
    release = claimStateDir(options.stateDir, { pid: process.pid, port, host: bindHost, url, startedAt: new Date().toISOString() });
  } catch (err) {
    await new Promise((resolve) => server.close(resolve));
    throw err;
  }

  // Serve while indexing: the API reports progress from the first moment.
  const indexed = source.start(options.onProgress);
  indexed.catch((err) => log(`indexing failed: ${(err as Error).message}`));

  return {
    url,
    port,
    source,
    indexed,
    async close() {
      await source.stop();
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      release();
    },
  };
}
