import { useSyncExternalStore } from 'react';

/** Settings' "Always show sensitive media", kept in this browser like the theme. */
const STORAGE_KEY = 'showSensitiveMedia';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

export function setAlwaysShowSensitive(on: boolean): void {
  try {
    if (on) localStorage.setItem(STORAGE_KEY, '1');
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the choice lasts until the page closes.
  }
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether sensitive images show at once; false on the server and in the first render (hydration). */
export const useAlwaysShowSensitive = (): boolean => useSyncExternalStore(subscribe, read, () => false);
