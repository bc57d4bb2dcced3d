// The reference the contract's throughput targets are ratios to (section 13): a Fastify route that parses
// the JSON body and answers the success envelope, with nothing else (no logging, hooks, auth or database).
// Run as its own process by bench/run.ts; PORT selects the port.
import Fastify from 'fastify';

const port = Number(process.env.PORT || 0);
// forceCloseConnections: a stop must not wait for the load generator's keep-alive connections.
const app = Fastify({ logger: false, forceCloseConnections: true });

app.post('/noop', async () => ({ code: '200', message: 'SUCCESS', data: {} }));
app.get('/healthz', async () => ({ status: 'ok' }));

await app.listen({ host: '127.0.0.1', port });

const stop = (): void => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
