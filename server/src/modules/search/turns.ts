import { setImmediate } from 'node:timers/promises';

/**
 * A turn of the event loop: the requests and timers waiting behind background work run first.
 * Background work needs it on PGlite, whose statements resolve without one: a sync awaiting only
 * them would hold every request until it ended.
 */
export function nextTurn(): Promise<void> {
  return setImmediate();
}

/**
 * Cuts a long loop of background work on this thread into slices of about `ms`, a turn of the
 * event loop between them: `await slice.check()` in the loop's body.
 */
export class TimeSlice {
  private since = performance.now();

  constructor(private readonly ms = 5) {}

  async check(): Promise<void> {
    if (performance.now() - this.since < this.ms) return;
    await nextTurn();
    this.since = performance.now();
  }
}
