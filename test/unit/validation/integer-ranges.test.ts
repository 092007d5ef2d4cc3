/**
 * Integers hold what their proto type can (issue 18): every integer field, path and query
 * parameter of the generated schemas carries its type's range, narrowed by field rules,
 * and a value outside it is a 422 with its loc on REST and the same violation on gRPC —
 * where it used to reach the codec and come back a 500 ("invalid int32", "Error
 * deserializing request"). Also: an empty required string has its own message, and what
 * a 422 echoes is bounded.
 */
import t from 'tap';
import { MESSAGE_SCHEMAS, ROUTE_SCHEMAS, type JsonSchema } from '../../../proto/gen/schemas.js';
import {
  boundedEcho,
  ECHO_LIMITS,
  validateBody,
  validateMessage,
  validateParams,
  validateQuery,
  validationErrorBody,
  type Violation,
} from '../../../core/src/validation/index.js';
import { CreateTemplateRequest } from '../../../proto/gen/ts/slidewright/v1/template_service.js';
import { GenerateSlideRequest } from '../../../proto/gen/ts/slidewright/v1/presentation_service.js';

const LIST = 'slidewright.v1.TemplateService/ListTemplates';
const SLIDE = 'slidewright.v1.TemplateService/GetTemplateSlide';
const PREVIEW = 'slidewright.v1.TemplateService/GetTemplateSlidePreview';
const CREATE = 'slidewright.v1.TemplateService/CreateTemplate';
const CHARTS = 'slidewright.v1.PresentationService/UpdateCharts';
const GENERATE = 'slidewright.v1.PresentationService/GenerateSlide';
const INT32_MAX = 2 ** 31 - 1;
const SAFE = Number.MAX_SAFE_INTEGER;

const brief = (vs: readonly Violation[]) => vs.map((v) => ({ loc: v.loc, type: v.type, ctx: v.ctx }));

/** Every integer (sub)schema in a schema, with its path. */
function integers(s: unknown, path: string, out: Array<{ path: string; schema: JsonSchema }>): void {
  if (s === null || typeof s !== 'object') return;
  const schema = s as JsonSchema;
  const type = schema['type'];
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) out.push({ path, schema });
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' && v && typeof v === 'object') for (const [name, p] of Object.entries(v)) integers(p, `${path}.${name}`, out);
    else if (k === 'items' || k === 'additionalProperties') integers(v, `${path}[]`, out);
  }
}

t.test('every integer of every generated schema has a range its proto type can hold', async (t) => {
  const found: Array<{ path: string; schema: JsonSchema }> = [];
  for (const [name, s] of Object.entries(MESSAGE_SCHEMAS)) integers(s, name, found);
  for (const [id, parts] of Object.entries(ROUTE_SCHEMAS)) for (const [part, s] of Object.entries(parts)) integers(s, `${id} ${part}`, found);
  t.ok(found.length > 100, `${found.length} integer schemas`);
  const unbounded = found.filter(({ schema }) => typeof schema['minimum'] !== 'number' || typeof schema['maximum'] !== 'number');
  t.same(unbounded.map((x) => x.path), [], 'none without both bounds');
  const wider = found.filter(({ schema }) => (schema['minimum'] as number) < -SAFE || (schema['maximum'] as number) > SAFE);
  t.same(wider.map((x) => x.path), [], 'none beyond JS safe integers');
  const props = (name: string) => MESSAGE_SCHEMAS[name]?.['properties'] as Record<string, JsonSchema>;
  t.match(props('slidewright.v1.ChartUpdate')['slide_index'], { type: 'integer', minimum: 0, maximum: INT32_MAX }, 'int32 with min: 0: the rule narrows the minimum, the type keeps the maximum');
  t.match(props('slidewright.v1.CreateTemplateRequest')['file_size'], { minimum: 0, maximum: SAFE }, 'int64: safe integers');
  t.match(props('slidewright.v1.GetTemplateSlidePreviewRequest')['width'], { minimum: 1, maximum: 3840 }, 'rules tighter than the type are kept');
  t.match(props('slidewright.v1.FieldRules')['min_items'], { minimum: 0, maximum: 2 ** 32 - 1 }, 'uint32');
});

t.test('query and path parameters beyond their type: 422 at their loc', async (t) => {
  t.same(brief(validateQuery(LIST, { page: '2147483648' }).violations), [{ loc: ['query', 'page'], type: 'less_than_equal', ctx: { le: INT32_MAX } }]);
  t.same(validateQuery(LIST, { page: '2147483647' }), { value: { page: INT32_MAX }, violations: [] }, 'the largest int32 is a page number');
  t.same(brief(validateQuery(LIST, { page: '99999999999999999999999' }).violations), [{ loc: ['query', 'page'], type: 'less_than_equal', ctx: { le: INT32_MAX } }], 'far beyond');
  t.same(brief(validateQuery(LIST, { limit: '-9999999999' }).violations), [{ loc: ['query', 'limit'], type: 'greater_than_equal', ctx: { ge: 1 } }]);
  t.same(brief(validateParams(SLIDE, { template_id: 'tpl_1', slide_number: '2147483648' }).violations), [{ loc: ['path', 'slide_number'], type: 'less_than_equal', ctx: { le: INT32_MAX } }]);
  t.same(brief(validateParams(PREVIEW, { template_id: 'tpl_1', slide_number: '4294967296' }).violations), [{ loc: ['path', 'slide_number'], type: 'less_than_equal', ctx: { le: INT32_MAX } }]);
  t.same(validateParams(SLIDE, { template_id: 'tpl_1', slide_number: '2147483647' }).violations, []);
});

