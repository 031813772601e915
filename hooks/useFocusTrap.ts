import { useEffect, useEffectEvent, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The traps in place, newest last: only the newest (a dialog over a dialog) handles the keys. */
const traps: object[] = [];

/**
 * While mounted: focuses the first control inside `ref`, keeps Tab inside it, calls
 * `onEscape` on Escape, and gives focus back to the previously focused element afterwards.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, onEscape: () => void): void {
  // Always the latest `onEscape`, without setting the trap up again when it changes.
  const escape = useEffectEvent(onEscape);

  useEffect(() => {
    const returnTo = document.activeElement as HTMLElement | null;
    const node = ref.current;
    (node?.querySelector<HTMLElement>(FOCUSABLE) ?? node)?.focus();

    const trap = {};
    traps.push(trap);

    const onKey = (event: KeyboardEvent) => {
      if (traps[traps.length - 1] !== trap) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        escape();
        return;
      }
      if (event.key !== 'Tab' || !node) return;
      const focusable = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (focusable.length === 0) {
        event.preventDefault();
        return;
      }
      const head = focusable[0];
      const tail = focusable[focusable.length - 1];
      const inside = node.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === head || !inside)) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && (document.activeElement === tail || !inside)) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      traps.splice(traps.indexOf(trap), 1);
      document.removeEventListener('keydown', onKey);
      returnTo?.focus?.();
    };
  }, [ref]);
}
