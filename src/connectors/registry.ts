// The routing table: which channel serves a payment or payout (sandbox merchants: the simulated
// bank; live merchants: none yet), and which one a callback at /v1/callbacks/:channel is for.
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { Currency } from '../core/money.js';
import type { Channel, SandboxPayer } from './channel.js';
import type { SimulatorConfig } from './simulator/config.js';
import { attachSimulator, type InProcessBank, type SimulatorConnection } from './simulator/connection.js';

/** The path of a channel's callback endpoint on the service. */
export const callbackPath = (channelName: string): string => `/v1/callbacks/${encodeURIComponent(channelName)}`;

/** `Bank`: the in-process simulated bank's type, known only to the composition root and the tests. */
export class ChannelRegistry<Bank extends InProcessBank = InProcessBank> {
  private readonly byNameMap: ReadonlyMap<string, Channel>;

  constructor(readonly simulator: SimulatorConnection<Bank>) {
    this.byNameMap = new Map([[simulator.channel.name, simulator.channel]]);
  }

  /** Reaches the simulator of the service running on `dataDir` without starting one (the CLI). */
  static async attach(config: SimulatorConfig, clock: Clock, dataDir: string): Promise<ChannelRegistry<never>> {
    return new ChannelRegistry(await attachSimulator(config, clock, dataDir));
  }

  /** The channel for a merchant's payment or payout in `currency` with `method`. */
  channelFor(merchant: { readonly mode: 'sandbox' | 'live' }, currency: Currency, method: string): Channel {
    if (merchant.mode === 'sandbox') return this.simulator.channel;
    throw new AppError('METHOD_NOT_ENABLED', `No live channel is configured for ${currency} ${method}.`);
  }

  /** Acts as the payer at the simulated bank (sandbox Pay/Decline). */
  sandboxPayer(): SandboxPayer {
    return this.simulator.channel;
  }

  /** The channel a callback at /v1/callbacks/:channel belongs to; NOT_FOUND for any other name. */
  byName(name: string): Channel {
    const channel = this.byNameMap.get(name);
    if (!channel) throw new AppError('NOT_FOUND', `No channel ${name}.`);
    return channel;
  }

  /** Tells the in-process simulator the service's real address once it listens. */
  setServiceBaseUrl(baseUrl: string): void {
    this.simulator.setCallbackUrl(baseUrl.replace(/\/+$/, '') + callbackPath(this.simulator.channel.name));
  }

  async close(): Promise<void> {
    await this.simulator.close();
  }
}
