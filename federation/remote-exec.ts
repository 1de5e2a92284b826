import type { Client } from 'ssh2';

// Commands the hub runs on a linked host over its SSH connection: only `loom status --json` and
// reading the kernel's token file. Their output never reaches a log.

export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

const MAX_OUTPUT = 64 * 1024;

export function exec(client: Client, command: string, timeoutMs = 15_000): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, channel) => {
      if (err) return reject(err);
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => {
        channel.close();
        reject(new Error(`"${command.split(' ')[0]}" did not finish within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      channel.on('data', (d: Buffer) => {
        if (stdout.length < MAX_OUTPUT) stdout += d.toString('utf8');
      });
      channel.stderr.on('data', (d: Buffer) => {
        if (stderr.length < MAX_OUTPUT) stderr += d.toString('utf8');
      });
      channel.on('close', (code: number | null) => {
        clearTimeout(timer);
        resolve({ stdout, stderr, code });
      });
    });
  });
}

/** Quotes one argument for the remote's POSIX shell. */
export const shellQuote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;
