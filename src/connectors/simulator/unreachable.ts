// The simulator channel of a process that cannot reach the simulator its service uses (the CLI
// without SIMULATOR_URL and without a running service): every call refuses with the reason, so
// nothing ever asks a simulator that never saw the payments and payouts in question.
import type { Channel, ChannelCallback, Collection, CollectionState, PayoutState, SandboxPayer } from '../channel.js';

/** Not an UpstreamUnavailableError: nothing was asked, and retrying here would not help. */
export class UpstreamNotReachableError extends Error {}

export class UnreachableSimulator implements Channel, SandboxPayer {
  readonly name = 'simulator';

  constructor(private readonly reason: string) {}

  createCollection(): Promise<Collection> {
    return this.refuse();
  }

  queryCollection(): Promise<CollectionState> {
    return this.refuse();
  }

  refund(): Promise<{ readonly refundRef: string }> {
    return this.refuse();
  }

  submitPayout(): Promise<PayoutState> {
    return this.refuse();
  }

  queryPayout(): Promise<PayoutState> {
    return this.refuse();
  }

  completeCollection(): Promise<void> {
    return this.refuse();
  }

  parseCallback(): ChannelCallback {
    throw new UpstreamNotReachableError(this.reason);
  }

  private refuse(): Promise<never> {
    return Promise.reject(new UpstreamNotReachableError(this.reason));
  }
}
