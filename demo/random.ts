// Seeded randomness, so a demo tree or a benchmark corpus is the same on every run,
// and the id formats Claude Code writes, drawn from it.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: a uniform float in [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** an integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** an RFC 4122 version 4 uuid */
export function uuid(rng: Rng): string {
  const hex = rng.chars(HEX, 32);
  const variant = HEX[8 + rng.int(0, 3)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

export const messageId = (rng: Rng): string => `msg_01${rng.chars(BASE62, 22)}`;
export const requestId = (rng: Rng): string => `req_011C${rng.chars(BASE62, 20)}`;
export const toolUseId = (rng: Rng): string => `toolu_01${rng.chars(BASE62, 22)}`;

/** 2.1.x subagent ids: 17 hex digits, the first always "a" */
export const agentId = (rng: Rng): string => `a${rng.chars(HEX, 16)}`;

export const randomBase62 = (rng: Rng, length: number): string => rng.chars(BASE62, length);