t.test('body integers beyond their type: 422 at their loc, the input as sent', async (t) => {
  const charts = validateBody(CHARTS, { charts: [{ slide_index: 2 ** 31, chart_index: -1 }] });
  t.same(charts.map((v) => [v.loc, v.type, v.input]), [
    [['body', 'charts', 0, 'slide_index'], 'less_than_equal', 2 ** 31],
    [['body', 'charts', 0, 'chart_index'], 'greater_than_equal', -1],
  ]);
  t.same(validateBody(CHARTS, { charts: [{ slide_index: INT32_MAX }] }), [], 'the largest int32 passes');
  t.same(brief(validateBody(CHARTS, { charts: [{ slide_index: '2147483648' }] })), [{ loc: ['body', 'charts', 0, 'slide_index'], type: 'less_than_equal', ctx: { le: INT32_MAX } }], 'a numeric string too (lax mode)');
  // 9007199254740993 reads as 2^53 in JSON.parse
  const big = validateBody(CREATE, JSON.parse('{"filename":"a.pptx","file_size":9007199254740993}'));
  t.same(brief(big), [{ loc: ['body', 'file_size'], type: 'less_than_equal', ctx: { le: SAFE } }]);
  t.equal(big[0]?.msg, `Input should be less than or equal to ${SAFE}`);
  t.same(validateBody(CREATE, { filename: 'a.pptx', file_size: SAFE }), [], 'the largest safe integer passes validation');
  t.same(brief(validateBody(CREATE, { filename: 'a.pptx', file_size: 1e300 })), [{ loc: ['body', 'file_size'], type: 'less_than_equal', ctx: { le: SAFE } }]);
});

t.test('gRPC: the same ranges through validateMessage', async (t) => {
  const msg = CreateTemplateRequest.fromPartial({ filename: 'a.pptx', file_size: 2 ** 53 });
  t.same(brief(validateMessage('slidewright.v1.CreateTemplateRequest', msg)), [{ loc: ['file_size'], type: 'less_than_equal', ctx: { le: SAFE } }]);
  t.same(validateMessage('slidewright.v1.CreateTemplateRequest', CreateTemplateRequest.fromPartial({ filename: 'a.pptx', file_size: 10 })), []);
});

t.test('an empty required string: string_too_short on REST, missing on gRPC (which cannot tell it from unset)', async (t) => {
  t.same(validateBody(GENERATE, { template_slide_id: '', slide_data: {} }), [
    { type: 'string_too_short', loc: ['body', 'template_slide_id'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
  ]);
  t.same(validateBody(GENERATE, { slide_data: {} }).map((v) => [v.loc, v.type, v.msg]), [[['body', 'template_slide_id'], 'missing', 'Field required']], 'absent stays missing');
  const grpc = GenerateSlideRequest.decode(GenerateSlideRequest.encode(GenerateSlideRequest.fromPartial({ template_slide_id: '', slide_data: {} })).finish());
  t.same(validateMessage('slidewright.v1.GenerateSlideRequest', grpc).map((v) => [v.loc, v.type]), [[['template_slide_id'], 'missing']]);
  t.same(brief(validateParams(SLIDE, { template_id: '', slide_number: '1' }).violations), [{ loc: ['path', 'template_id'], type: 'string_too_short', ctx: { min_length: 1 } }]);
});

t.test('what a 422 echoes is bounded', async (t) => {
  const long = 'x'.repeat(10_000);
  t.equal(boundedEcho(long), `${'x'.repeat(ECHO_LIMITS.stringChars)}…`);
  t.same(boundedEcho([1, 2, 3]), [1, 2, 3], 'small values as they are');
  t.same(boundedEcho({ a: 'b', n: null, t: true }), { a: 'b', n: null, t: true });
  t.same(boundedEcho(Array.from({ length: 1000 }, (_, i) => i)), [...Array.from({ length: 10 }, (_, i) => i), '… 990 more items']);
  const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
  const w = boundedEcho(wide) as Record<string, unknown>;
  t.equal(Object.keys(w).length, ECHO_LIMITS.objectKeys + 1);
  t.equal(w['…'], '30 more keys');
  let deep: unknown = 'bottom';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  t.same(boundedEcho(deep), [[[['[…]']]]], 'deep nesting is summarized, not recursed into');
  t.same(boundedEcho({ a: { b: { c: { d: { e: 1 } } } } }), { a: { b: { c: { d: '{…}' } } } });
  const proto = boundedEcho(JSON.parse('{"__proto__": {"polluted": 1}}')) as Record<string, unknown>;
  t.ok(Object.prototype.hasOwnProperty.call(proto, '__proto__'), '__proto__ stays an own key');
  t.equal(({} as Record<string, unknown>)['polluted'], undefined, 'and pollutes nothing');
  t.same(boundedEcho([undefined, Infinity, NaN, 10n, new Uint8Array(4)]), [null, 'Infinity', 'NaN', '10', '<4 bytes>']);

  const many: Violation[] = Array.from({ length: 5000 }, (_, i) => ({ loc: ['body', 'slides', i], msg: 'Field required', type: 'missing', input: { huge: long, deep } }));
  const body = validationErrorBody(many);
  t.equal(body.detail.length, 100, 'at most 100 violations');
  const text = JSON.stringify(body);
  t.ok(text.length < 100 * 400, `the body stays small (${text.length} chars)`);
  t.same(body.detail[0], { loc: ['body', 'slides', 0], msg: 'Field required', type: 'missing', input: { huge: `${'x'.repeat(200)}…`, deep: [[['[…]']]] } });
});
