/**
 * Validators compiled once are taken by another thread from their standalone source
 * (issue 20): embedded mode's gateway thread compiled all of them again at its start
 * (0.4–0.9 s). A second copy of the validation module stands in for the other thread (a
 * module instance holds its validators as a thread's copy does).
 */
import t from 'tap';
import * as compiledHere from '../../../core/src/validation/index.js';

type ValidationModule = typeof compiledHere;

const bodies: Array<[string, unknown]> = [
  ['empty', {}],
  ['font size over the maximum', { slides: [{ template_slide_id: 'ts_1', slide_data: { title: 'x' }, options: { table_min_font_size: 200 } }] }],
  ['language not a BCP 47 tag', { slides: [{ template_slide_id: 'ts_1', slide_data: { title: 'x' } }], options: { language: 'not a tag!' } }],
  ['language a BCP 47 tag', { slides: [{ template_slide_id: 'ts_1', slide_data: { title: 'x' } }], options: { language: 'he-IL' } }],
  ['wrong types', { slides: 'nope', options: { auto_paginate_tables: 'yes' } }],
];
const RPC = 'POST /api/v1/presentations/generate-deck';

t.test('a fresh copy takes every validator from the sources and answers as the compiled ones do', async (t) => {
  const compiledCount = compiledHere.precompileValidators();
  const sources = compiledHere.validatorSources();
  t.ok(Object.keys(sources).length >= 50, `${Object.keys(sources).length} validators have a source`);
  t.ok(compiledCount === 0 || compiledCount === Object.keys(sources).length);

  const other = (await import(`../../../core/src/validation/index.js?copy=${Date.now()}`)) as ValidationModule;
  t.not(other, compiledHere, 'a second instance of the module');
  t.equal(other.adoptValidators(sources), Object.keys(sources).length, 'every validator taken');
  t.equal(other.precompileValidators(), 0, 'nothing is left to compile');
  t.equal(other.adoptValidators(sources), 0, 'taken once');

  for (const [name, body] of bodies) {
    const here = compiledHere.validateBody(RPC, body);
    const there = other.validateBody(RPC, body);
    t.same(there, here, name);
  }
  t.ok(compiledHere.validateBody(RPC, bodies[2]![1]).some((v) => v.loc.includes('language')), 'the BCP 47 format is checked');
  t.same(compiledHere.validateBody(RPC, bodies[3]![1]), [], 'a good body passes');
  t.same(other.validateQuery('GET /api/v1/templates', { limit: 'abc' }).violations, compiledHere.validateQuery('GET /api/v1/templates', { limit: 'abc' }).violations);
});

t.test('a source that is not a validator is refused', async (t) => {
  const other = (await import(`../../../core/src/validation/index.js?copy=bad${Date.now()}`)) as ValidationModule;
  t.throws(() => other.adoptValidators({ 'body:x': 'module.exports = 42;' }), /not a validator/);
  t.throws(() => other.adoptValidators({ 'body:y': 'this is not javascript' }));
});
