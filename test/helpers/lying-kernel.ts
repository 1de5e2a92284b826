import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

// A kernel that lies: a WebSocket relay in front of a real kernel that rewrites what the kernel
// says before the hub hears it, standing for a remote machine that was taken over. The hub only
// ever speaks graphql-ws to a kernel, so this is all of the remote it meets.

export interface LyingKernel {
  port: number;
  /** how many of the kernel's messages were changed on the way */
  lies: number;
  /** every message the hub sent, as sent */
  heard: string[];
  /** sends the hub a message of the relay's own, as if the kernel said it */
  tell(message: string): void;
  /** while set, the kernel's messages it picks are held back, until release() */
  hold: ((message: string) => boolean) | null;
  /** sends what was held, and holds nothing more */
  release(): void;
  /** how many of the kernel's messages are held back now */
  held(): number;
  close(): Promise<void>;
}

export async function startLyingKernel(kernelPort: number, lie: (message: string) => string): Promise<LyingKernel> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const held: (() => void)[] = [];
  const relay: LyingKernel = {
    port: (wss.address() as AddressInfo).port,
    lies: 0,
    heard: [],
    tell: (message) => {
      for (const hub of wss.clients) hub.send(message);
    },
    hold: null,
    held: () => held.length,
    release: () => {
      relay.hold = null;
      for (const send of held.splice(0)) send();
    },
    close: () => {
      for (const client of wss.clients) client.terminate();
      return new Promise((resolve) => wss.close(() => resolve()));
    },
  };
  wss.on('connection', (hub) => {
    const kernel = new WebSocket(`ws://127.0.0.1:${kernelPort}/graphql`, hub.protocol);
    const early: string[] = [];
    kernel.on('open', () => {
      for (const m of early.splice(0)) kernel.send(m);
    });
    hub.on('message', (data) => {
      relay.heard.push(String(data));
      if (kernel.readyState === WebSocket.OPEN) kernel.send(String(data));
      else early.push(String(data));
    });
    kernel.on('message', (data) => {
      const told = lie(String(data));
      if (told !== String(data)) relay.lies++;
      if (relay.hold?.(told)) held.push(() => hub.send(told));
      else hub.send(told);
    });
    hub.on('close', () => kernel.terminate());
    kernel.on('close', () => hub.terminate());
    hub.on('error', () => kernel.terminate());
    kernel.on('error', () => hub.terminate());
  });
  return relay;
}
