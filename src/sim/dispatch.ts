// Keeping the workers busy: one lane per worker, up to `perLane` tasks in flight on each (the
// next one already waits in the worker when one ends), new ones taken from `next(lane)` as
// old ones settle, until no lane gets a task and none is in flight, or `stop` says so.
// Handlers run in the order tasks settle; callers commit results by chunk index, so neither
// that order nor which lane ran a task changes a result.

export interface DispatchOptions<T> {
  /** Workers; a lane's tasks all run on its worker. */
  lanes: number;
  perLane: number;
  /** The next task for a lane, or null when there is none for it right now. */
  next: (lane: number) => T | null;
  /** Starts a task on a lane; the promise settles when its result has been handled. */
  run: (task: T, lane: number) => Promise<void>;
  /** Stop starting tasks (a failure, an interrupt); tasks in flight still settle. */
  stop: () => boolean;
  /** Called each time a task settles. */
  settled?: () => void;
}

export async function dispatch<T>(o: DispatchOptions<T>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const busy = new Array<number>(o.lanes).fill(0);
  for (;;) {
    for (let lane = 0; lane < o.lanes; lane++) {
      while (busy[lane] < o.perLane && !o.stop()) {
        const task = o.next(lane);
        if (task === null) break;
        busy[lane]++;
        const tracked: Promise<void> = o.run(task, lane).finally(() => {
          busy[lane]--;
          inFlight.delete(tracked);
        });
        inFlight.add(tracked);
      }
    }
    if (inFlight.size === 0) return;
    await Promise.race(inFlight);
    o.settled?.();
  }
}
