/**
 * Start-up work a caller needs before this instance is of use (the demo and its key on a first
 * start): /readyz answers 503 naming it until every hold is released.
 */
export class Readiness {
  private readonly holds = new Set<{ reason: string }>();

  /** Marks the instance not ready for `reason`; call the returned function when the work is done. */
  hold(reason: string): () => void {
    const entry = { reason };
    this.holds.add(entry);
    return () => void this.holds.delete(entry);
  }

  /** The reasons still pending, oldest first; empty when ready. */
  pending(): string[] {
    return [...this.holds].map((entry) => entry.reason);
  }
}
