import { useEffect, useId, useRef, useState } from 'react';
import { connection } from '../lib/connection';
import { useNow } from '../lib/use-now';
import { networkButton } from './describe';
import { HostRow } from './HostRow';
import { useHosts } from './hosts';
import { LinkForm } from './LinkForm';
import './network.css';

// The header's "3 hosts · 1 down" ("kernel unreachable" while the page has lost the kernel): a
// button opening a panel with every host, its state and trust, and a form to link one more.
// Escape or a click elsewhere closes it.
export function NetworkPopover() {
  const { hosts, loaded, error } = useHosts();
  const link = connection.use();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const { tone, label } = networkButton(link, hosts, loaded, error);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <div className="net" ref={root}>
      <button
        ref={button}
        type="button"
        className="net-button"
        data-tone={tone}
        data-kernel={link === 'reconnecting' ? 'unreachable' : undefined}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
      >
        <span className={`net-dot net-dot-${tone}`} aria-hidden="true" />
        {label}
      </button>
      {open && (
        <div className="net-panel" id={panelId} role="dialog" aria-label="Network" tabIndex={-1} ref={panel}>
          {link === 'reconnecting' && <p className="error">The kernel does not answer: the hosts below are as it last said. Reconnecting…</p>}
          {error && <p className="error">The hosts could not be loaded: {error}</p>}
          <HostList stale={link === 'reconnecting'} />
          <LinkForm />
        </div>
      )}
    </div>
  );
}

/** Its own component so the ages tick only while the panel is open; `stale` while the kernel does not answer. */
function HostList({ stale }: { stale: boolean }) {
  const { hosts } = useHosts();
  const now = useNow(1000);
  return (
    <ul className="net-hosts" aria-label="Hosts" data-stale={stale || undefined}>
      {hosts.map((host) => (
        <HostRow key={host.name} host={host} now={now} />
      ))}
    </ul>
  );
}
