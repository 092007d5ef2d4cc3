/**
 * The gateway validates and normalizes a JSON body in one walk (`validateAndNormalizeBody`):
 * what it answers must be what the two separate functions answer, for good and bad bodies,
 * single objects sent for a list field (wrapped; errors inside located without the added
 * index) and lax scalars (`"10"`, `"false"`).
 */
import t from 'tap';
import { normalizeRequestBody, validateAndNormalizeBody, validateBody } from '../../../core/src/validation/index.js';

const DECK = 'slidewright.v1.PresentationService/GenerateDeck';
const MATCH = 'slidewright.v1.MatchService/MatchTemplates';

const text = (bullets: unknown) => ({ blocks: [{ type: 'text', text: { bullets } }] });
const bodies: Array<[string, string, unknown]> = [
  ['good deck', DECK, { slides: [{ template_slide_id: 's', slide_data: { title: 'T', content: [text(['a'])] } }] }],
  ['single Column wrapped', DECK, { slides: [{ template_slide_id: 's', slide_data: { content: text(['a']) } }, { template_slide_id: 't', slide_data: { content: text(['b']) } }] }],
  ['error inside a wrapped Column', DECK, { slides: [{ template_slide_id: 's', slide_data: { content: { blocks: [{ type: 'text', extra: 1 }] } } }] }],
  ['lax scalars', DECK, { slides: [{ template_slide_id: 's', slide_data: {}, options: { table_min_font_size: '10', auto_paginate_tables: 'false' } }] }],
  ['range on a coerced value', DECK, { slides: [{ template_slide_id: 's', slide_data: {}, options: { table_min_font_size: '5' } }] }],
  ['wrong types at several depths', DECK, { slides: [{ template_slide_id: 5, slide_data: { content: 'x' } }, 'not a slide'], options: [] }],
  ['missing field', DECK, {}],
  ['not an object', DECK, ['a']],
  ['match: single Column', MATCH, { slide_data: { content: { blocks: [] } } }],
];

for (const [name, rpc, body] of bodies) {
  t.test(name, async (t) => {
    const before = JSON.stringify(body);
    const both = validateAndNormalizeBody(rpc, body);
    t.same(both.violations, validateBody(rpc, body), 'the same violations, in the same order');
    t.same(both.value, normalizeRequestBody(rpc, body), 'the same normalized body');
    t.equal(JSON.stringify(body), before, 'the input is not changed');
  });
}

t.test('a body that needs no change is returned as is, one that does is a copy', async (t) => {
  const list = { slides: [{ template_slide_id: 's', slide_data: { content: [text(['a'])] } }] };
  t.equal(validateAndNormalizeBody(DECK, list).value, list);
  const single = { slides: [{ template_slide_id: 's', slide_data: { content: text(['a']) } }] };
  const out = validateAndNormalizeBody(DECK, single).value as typeof list;
  t.not(out, single);
  t.same(out.slides[0]?.slide_data.content, [text(['a'])]);
  t.equal(out.slides[0]?.slide_data.content[0], single.slides[0]?.slide_data.content, 'the Column itself is not copied');
});

t.test('a single Column wrapped deep in a long list is located by its own index', async (t) => {
  const slides = Array.from({ length: 100 }, (_, i) => ({ template_slide_id: `s${i}`, slide_data: { content: [text(['a'])] } }));
  slides[73] = { template_slide_id: 's73', slide_data: { content: { blocks: [{ type: 'text', extra: 1 }] } as never } };
  const { violations } = validateAndNormalizeBody(DECK, { slides });
  t.same(violations.map((v) => v.loc), [['body', 'slides', 73, 'slide_data', 'content', 'blocks', 0, 'extra']]);
});
