/** State that outlives the page for the tab's session (the chosen form and cut survive opening one response and coming back). */
import { useEffect, useState } from 'react';

/** The stored value outside a component (a route's loader reads what the page will show). */
export function readStored<T>(key: string, fallback: T): T {
  try {
    const stored = sessionStorage.getItem(key);
    return stored === null ? fallback : (JSON.parse(stored) as T);
  } catch {
    return fallback;
  }
}

export function useStoredState<T>(key: string, fallback: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readStored(key, fallback));
  useEffect(() => {
    try {
      sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      // storage refused: the state lasts for this page only
    }
  }, [key, value]);
  return [value, setValue];
}
