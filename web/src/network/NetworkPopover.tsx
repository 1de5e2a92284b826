import { useEffect, useId, useRef, useState } from 'react';
import { useNow } from '../lib/use-now';
import { summary } from './describe';
import { HostRow } from './HostRow';
import { useHosts } from './hosts';
import { LinkForm } from './LinkForm';
import './network.css';

// The header's "3 hosts · 1 down": a button opening a panel with every host, its state and
// trust, and a form to link one more. Escape or a click elsewhere closes it.
export function NetworkPopover() {
  const { hosts, loaded, error } = useHosts();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const worst = hosts.some((h) => h.status?.state === 'DOWN') ? 'down' : hosts.some((h) => h.status?.state === 'CONNECTING') ? 'connecting' : 'up';

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
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
      >
        <span className={`net-dot net-dot-${worst}`} aria-hidden="true" />
        {error ? 'hosts ?' : loaded ? summary(hosts) : 'hosts…'}
      </button>
      {open && (
        <div className="net-panel" id={panelId} role="dialog" aria-label="Network" tabIndex={-1} ref={panel}>
          {error && <p className="error">The hosts could not be loaded: {error}</p>}
          <HostList />
          <LinkForm />
        </div>
      )}
    </div>
  );
}

/** Its own component so the ages tick only while the panel is open. */
function HostList() {
  const { hosts } = useHosts();
  const now = useNow(1000);
  return (
    <ul className="net-hosts" aria-label="Hosts">
      {hosts.map((host) => (
        <HostRow key={host.name} host={host} now={now} />
      ))}
    </ul>
  );
}
