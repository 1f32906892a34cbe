import DataLoader from 'dataloader';

/**
 * Gathers the calls that arrive while the previous batch is still in the database into the next
 * one, a group commit: at low load each call is a batch of one, under load one statement serves
 * many requests (each statement costs a round trip and a commit, which is what a busy service
 * runs out of). A batch that fails is retried one call at a time, so one bad item fails only its
 * own caller. `run` answers one result, or the Error to reject with, per item, in order.
 */
export function batchWhileBusy<I, O>(run: (items: readonly I[]) => Promise<(O | Error)[]>, maxBatchSize = 500): (item: I) => Promise<O> {
  let busy: Promise<unknown> = Promise.resolve();
  const alone = (item: I) => run([item]).then(([result]) => result, (err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  const loader = new DataLoader<I, O>(
    (items) => {
      const done = run(items).catch((err: unknown) => (items.length === 1 ? [err instanceof Error ? err : new Error(String(err))] : Promise.all(items.map(alone))));
      busy = done;
      return done;
    },
    { cache: false, maxBatchSize, batchScheduleFn: (dispatch) => void busy.then(() => setImmediate(dispatch)) },
  );
  return (item) => loader.load(item);
}
