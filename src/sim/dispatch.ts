// Keeping the worker pool busy: up to `limit` tasks in flight, new ones taken from `next`
// as old ones settle, until `next` has none or `stop` says so. Handlers run in the order
// tasks settle; callers commit results by chunk index, so the order does not matter.

export interface DispatchOptions<T> {
  limit: number;
  /** The next task to start, or null when there is none right now. */
  next: () => T | null;
  /** Starts a task; the promise settles when its result has been handled. */
  run: (task: T) => Promise<void>;
  /** Stop starting tasks (a failure, an interrupt); tasks in flight still settle. */
  stop: () => boolean;
  /** Called each time a task settles. */
  settled?: () => void;
}

export async function dispatch<T>(o: DispatchOptions<T>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  for (;;) {
    while (!o.stop() && inFlight.size < o.limit) {
      const task = o.next();
      if (task === null) break;
      const tracked: Promise<void> = o.run(task).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
    if (inFlight.size === 0) return;
    await Promise.race(inFlight);
    o.settled?.();
  }
}
