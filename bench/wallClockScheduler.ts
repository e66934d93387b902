import { VirtualTimeScheduler } from 'rxjs';

/**
 * A virtual-time scheduler whose clock is the wall clock: every `now()` reads `Date.now()`, as the page's
 * `asyncScheduler` does (the sink reads it when it stamps an event and when it queues it), and sets the frame to it;
 * timers are due by that time and `flush()` runs them at once.
 */
export class WallClockScheduler extends VirtualTimeScheduler {
  constructor() {
    super();
    // `now` is an instance property of rxjs's schedulers (the virtual one's returns the frame), not a method.
    this.now = () => (this.frame = Date.now());
  }
}
