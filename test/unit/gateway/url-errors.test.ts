/**
 * URLs the router cannot take apart (gateway/src/url-errors.ts): a path parameter over the
 * length limit or a percent-encoding that does not decode is a 404 in the API's error
 * shape, not Fastify's own 414 or 400 (statuses no operation documents); parameters up to
 * the limit reach validation and the services.
 */
import t from 'tap';
import { buildGateway } from '../../../gateway/src/app.js';
import type { RpcInvoker } from '../../../gateway/src/invoker.js';
import { MAX_PATH_PARAM_CHARS } from '../../../gateway/src/url-errors.js';

t.test('long and malformed path parameters answer 404 {detail}', async (t) => {
  const asked: unknown[] = [];
  const invoker: RpcInvoker = {
    call: async (_route, message) => {
      asked.push(message);
      throw Object.assign(new Error('5 NOT_FOUND: template not found'), { code: 5, details: 'template not found' });
    },
    close: () => undefined,
  };
  const app = await buildGateway({ invoker, logger: false });
  t.teardown(() => app.close());
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': 'k' } });

  const long = await get(`/api/v1/templates/${'x'.repeat(300)}`);
  t.equal(long.statusCode, 404, 'a 300-character id is looked up (Fastify alone would answer 414)');
  t.same(long.json(), { detail: 'template not found' });
  t.equal(asked.length, 1);

  const tooLong = await get(`/api/v1/templates/${'x'.repeat(MAX_PATH_PARAM_CHARS + 1)}`);
  t.equal(tooLong.statusCode, 404);
  t.match(tooLong.json(), { detail: new RegExp(`a path parameter is over ${MAX_PATH_PARAM_CHARS} characters`) });
  t.ok(tooLong.body.length < 400, 'the path is echoed bounded');

  const bad = await get('/api/v1/templates/%zz/download');
  t.equal(bad.statusCode, 404);
  t.same(bad.json(), { detail: 'no resource at GET /api/v1/templates/%zz/download: the path is not valid percent-encoding' });
  t.equal(asked.length, 1, 'neither reached core');

  const number = await get(`/api/v1/templates/tpl_1/slides/${'9'.repeat(300)}`);
  t.equal(number.statusCode, 422, 'a long number is validated as a number');
  t.match(number.json().detail[0], { loc: ['path', 'slide_number'], type: 'less_than_equal' });
});
