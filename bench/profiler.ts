// CPU profiles of the service's measured windows only (`npm run bench -- --profile`): the service runs with
// `--inspect` on a loopback port, and the bench drives V8's profiler through the inspector protocol, so set-up
// (key generation, module loading) stays out of the picture. Profiling costs the service a little CPU: the
// figures of a profiled run are marked as such.
import { WebSocket } from 'undici';
import type { Profile } from './profile-summary.js';

export class InspectorProfiler {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (result: any) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  /** Connects to the inspector listening on 127.0.0.1:<port> (the process's first target). */
  static async connect(port: number): Promise<InspectorProfiler> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target on port ${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`could not connect to ${url}`)), { once: true });
    });
    const profiler = new InspectorProfiler(socket);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    return profiler;
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  start(): Promise<void> {
    return this.send('Profiler.start');
  }

  /** The V8 profile (the .cpuprofile format Chrome DevTools opens). */
  async stop(): Promise<Profile> {
    const result = (await this.send('Profiler.stop')) as { profile: Profile };
    return result.profile;
  }

  close(): void {
    this.socket.close();
  }
}
