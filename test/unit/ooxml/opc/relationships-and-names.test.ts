/**
 * ooxml/opc is the one place relationships and part names are made (issue 19, item 1):
 * on every template of the corpus, relationships written by OpcPackage.setRels read back
 * as they were, new rIds never clash with a part's ids, and new part names never clash
 * with a part of the package (names compare case-insensitively, ECMA-376 Part 2, §9.1.1.2).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../../../core/src/ooxml/opc/package.js';
import { RT } from '../../../../core/src/ooxml/opc/constants.js';
import { corpusFilesOf, corpusPath, hasCorpusFile } from '../../../helpers/corpus.js';

const templates = corpusFilesOf('templates').filter((f) => f.endsWith('.pptx'));

t.test('relationships, rIds and part names of every corpus template', { skip: templates.length === 0 || !hasCorpusFile(templates[0]!) ? 'no corpus' : false }, async (t) => {
  for (const file of templates) {
    let pkg: OpcPackage;
    try {
      pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
    } catch {
      continue; // a template refused as a package is another test's business
    }
    const main = pkg.relatedPartName('/', RT.officeDocument);
    if (!main || !pkg.hasPart(main)) continue;
    const before = pkg.rels(main).map((r) => ({ ...r }));
    // rewritten through the one writer, they read back the same (after a round trip through the zip too)
    pkg.setRels(main, before);
    const again = await OpcPackage.open(await pkg.toBytes());
    // (internal targets are written relative to the part, whatever form the template used)
    const meaning = (rels: typeof before): unknown[] => rels.map((r) => ({ id: r.id, type: r.type, external: r.external, to: r.external ? r.target : r.targetPartName }));
    t.same(meaning(again.rels(main)), meaning(before), `${file}: relationships of ${main} read back as written`);
    // a new relationship gets an id no relationship of the part has
    const ids = new Set(before.map((r) => r.id));
    const added = again.addRel(main, RT.slide, '/ppt/slides/slide1.xml');
    t.notOk(ids.has(added), `${file}: new id ${added} is free`);
    t.match(added, /^rId\d+$/);
    // new part names: never a part the package holds, in any case, nor a name handed out before
    const handed = new Set<string>();
    for (const example of ['/ppt/slides/slide1.xml', '/PPT/SLIDES/SLIDE1.XML', '/ppt/media/image1.png', '/ppt/media/image1.png']) {
      const name = again.newPartName(example);
      t.notOk(again.hasPart(name), `${file}: ${name} is not a part yet`);
      t.notOk(handed.has(name.toLowerCase()), `${file}: ${name} was not handed out before`);
      handed.add(name.toLowerCase());
    }
  }
});
