// A real modal's focus rules: focus moves in when it opens, Tab and Shift+Tab
// cycle inside it, focus that escapes (a click on the page) is pulled back,
// Esc closes from anywhere, and on close focus returns to where it came from.
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),a[href],[tabindex]:not([tabindex="-1"])';

export function focusableIn(box: HTMLElement): HTMLElement[] {
  return [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden);
}

export interface ModalFocusOptions {
  box: RefObject<HTMLElement | null>;
  /** Takes focus when the modal opens (and when focus escapes); else the first focusable element. */
  initial: () => HTMLElement | null;
  onClose: () => void;
  /** Where focus goes on close when the element that opened the modal is gone. */
  fallback: () => HTMLElement | null;
}

export function useModalFocus({ box, initial, onClose, fallback }: ModalFocusOptions) {
  const opener = useRef<Element | null>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const back = useRef(fallback);
  back.current = fallback;
  const first = useRef(initial);
  first.current = initial;

  useLayoutEffect(() => {
    opener.current = document.activeElement;
    const el = initial() ?? (box.current ? focusableIn(box.current)[0] : null);
    el?.focus();
    if (el instanceof HTMLInputElement) el.setSelectionRange(el.value.length, el.value.length);
    return () => {
      const from = opener.current as HTMLElement | null;
      const target = from && from.isConnected && from !== document.body ? from : back.current();
      // After the dialog has left the DOM, so the target is not inside a removed subtree.
      queueMicrotask(() => target?.focus());
    };
  }, []);

  useEffect(() => {
    const onFocusIn = (e: FocusEvent) => {
      const b = box.current;
      if (b && e.target instanceof Node && !b.contains(e.target)) (first.current() ?? focusableIn(b)[0])?.focus();
    };
    // Capture phase on the document: Esc closes wherever focus is, before any other handler sees it.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        // An open suggestion list closes first (the combobox handles that Esc itself).
        const el = e.target as HTMLElement | null;
        if (el?.getAttribute?.('role') === 'combobox' && el.getAttribute('aria-expanded') === 'true') return;
        e.preventDefault();
        e.stopPropagation();
        close.current();
        return;
      }
      const b = box.current;
      if (e.key !== 'Tab' || !b) return;
      const items = focusableIn(b);
      if (items.length === 0) return;
      const i = items.indexOf(document.activeElement as HTMLElement);
      const next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : i < 0 || i === items.length - 1 ? 0 : i + 1;
      e.preventDefault();
      items[next].focus();
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKey, true);
    };
  }, []);
}
