/**
 * Request validators are compiled when the gateway is built (issue 20): no request pays
 * for Ajv's compilation (~350 ms on the first POST generate-deck), and the 422 answers are
 * the ones the lazily compiled validators gave.
 */
import t from 'tap';
import { buildGateway } from '../../../gateway/src/app.js';
import type { RpcInvoker } from '../../../gateway/src/invoker.js';
import { precompileValidators } from '../../../core/src/validation/index.js';

t.test('building the gateway compiles every validator; bad bodies get the usual 422', async (t) => {
  const calls: unknown[] = [];
  const invoker: RpcInvoker = {
    call: async (_route, request) => {
      calls.push(request);
      return { job: { generation_id: 'g1', status: 'queued' } };
    },
    close() {},
  };
  const app = await buildGateway({ invoker, logger: false });
  t.teardown(() => app.close());
  t.equal(precompileValidators(), 0, 'nothing is left to compile once the gateway is built');

  const missing = await app.inject({ method: 'POST', url: '/api/v1/presentations/generate-deck', payload: {} });
  t.equal(missing.statusCode, 422);
  t.same(missing.json(), { detail: [{ type: 'missing', loc: ['body', 'slides'], msg: 'Field required', input: {} }] });

  const badType = await app.inject({
    method: 'POST',
    url: '/api/v1/presentations/generate-deck',
    payload: { slides: [{ template_slide_id: 'ts_1', slide_data: { title: 'x' }, options: { table_min_font_size: 200 } }] },
  });
  t.equal(badType.statusCode, 422);
  const detail = (badType.json() as { detail: Array<{ loc: unknown[]; type: string }> }).detail;
  t.same(
    detail.map((d) => [d.loc, d.type]),
    [[['body', 'slides', 0, 'options', 'table_min_font_size'], 'less_than_equal']],
  );

  const bad = await app.inject({ method: 'GET', url: '/api/v1/templates?limit=abc' });
  t.equal(bad.statusCode, 422);
  t.same((bad.json() as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc, ['query', 'limit']);
  t.equal(calls.length, 0, 'invalid requests never reach core');
});
