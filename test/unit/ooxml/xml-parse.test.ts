/**
 * Parsing XML parts (core/src/ooxml/xml.ts): xmldom 0.9 compiled a new Unicode expression
 * for every end tag it read; the parser now reuses one per list of grammar pieces, and the
 * end tags it accepts and refuses are the same as before.
 */
import t from 'tap';
import { createRequire } from 'node:module';
import { parseXml } from '../../../core/src/ooxml/xml.js';
import { PackageError } from '../../../core/src/ooxml/errors.js';

interface Grammar {
  reg: (...pieces: Array<string | RegExp>) => RegExp;
  QName_group: RegExp;
  S_OPT: RegExp;
}
const grammar = createRequire(import.meta.url)('@xmldom/xmldom/lib/grammar.js') as Grammar;

t.test('the end-tag expression is compiled once, not at every end tag', async (t) => {
  const a = grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$');
  const b = grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$');
  t.equal(a, b, 'the same pieces give the same compiled expression');
  t.not(grammar.reg('^', grammar.QName_group), a, 'other pieces give another expression');
  t.notOk(a.global || a.sticky, 'the shared expression keeps no position between calls');
});

t.test('end tags are checked as before', async (t) => {
  const doc = parseXml('<p:sld xmlns:p="urn:p"><p:a>x</p:a ><p:b/><p:c></p:c\n></p:sld>', '/ppt/slides/slide1.xml');
  t.equal(doc.documentElement?.childNodes.length, 3, 'whitespace before ">" of an end tag is accepted');
  for (const bad of ['<a><b></c></a>', '<a></a b>', '<a><b></ b></a>', '<a></1a>']) {
    t.throws(() => parseXml(bad, '/x.xml'), PackageError, `refused: ${JSON.stringify(bad)}`);
  }
  // Many end tags in one part still parse to the same tree, each time.
  const many = `<r>${'<i><j>v</j></i>'.repeat(5000)}</r>`;
  t.equal(parseXml(many, '/many.xml').documentElement?.childNodes.length, 5000);
  t.equal(parseXml(many, '/many.xml').documentElement?.getElementsByTagName('j').length, 5000);
});
