// A port for a service a test spawns: one the system has just handed out as free. A random port in a
// fixed range collided with other tests' sockets (EADDRINUSE) when the suite ran in parallel.
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
