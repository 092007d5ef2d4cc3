/**
 * JSON bodies with a bound on their nesting (gateway/src/json-body.ts): the depth scanner
 * on its own, and the parser in a gateway answering 422 json_invalid without echoing the
 * body, where a body nested 10,000 levels deep used to be a 500.
 */
import t from 'tap';
import { jsonDepthExceeded, JsonTooDeepError, MAX_JSON_DEPTH } from '../../../gateway/src/json-body.js';
import { buildGateway } from '../../../gateway/src/app.js';
import type { RpcInvoker } from '../../../gateway/src/invoker.js';

const nested = (levels: number, open = '[', close = ']'): string => open.repeat(levels) + close.repeat(levels);

t.test('jsonDepthExceeded counts lists and objects, not brackets inside strings', async (t) => {
  t.equal(jsonDepthExceeded('{}', 1), undefined);
  t.equal(jsonDepthExceeded('{"a":{}}', 1), 5, 'the second level opens at offset 5');
  t.equal(jsonDepthExceeded(nested(64)), undefined, '64 levels pass');
  t.equal(jsonDepthExceeded(nested(65)), 64, 'the 65th opens at offset 64');
  t.equal(jsonDepthExceeded(`{"a":"${'['.repeat(1000)}"}`), undefined, 'brackets in a string');
  t.equal(jsonDepthExceeded(`{"a":"\\"${'{'.repeat(100)}"}`), undefined, 'an escaped quote does not end the string');
  t.equal(jsonDepthExceeded(`["\\\\", ${nested(3, '{"a":', '}')}]`, 3), 17, 'an escaped backslash does end it');
  t.equal(jsonDepthExceeded('[[]][[]][[]]', 2), undefined, 'depth goes back down');
  t.equal(jsonDepthExceeded(']]]]][[[', 2), 7, 'stray closers do not buy depth');
  t.equal(jsonDepthExceeded('', 0), undefined);
  t.equal(jsonDepthExceeded(`{"slides":${nested(10_000)}}`), 73);
  const e = new JsonTooDeepError(73, MAX_JSON_DEPTH);
  t.same(e.violation, { type: 'json_invalid', loc: ['body', 73], msg: 'JSON nested deeper than 64 levels', input: {}, ctx: { error: 'nesting deeper than 64 levels at position 73' } });
});

t.test('through the gateway: too deep is a small 422, the rest parses as before', async (t) => {
  const calls: unknown[] = [];
  const invoker: RpcInvoker = {
    call: async (_route, message) => {
      calls.push(message);
      return { job: { generation_id: 'gen_1', status: 'pending', message: '', status_url: '', created_at: '2025-01-01T00:00:00Z' } };
    },
    close: () => undefined,
  };
  const app = await buildGateway({ invoker, logger: false });
  t.teardown(() => app.close());
  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/api/v1/presentations/generate-deck', headers: { 'content-type': 'application/json' }, payload });

  const deep = await post(`{"slides":${nested(10_000)}}`);
  t.equal(deep.statusCode, 422);
  t.ok(deep.body.length < 400, `a small answer (${deep.body.length} bytes)`);
  t.same(deep.json(), { detail: [{ type: 'json_invalid', loc: ['body', 73], msg: 'JSON nested deeper than 64 levels', input: {}, ctx: { error: 'nesting deeper than 64 levels at position 73' } }] });

  const objects = await post(`{"slides":[{"template_slide_id":"s","slide_data":{"title":"t"},"options":${nested(5000, '{"a":', '}')}}]}`);
  t.equal(objects.statusCode, 422, 'nested objects too');
  t.equal(objects.json().detail[0].type, 'json_invalid');

  // 64 levels: parsed, then refused by validation, which echoes a bounded input
  const at64 = await post(`{"slides":${nested(63)}}`);
  t.equal(at64.statusCode, 422);
  t.ok(at64.body.length < 2000, `the echo of 63 nested lists is bounded (${at64.body.length} bytes)`);
  t.match(at64.json().detail[0], { loc: ['body', 'slides', 0], type: 'model_type' });

  const broken = await post('{"slides": [');
  t.equal(broken.statusCode, 422);
  t.equal(broken.json().detail[0].type, 'json_invalid', 'invalid JSON as before');
  const poisoned = await post('{"slides": [], "__proto__": {"x": 1}}');
  t.equal(poisoned.statusCode, 422, '__proto__ refused as by Fastify');
  const empty = await app.inject({ method: 'POST', url: '/api/v1/presentations/generate-deck', headers: { 'content-type': 'application/json' } });
  t.equal(empty.statusCode, 422);
  t.equal(empty.json().detail[0].type, 'missing', 'an empty body is a missing body');

  const ok = await post(JSON.stringify({ slides: [{ template_slide_id: 'sld_1', slide_data: { title: 'Hello' } }] }));
  t.equal(ok.statusCode, 202, ok.body);
  t.equal(calls.length, 1, 'a good body reaches core');
});
