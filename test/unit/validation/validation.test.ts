import t from 'tap';
import { credentials, Server, ServerCredentials, type ServiceError } from '@grpc/grpc-js';
import {
  normalizeRequestBody,
  resolveRoute,
  toInvalidArgument,
  validateBody,
  validateMessage,
  validateParams,
  validateQuery,
  validateRequest,
  violationsFromServiceError,
  fieldPath,
  parseFieldPath,
  jsonInvalidViolation,
  type Violation,
} from '../../../core/src/validation/index.js';
import {
  GenerateDeckRequest,
  PresentationServiceClient,
  PresentationServiceService,
  type GenerateDeckResponse,
  type PresentationServiceServer,
} from '../../../proto/gen/ts/slidewright/v1/presentation_service.js';

const DECK = 'slidewright.v1.PresentationService/GenerateDeck';
const SLIDE = 'slidewright.v1.PresentationService/GenerateSlide';
const MATCH = 'slidewright.v1.MatchService/MatchTemplates';
const LIST = 'slidewright.v1.TemplateService/ListTemplates';

const okSlide = () => ({ template_slide_id: 'sld_1', slide_data: { title: 'Hello' } });

t.test('a valid deck request passes, with every optional field null', async (t) => {
  t.same(validateBody(DECK, { slides: [okSlide()] }), []);
  t.same(
    validateBody(DECK, {
      slides: [
        {
          template_slide_id: 'sld_1',
          slide_data: { title: null, subtitle: null, header: null, footer: null, footnote: null, content: null, slide_format: null },
          options: null,
        },
      ],
      org_name: null,
      options: {
        auto_paginate_tables: false,
        table_min_font_size: null,
        textbox_min_font_size: 6,
        footer_font_size: 72,
        footer_text: null,
        footer_font_name: null,
      },
    }),
    [],
  );
});

t.test('content blocks of every type validate', async (t) => {
  const content = [
    {
      header: 'Left',
      blocks: [
        { type: 'text', text: { bullets: ['a', 'b'] } },
        { type: 'table', table: { table: { rows: [{ cells: [{ value: 'h' }], is_header: true }, { cells: [{ value: '1' }] }] } } },
      ],
    },
    {
      blocks: [
        { type: 'chart', chart: { chart_type: 'bar', title: 'T', categories: ['x', 'y'], series: [{ name: 's', values: [1, 2.5] }] } },
        { type: 'image', image: { data_base64: 'iVBORw0KGgo=', content_type: 'image/png', alt_text: 'logo' } },
      ],
    },
  ];
  const slide_format = { title: { font_name: 'Arial', font_size: 40, bold: true, italic: false, color: '1F2937', alignment: 'center' } };
  t.same(validateBody(DECK, { slides: [{ template_slide_id: 's', slide_data: { content, slide_format } }] }), []);
});

