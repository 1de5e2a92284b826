import { type RefObject, useEffect, useRef } from 'react';
import { pan, zoom } from './time-window';
import { timeWindow } from './window-store';

// Moving the window with the pointer. Drag sideways to pan; ctrl/⌘ + wheel (or a pinch) zooms
// at the pointer anywhere, a plain wheel zooms over the axis; a sideways wheel (or shift +
// wheel) pans. A plain wheel over the lanes still scrolls them.

const DRAG_THRESHOLD_PX = 4;
const ZOOM_PER_WHEEL_PX = 0.002;

/**
 * Listens on `surface`; `track` is any element spanning the window's width (the axis), for
 * converting pixels to time. Returns whether the last press was a drag, so a click that ends a
 * drag opens nothing.
 */
export function usePanZoom(surface: RefObject<HTMLElement | null>, track: RefObject<HTMLElement | null>): () => boolean {
  const dragged = useRef(false);

  useEffect(() => {
    const el = surface.current;
    if (!el) return;
    const geometry = () => track.current?.getBoundingClientRect() ?? null;

    const onWheel = (e: WheelEvent) => {
      const w = timeWindow.get();
      const box = geometry();
      if (!w || !box || box.width === 0) return;
      const overAxis = e.target instanceof Element && e.target.closest('.tl-axis') !== null;
      const sideways = e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY);
      if (e.ctrlKey || e.metaKey || (overAxis && !sideways)) {
        e.preventDefault();
        const anchor = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
        timeWindow.set(zoom(w, Math.exp(e.deltaY * ZOOM_PER_WHEEL_PX), anchor));
      } else if (sideways) {
        e.preventDefault();
        timeWindow.set(pan(w, (e.shiftKey ? e.deltaY : e.deltaX) / box.width));
      }
    };

    let start: { x: number; pointer: number } | null = null;
    let startWindow = timeWindow.get();
    const onDown = (e: PointerEvent) => {
      dragged.current = false;
      if (e.button !== 0 || (e.target instanceof Element && e.target.closest('a, button, input, select'))) return;
      start = { x: e.clientX, pointer: e.pointerId };
      startWindow = timeWindow.get();
    };
    const onMove = (e: PointerEvent) => {
      const box = geometry();
      if (!start || !startWindow || !box || e.pointerId !== start.pointer) return;
      const dx = e.clientX - start.x;
      if (!dragged.current && Math.abs(dx) < DRAG_THRESHOLD_PX) return;
      if (!dragged.current) {
        dragged.current = true;
        el.setPointerCapture(e.pointerId);
        el.classList.add('tl-dragging');
      }
      timeWindow.set(pan(startWindow, -dx / box.width));
    };
    const onUp = () => {
      start = null;
      el.classList.remove('tl-dragging');
    };

    el.addEventListener('wheel', onWheel, { passive: false });
    el.addEventListener('pointerdown', onDown);
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('pointercancel', onUp);
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onUp);
    };
  }, [surface, track]);

  return () => dragged.current;
}
