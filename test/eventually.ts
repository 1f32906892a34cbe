/** Polls on real time until `check` holds (for effects that arrive asynchronously, e.g. NOTIFY after a commit). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!(await check())) throw new Error(`not within ${timeoutMs} ms`);
}
