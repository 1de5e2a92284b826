import { describe, expect, it } from 'vitest';
import { isRemoteCommand, isRemoteStateDir, quotedCommand } from '../../federation/remote-command';

// The grammar of what a hub may run on a linked host: nothing a shell would read twice.

describe('the command a hub runs on a host', () => {
  it('is "loom" or an absolute path, then plain arguments', () => {
    for (const command of ['loom', 'loom --flag=x', '/usr/bin/node /home/me/loom/server/bin/loom.js', '/opt/loom/bin/loom  --profile=a@b:c']) {
      expect(isRemoteCommand(command), command).toBe(true);
    }
  });

  it('refuses whatever a shell would read as more than words, and a program found some other way', () => {
    for (const command of [
      '',
      ' ',
      'touch /tmp/x; loom',
      'node loom.js',
      './loom',
      '~/bin/loom',
      'loom $(id)',
      'loom `id`',
      "/bin/sh -c 'id'",
      'loom\tx',
      'loom\nid',
      'loom > /tmp/x',
      'loom | sh',
      'loom &',
    ]) {
      expect(isRemoteCommand(command), command).toBe(false);
    }
  });

  it('goes to the remote shell as separate quoted words', () => {
    expect(quotedCommand('/usr/bin/node  /opt/loom.js --x=1')).toBe(`'/usr/bin/node' '/opt/loom.js' '--x=1'`);
  });

  it('takes a state dir only as an absolute path of the same characters', () => {
    expect(isRemoteStateDir('/var/lib/loom')).toBe(true);
    for (const dir of ['var/lib/loom', '~/loom', '/tmp/a b', '/tmp/$(id)', '']) expect(isRemoteStateDir(dir), dir).toBe(false);
  });
});