t.test('unknown field at top level → extra_forbidden with its loc and value', async (t) => {
  const v = validateBody(DECK, { slides: [okSlide()], colour: 'red' });
  t.same(v, [{ type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' }]);
  t.notOk('ctx' in (v[0] ?? {}), 'no ctx key');
});

t.test('unknown field nested in slides[0].options → extra_forbidden with exact loc', async (t) => {
  const v = validateBody(DECK, { slides: [{ ...okSlide(), options: { table_min_font_size: 10, bogus: true } }] });
  t.same(v, [
    { type: 'extra_forbidden', loc: ['body', 'slides', 0, 'options', 'bogus'], msg: 'Extra inputs are not permitted', input: true },
  ]);
  t.equal(typeof v[0]?.loc[2], 'number', 'array index is a number');
});

t.test('unknown fields inside slide_data, a column and a block are rejected too', async (t) => {
  const v = validateBody(DECK, {
    slides: [{ template_slide_id: 's', slide_data: { title: 'x', subtitel: 'y', content: [{ blocks: [{ type: 'text', text: { bullets: [] }, colour: 1 }] }] } }],
  });
  t.same(
    v.map((x) => x.loc),
    [
      ['body', 'slides', 0, 'slide_data', 'content', 0, 'blocks', 0, 'colour'],
      ['body', 'slides', 0, 'slide_data', 'subtitel'],
    ],
  );
  t.ok(v.every((x) => x.type === 'extra_forbidden'));
});

t.test('violations come in Pydantic order: declared fields in order, unknown keys last', async (t) => {
  const v = validateBody(DECK, { zzz: 1, options: { footer_font_size: 100 }, org_name: 3, aaa: 2 });
  t.same(
    v.map((x) => [x.loc, x.type]),
    [
      [['body', 'slides'], 'missing'],
      [['body', 'org_name'], 'string_type'],
      [['body', 'options', 'footer_font_size'], 'less_than_equal'],
      [['body', 'zzz'], 'extra_forbidden'],
      [['body', 'aaa'], 'extra_forbidden'],
    ],
  );
  const items = validateBody(DECK, { slides: [{ template_slide_id: 1, slide_data: {} }, { slide_data: {} }] });
  t.same(items.map((x) => x.loc), [
    ['body', 'slides', 0, 'template_slide_id'],
    ['body', 'slides', 1, 'template_slide_id'],
  ]);
});

t.test('slides: [] → too_short with ctx', async (t) => {
  t.same(validateBody(DECK, { slides: [] }), [
    {
      type: 'too_short',
      loc: ['body', 'slides'],
      msg: 'List should have at least 1 item after validation, not 0',
      input: [],
      ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
    },
  ]);
});

t.test('missing slides → missing with the parent as input', async (t) => {
  t.same(validateBody(DECK, { org_name: 'acme' }), [
    { type: 'missing', loc: ['body', 'slides'], msg: 'Field required', input: { org_name: 'acme' } },
  ]);
});

t.test('table_min_font_size 5 and 73 → greater_than_equal / less_than_equal with ctx', async (t) => {
  const at = (n: number): Violation[] => validateBody(DECK, { slides: [{ ...okSlide(), options: { table_min_font_size: n } }] });
  t.same(at(5), [
    {
      type: 'greater_than_equal',
      loc: ['body', 'slides', 0, 'options', 'table_min_font_size'],
      msg: 'Input should be greater than or equal to 6',
      input: 5,
      ctx: { ge: 6 },
    },
  ]);
  t.same(at(73), [
    {
      type: 'less_than_equal',
      loc: ['body', 'slides', 0, 'options', 'table_min_font_size'],
      msg: 'Input should be less than or equal to 72',
      input: 73,
      ctx: { le: 72 },
    },
  ]);
  t.same(at(6), []);
  t.same(at(72), []);
  for (const f of ['textbox_min_font_size', 'footer_font_size']) {
    const v = validateBody(DECK, { slides: [okSlide()], options: { [f]: 5 } });
    t.same(v.map((x) => [x.loc, x.type]), [[['body', 'options', f], 'greater_than_equal']], `deck-level ${f}`);
  }
  const sf = validateBody(DECK, { slides: [{ template_slide_id: 's', slide_data: { slide_format: { body: { font_size: 80 } } } }] });
  t.same(sf.map((x) => [x.loc, x.type]), [[['body', 'slides', 0, 'slide_data', 'slide_format', 'body', 'font_size'], 'less_than_equal']]);
});

t.test('missing template_slide_id and slide_data → missing', async (t) => {
  t.same(validateBody(DECK, { slides: [{ slide_data: {} }] }), [
    { type: 'missing', loc: ['body', 'slides', 0, 'template_slide_id'], msg: 'Field required', input: { slide_data: {} } },
  ]);
  t.same(validateBody(SLIDE, { template_slide_id: 'x' }), [
    { type: 'missing', loc: ['body', 'slide_data'], msg: 'Field required', input: { template_slide_id: 'x' } },
  ]);
  const v = validateBody(SLIDE, {});
  t.same(v.map((x) => x.loc).sort(), [['body', 'slide_data'], ['body', 'template_slide_id']]);
});

t.test('wrong types → Pydantic type errors', async (t) => {
  const v = validateBody(DECK, {
    slides: [
      {
        template_slide_id: 42,
        slide_data: { title: ['x'], content: [{ blocks: 'nope' }] },
        options: { auto_paginate_tables: 'maybe', table_min_font_size: 'big', footer_font_size: 9.5 },
      },
    ],
    options: 'fast',
  });
  const byLoc = new Map(v.map((x) => [x.loc.join('.'), x]));
  t.equal(byLoc.get('body.slides.0.template_slide_id')?.type, 'string_type');
  t.equal(byLoc.get('body.slides.0.template_slide_id')?.msg, 'Input should be a valid string');
  t.equal(byLoc.get('body.slides.0.slide_data.title')?.type, 'string_type');
  t.equal(byLoc.get('body.slides.0.slide_data.content.0.blocks')?.type, 'list_type');
  t.equal(byLoc.get('body.slides.0.slide_data.content.0.blocks')?.msg, 'Input should be a valid list');
  t.equal(byLoc.get('body.slides.0.options.auto_paginate_tables')?.type, 'bool_parsing');
  t.equal(byLoc.get('body.slides.0.options.table_min_font_size')?.type, 'int_parsing');
  t.equal(byLoc.get('body.slides.0.options.footer_font_size')?.type, 'int_from_float');
  t.same(byLoc.get('body.options'), {
    type: 'model_type',
    loc: ['body', 'options'],
    msg: 'Input should be a valid dictionary or instance of GenerationOptions',
    input: 'fast',
    ctx: { class_name: 'GenerationOptions' },
  });
  t.equal(v.length, 7, 'one violation per location');
  t.same(validateBody(DECK, { slides: 'all' }).map((x) => x.type), ['list_type']);
  t.same(validateBody(DECK, { slides: [okSlide()], options: { show_slide_numbers: 2 } }).map((x) => x.type), ['bool_type']);
  t.same(validateBody(DECK, { slides: [okSlide()], options: { table_min_font_size: true } }).map((x) => x.type), ['int_type']);
});

t.test('lax scalars as Pydantic (and proto JSON) accept them: numeric strings, boolean strings', async (t) => {
  const body = { slides: [{ ...okSlide(), options: { table_min_font_size: '10', auto_paginate_tables: 'false', show_slide_numbers: 1 } }] };
  t.same(validateBody(DECK, body), []);
  const n = normalizeRequestBody(DECK, body) as { slides: { options: Record<string, unknown> }[] };
  t.same(n.slides[0]?.options, { table_min_font_size: 10, auto_paginate_tables: false, show_slide_numbers: true });
  t.same(validateBody(DECK, { slides: [{ ...okSlide(), options: { table_min_font_size: '5' } }] }), [
    {
      type: 'greater_than_equal',
      loc: ['body', 'slides', 0, 'options', 'table_min_font_size'],
      msg: 'Input should be greater than or equal to 6',
      input: '5',
      ctx: { ge: 6 },
    },
  ], 'range checked on the coerced value, input as sent');
  t.same(validateBody(MATCH, { slide_data: { title: 5 } }).map((x) => x.type), ['string_type'], 'numbers are not strings');
});

t.test('a body that is not an object → one model_attributes_type violation at body', async (t) => {
  for (const body of [[], 'x', 3, true]) {
    t.same(validateBody(DECK, body), [
      {
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        type: 'model_attributes_type',
        input: body,
      },
    ]);
  }
  t.same(validateBody(DECK, undefined), [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }]);
  t.same(validateBody('slidewright.v1.AnalysisService/StartAnalysis', undefined), [], 'a body whose fields are all optional may be omitted');
});

t.test('top_k 0 and 21, match_against foo → range and literal errors', async (t) => {
  const at = (body: object): Violation[] => validateBody(MATCH, { slide_data: { title: 'x' }, ...body });
  t.same(at({ top_k: 0 }), [{ type: 'greater_than_equal', loc: ['body', 'top_k'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } }]);
  t.same(at({ top_k: 21 }), [{ type: 'less_than_equal', loc: ['body', 'top_k'], msg: 'Input should be less than or equal to 20', input: 21, ctx: { le: 20 } }]);
  t.same(at({ match_against: 'foo' }), [
    {
      type: 'literal_error',
      loc: ['body', 'match_against'],
      msg: "Input should be 'slides' or 'layouts'",
      input: 'foo',
      ctx: { expected: "'slides' or 'layouts'" },
    },
  ]);
  t.same(at({ match_against: 'layouts', top_k: 20 }), []);
  t.same(validateBody(MATCH, {}).map((x) => [x.loc, x.type]), [[['body', 'slide_data'], 'missing']]);
});

t.test('block type and alignment are string enums', async (t) => {
  const v = validateBody(DECK, {
    slides: [{ template_slide_id: 's', slide_data: { content: [{ blocks: [{ type: 'video' }] }], slide_format: { title: { alignment: 'middle' } } } }],
  });
  const got = v.map((x) => JSON.stringify([x.loc, x.type, x.msg])).sort();
  const want = [
    [['body', 'slides', 0, 'slide_data', 'content', 0, 'blocks', 0, 'type'], 'literal_error', "Input should be 'text', 'table', 'chart' or 'image'"],
    [['body', 'slides', 0, 'slide_data', 'slide_format', 'title', 'alignment'], 'literal_error', "Input should be 'left', 'center', 'right' or 'justify'"],
  ].map((x) => JSON.stringify(x)).sort();
  t.same(got, want);
});

t.test('a single Column as content is accepted and normalized to a list', async (t) => {
  const single = { slides: [{ template_slide_id: 's', slide_data: { content: { blocks: [{ type: 'text', text: { bullets: ['a'] } }] } } }] };
  t.same(validateBody(DECK, single), []);
  const n = normalizeRequestBody(DECK, single) as { slides: { slide_data: { content: unknown } }[] };
  t.same(n.slides[0]?.slide_data.content, [{ blocks: [{ type: 'text', text: { bullets: ['a'] } }] }]);
  t.not(n, single, 'a copy');
  t.same(single.slides[0]?.slide_data.content, { blocks: [{ type: 'text', text: { bullets: ['a'] } }] }, 'input not mutated');
  const list = { slides: [{ template_slide_id: 's', slide_data: { content: [{ blocks: [] }] } }] };
  t.equal(normalizeRequestBody(DECK, list), list, 'unchanged when already a list');
  // errors inside a single Column are located without the added index
  const bad = validateBody(DECK, { slides: [{ template_slide_id: 's', slide_data: { content: { blocks: [{ type: 'text', extra: 1 }] } } }] });
  t.same(bad, [{ type: 'extra_forbidden', loc: ['body', 'slides', 0, 'slide_data', 'content', 'blocks', 0, 'extra'], msg: 'Extra inputs are not permitted', input: 1 }]);
  t.same(validateBody(MATCH, { slide_data: { content: { blocks: [] } } }), [], 'match accepts a single Column too');
  t.same(validateBody(DECK, { slides: [{ template_slide_id: 's', slide_data: { content: 'x' } }] }).map((x) => x.type), ['list_type']);
});

t.test('query parameters are coerced and validated; unknown ones are ignored', async (t) => {
  t.same(validateQuery(LIST, { page: '2', limit: '50', include_deleted: 'true', tag: 'a', other: 'x' }), {
    value: { page: 2, limit: 50, tag: 'a', include_deleted: true },
    violations: [],
  });
  const bad = validateQuery(LIST, { page: '0', limit: '101' });
  t.same(bad.violations, [
    { type: 'greater_than_equal', loc: ['query', 'page'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
    { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: 101, ctx: { le: 100 } },
  ]);
  t.same(validateQuery(LIST, { limit: '0' }).violations.map((x) => x.type), ['greater_than_equal']);
  t.same(validateQuery(LIST, { page: 'two' }).violations, [
    { loc: ['query', 'page'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: 'two' },
  ]);
  t.same(validateQuery(LIST, { include_deleted: 'maybe' }).violations.map((x) => x.type), ['bool_parsing']);
  t.same(validateQuery(LIST, { page: ['1', '3'] }).value, { page: 3 }, 'last value wins');
  t.same(validateQuery('slidewright.v1.TemplateService/DeleteTemplate', { permanent: 'true' }).value, { permanent: true });
  t.same(validateQuery('slidewright.v1.TemplateService/GetTemplateSlidePreview', { width: '4000' }).violations.map((x) => x.ctx), [{ le: 3840 }]);
  t.same(validateQuery(DECK, { x: '1' }), { value: {}, violations: [] }, 'routes without query parameters');
});

t.test('path parameters are coerced and validated', async (t) => {
  const r = 'slidewright.v1.TemplateService/GetTemplateSlide';
  t.same(validateParams(r, { template_id: 'tpl_1', slide_number: '3' }), { value: { template_id: 'tpl_1', slide_number: 3 }, violations: [] });
  t.same(validateParams(r, { template_id: 'tpl_1', slide_number: '0' }).violations.map((x) => [x.loc, x.type]), [[['path', 'slide_number'], 'greater_than_equal']]);
  t.same(validateParams(r, { template_id: 'tpl_1', slide_number: 'x' }).violations.map((x) => x.type), ['int_parsing']);
});

t.test('routes resolve by id, gRPC path, short name and METHOD url', async (t) => {
  const r = resolveRoute(DECK);
  t.equal(resolveRoute('/slidewright.v1.PresentationService/GenerateDeck'), r);
  t.equal(resolveRoute('PresentationService/GenerateDeck'), r);
  t.equal(resolveRoute('POST /api/v1/presentations/generate-deck'), r);
  t.throws(() => resolveRoute('Nope/Nope'));
  t.same(validateBody('slidewright.v1.TemplateService/GetTemplate', { anything: 1 }), [], 'no JSON body on GET');
  t.same(validateBody('slidewright.v1.TemplateService/UploadTemplateContent', Buffer.from('x')), [], 'raw body');
});

t.test('validateMessage applies the same rules to the proto JSON form (gRPC)', async (t) => {
  const decoded = GenerateDeckRequest.decode(
    GenerateDeckRequest.encode({
      slides: [{ template_slide_id: '', slide_data: { content: [] }, options: { table_min_font_size: 5 } }],
    }).finish(),
  );
  const v = validateMessage('slidewright.v1.GenerateDeckRequest', decoded);
  t.same(
    v.map((x) => [x.loc, x.type]),
    [
      [['slides', 0, 'template_slide_id'], 'missing'],
      [['slides', 0, 'options', 'table_min_font_size'], 'greater_than_equal'],
    ],
  );
  t.same(validateMessage('.slidewright.v1.GenerateDeckRequest', GenerateDeckRequest.fromJSON({ slides: [] })).map((x) => x.type), ['too_short']);
  t.same(validateRequest(DECK, GenerateDeckRequest.fromJSON({ slides: [okSlide()] })), []);
  t.same(validateMessage('slidewright.v1.GenerateDeckRequest', GenerateDeckRequest.toJSON(GenerateDeckRequest.fromJSON({ slides: [okSlide()] }))), []);
  t.throws(() => validateMessage('slidewright.v1.Nope', {}));
});

t.test('invalid JSON violation has the FastAPI shape', async (t) => {
  t.same(jsonInvalidViolation(12, 'Expecting value'), {
    type: 'json_invalid',
    loc: ['body', 12],
    msg: 'JSON decode error',
    input: {},
    ctx: { error: 'Expecting value' },
  });
});

t.test('field paths', async (t) => {
  t.equal(fieldPath(['body', 'slides', 0, 'options', 'table_min_font_size']), 'slides[0].options.table_min_font_size');
  t.same(parseFieldPath('slides[0].options.table_min_font_size'), ['slides', 0, 'options', 'table_min_font_size']);
});

const sample = (): Violation[] => [
  ...validateBody(DECK, { slides: [{ ...okSlide(), options: { table_min_font_size: 5, bogus: { deep: [1, 2] } } }] }),
  ...validateBody(DECK, { slides: [] }),
];

t.test('toInvalidArgument → violationsFromServiceError round trip preserves loc, type, msg, input and ctx', async (t) => {
  const vs = sample();
  const err = toInvalidArgument(vs);
  t.equal(err.code, 3);
  t.match(err.details, /slides\[0\]\.options/);
  t.ok(err instanceof Error);
  t.ok(Buffer.isBuffer(err.metadata.get('grpc-status-details-bin')[0]));
  t.same(violationsFromServiceError(err), vs);
  t.equal(violationsFromServiceError(new Error('x')), undefined);
  t.equal(violationsFromServiceError({ code: 5, metadata: err.metadata }), undefined);
});

t.test('gRPC round trip over a real grpc-js server and client', async (t) => {
  const server = new Server();
  const impl: Pick<PresentationServiceServer, 'generateDeck'> = {
    generateDeck: (call, callback) => {
      const v = validateRequest(DECK, call.request);
      if (v.length > 0) {
        callback(toInvalidArgument(v));
        return;
      }
      callback(null, { job: undefined } satisfies GenerateDeckResponse);
    },
  };
  server.addService(PresentationServiceService, impl as PresentationServiceServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const client = new PresentationServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  t.teardown(() => {
    client.close();
    server.forceShutdown();
  });
  const err = await new Promise<ServiceError | null>((resolve) =>
    client.generateDeck(
      GenerateDeckRequest.fromJSON({ slides: [{ template_slide_id: 'x', slide_data: {}, options: { table_min_font_size: 73 } }] }),
      (e) => resolve(e),
    ),
  );
  t.ok(err, 'call failed');
  t.equal(err?.code, 3);
  const route = resolveRoute(DECK);
  t.same(violationsFromServiceError(err, route), [
    {
      type: 'less_than_equal',
      loc: ['body', 'slides', 0, 'options', 'table_min_font_size'],
      msg: 'Input should be less than or equal to 72',
      input: 73,
      ctx: { le: 72 },
    },
  ]);
  t.same(violationsFromServiceError(err)?.[0]?.loc, ['slides', 0, 'options', 'table_min_font_size'], 'gRPC loc has no body prefix');
});
