import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseLinkedHost } from '../../federation/hosts-config';
import { reachKernel } from '../../federation/remote-kernel';
import { connectSsh } from '../../federation/ssh-connect';
import { resolveSshTarget } from '../../federation/ssh-target';

// The least a hub could be: reads a POSTed query, asks the remote kernel through the hub's own SSH
// code (connectSsh, reachKernel, RemoteClient and its graphql-ws socket), answers with the data.
// No GraphQL of its own, no ids renamed, no checks. The federation bench runs it in its own
// process to show what one Node HTTP hop over SSH costs on this machine before any of the hub's
// own work.
//
//   node --import tsx test/bench/minimal-proxy.ts <home> <user> <ssh alias> <remote state dir> <loom command>
// prints the port it listens on.

const [home, user, alias, stateDir, command] = process.argv.slice(2);
const target = resolveSshTarget(alias, { configText: readFileSync(join(home, '.ssh', 'config'), 'utf8'), home, localUser: user });
const ssh = await connectSsh({ target, knownHosts: [join(home, '.ssh', 'known_hosts')], agent: undefined, acceptNew: false, keepaliveMs: 5_000 });
const { client } = await reachKernel(ssh, parseLinkedHost({ name: alias, target: alias, command, stateDir }));

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { query, variables } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    client.query(query, variables).then(
      (data) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data }));
      },
      (err: Error) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ message: err.message }] }));
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as { port: number }).port));
