/**
 * The gateway's warm-up (issue 20): before the app is handed back it sends a 100-slide
 * generate-deck request (valid for the schema: it reaches core) and a status request through
 * to core, three times, unauthenticated; they count in no metric. Without the option it
 * calls nothing.
 */
import t from 'tap';
import { buildGateway } from '../../../gateway/src/app.js';
import type { RpcInvoker } from '../../../gateway/src/invoker.js';

t.test('the app is handed back once the warm-up requests were answered; they carry no key and count in no metric', async (t) => {
  const calls: Array<{ rpc: string; metadata: Readonly<Record<string, string>> }> = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const invoker: RpcInvoker = {
    call: async (route, _request, metadata) => {
      calls.push({ rpc: route.rpc, metadata });
      await held;
      throw Object.assign(new Error('no key'), { code: 16, details: 'API key required' });
    },
    close() {},
  };
  let built = false;
  const building = buildGateway({ invoker, logger: false, warmUp: true }).then((app) => {
    built = true;
    return app;
  });
  for (let i = 0; i < 200 && calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  t.same(
    calls.map((c) => c.rpc),
    ['GenerateDeck'],
    'the generate-deck request is in flight',
  );
  t.equal(built, false, 'not handed back while it is');
  release();
  const app = await building;
  t.teardown(() => app.close());
  t.same(
    calls.map((c) => c.rpc),
    ['GenerateDeck', 'GetGenerationStatus', 'GenerateDeck', 'GetGenerationStatus', 'GenerateDeck', 'GetGenerationStatus'],
  );
  for (const c of calls) t.equal(c.metadata['x-api-key'], undefined, 'sent without an API key');
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  t.equal((await fetch(`${url}/healthz`)).status, 200);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.notMatch(metrics, /route="\/api\/v1\/presentations\/generate-deck"/, 'the warm-up is not counted as traffic');
});

t.test('without warmUp the gateway calls nothing', async (t) => {
  const calls: string[] = [];
  const app = await buildGateway({ invoker: { call: async (r) => void calls.push(r.rpc), close() {} }, logger: false });
  t.teardown(() => app.close());
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  t.equal((await fetch(`${url}/healthz`)).status, 200);
  t.same(calls, []);
});
