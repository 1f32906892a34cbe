/** The form chosen in the Responses or Statistics area, kept for the tab's session and shared by both (a small module, so Statistics loads no Responses page code). */
import { readStored, useStoredState } from './use-stored-state';

const KEY = 'quorum.panel.form';

export function useChosenForm() {
  return useStoredState<string | null>(KEY, null);
}

export function chosenForm(): string | null {
  return readStored<string | null>(KEY, null);
}
