import { createTheme } from '@mantine/core';

/** Mantine's defaults, with a focus ring on every keyboard focus (not only some components). */
export const theme = createTheme({
  focusRing: 'always',
  primaryColor: 'indigo',
  // indigo's 7th shade keeps white text at AA contrast on filled buttons
  primaryShade: 7,
});
