import { useRouterState } from '@tanstack/react-router';
import { type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { TabStrip } from '../tabs/TabStrip';
import { PageLinks } from './PageLinks';
import './drawer.css';

// A phone's session list: a drawer over the page from the left, opened from the top bar, with
// the pages' links at its head. It is a modal <dialog>, so the page behind is inert while it
// shows, focus moves into it, and Escape closes it and gives focus back to the button. Choosing
// a session or a page closes it, and so does a tap outside it.
export function SessionDrawer() {
  const href = useRouterState({ select: (s) => s.location.href });
  // open only at the location it was opened at: going anywhere else closes it
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === href;
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const drawer = dialog.current;
    if (open && !drawer?.open) drawer?.showModal();
    if (!open && drawer?.open) drawer.close();
  }, [open]);

  const onClick = (e: MouseEvent<HTMLDialogElement>) => {
    const target = e.target as Element;
    // a tap on the backdrop lands on the dialog itself; a link chosen (the session already shown too) is done with it
    if (target === e.currentTarget || (e.currentTarget.contains(target) && target.closest('a'))) setOpenAt(null);
  };
  return (
    <>
      <button type="button" className="drawer-button" aria-haspopup="dialog" aria-expanded={open} aria-controls={id} onClick={() => setOpenAt(href)}>
        <span aria-hidden="true">☰</span> Sessions
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a <dialog> closes on Escape by itself; the click is the backdrop's or a link's */}
      <dialog
        ref={dialog}
        id={id}
        className="drawer"
        aria-label="Sessions and pages"
        onClick={onClick}
        onClose={(e) => e.target === e.currentTarget && setOpenAt(null)}
      >
        <div className="drawer-body">
          <nav className="drawer-pages" aria-label="Pages">
            <PageLinks />
          </nav>
          <TabStrip />
        </div>
      </dialog>
    </>
  );
}
