import { useState } from 'react';
import { createPortal } from 'react-dom';
import { NewSessionDialog } from './NewSessionDialog';
import './drive.css';

/** Opens the "New session" dialog. */
export function NewSessionButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="new-session-open" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        New session
      </button>
      {/* on the page's body: the dialog takes nothing from where its button sits (the session list's styles) */}
      {open && createPortal(<NewSessionDialog onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
