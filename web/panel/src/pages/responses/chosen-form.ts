/** The form chosen in the Responses or Statistics area, kept for the tab's session and shared by both (a small module, so Statistics loads no Responses page code). */
import { useStoredState } from './use-stored-state';

export function useChosenForm() {
  return useStoredState<string | null>('quorum.panel.form', null);
}
