/** The server's field errors of the definition (JSON paths such as sections[0].questions[2].key), beside their fields. */
import { createContext, useContext } from 'react';

export const FieldErrors = createContext<ReadonlyMap<string, string>>(new Map());

/** The error at `path`, if the last check or save reported one. */
export function useFieldError(path: string): string | undefined {
  return useContext(FieldErrors).get(path);
}

/** All reported errors, for a field that shows the first of several paths. */
export function useFieldErrors(): ReadonlyMap<string, string> {
  return useContext(FieldErrors);
}
