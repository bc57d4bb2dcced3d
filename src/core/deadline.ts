// One deadline for a whole HTTP exchange made with undici, from the request to the answer's last
// byte: an emitter that undici takes as the request's `signal`, and a plain timer that makes it emit
// 'abort' when the time is up. undici acts on it once the request has a socket, so a client also sets
// its connect timeout to the same length. AbortSignal.timeout gives the same deadline for 13 – 18 µs
// more CPU an exchange (measured with undici against a local receiver, docs/benchmarks.md, session
// 43): Node tracks each such signal through a weak reference and a finalization registry, and its
// timer still fires after the exchange ended.
import { EventEmitter } from 'node:events';

export class Deadline {
  /** Pass as undici's `signal`; it emits 'abort' once the time is up. */
  readonly signal = new EventEmitter();
  private expired = false;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly ms: number) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.signal.emit('abort');
    }, ms);
  }

  /** Whether the time ran out: then the exchange's error is the deadline's, whatever undici called it. */
  get passed(): boolean {
    return this.expired;
  }

  /** Call when the exchange is over, answered or not. */
  clear(): void {
    clearTimeout(this.timer);
  }
}
