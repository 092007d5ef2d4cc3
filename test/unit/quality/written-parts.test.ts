/**
 * The package check of a generated deck reads the parts the deck keeps as XML trees (the
 * presentation part and its properties parts) as the build wrote them into the .pptx
 * (issue 23): the build hands over the bytes it serialized, which are the bytes of the
 * delivered file, and the check reads those instead of serializing the trees again.
 */
import t from 'tap';
import { buildDeck, type DeckSlideSpec } from '../../../core/src/generation/deck/build-deck.js';
import { OpcPackage } from '../../../core/src/ooxml/opc/package.js';
import { checkPackage } from '../../../core/src/quality/package.js';
import { houseTemplate } from '../../fixtures/house-template.js';

const house = new Uint8Array(await houseTemplate());
const slides: DeckSlideSpec[] = [1, 2].map((layout) => ({
  template_id: 'house',
  template_slide_id: `house#${layout}`,
  source: { kind: 'layout', part_name: `/ppt/slideLayouts/slideLayout${layout}.xml` },
  slide_data: { title: `Slide ${layout}`, content: [{ blocks: [{ type: 'text', text: { bullets: ['One', 'Two'] } }] }] },
  options: {},
}));

t.test('the bytes handed to the package check are those of the delivered file', async (t) => {
  const r = await buildDeck({ slides, templates: new Map([['house', house]]) });
  t.ok(r.bytes && r.package, 'a deck');
  const trees = r.treeBytes ?? new Map<string, Uint8Array>();
  t.ok(trees.has('/ppt/presentation.xml'), `the presentation part is among the parts written from trees (${[...trees.keys()].join(', ')})`);
  const delivered = await OpcPackage.open(r.bytes!);
  for (const [part, bytes] of trees) t.same(Buffer.from(bytes), Buffer.from(delivered.getBytes(part)), `${part}: the bytes in the .pptx`);
  t.same(checkPackage(r.package!, { writtenBytes: trees }), checkPackage(delivered), 'the same problems as the delivered file read afresh (none)');
});

t.test('the package check reads the presentation part as written, not its tree', async (t) => {
  const r = await buildDeck({ slides, templates: new Map([['house', house]]) });
  const written = new TextDecoder().decode(r.treeBytes?.get('/ppt/presentation.xml') ?? new Uint8Array());
  t.match(written, /<p:sldIdLst>/, 'the presentation part as written');
  // a fault in the bytes as written (a slide id naming no relationship), absent from the tree
  const faulty = new Map(r.treeBytes);
  faulty.set('/ppt/presentation.xml', new TextEncoder().encode(written.replace(/(<p:sldId [^>]*r:id=")[^"]*"/, '$1rId999"')));
  const problems = checkPackage(r.package!, { writtenBytes: faulty });
  t.ok(
    problems.some((p) => p.part === '/ppt/presentation.xml' && /rId999/.test(p.message)),
    `the fault in the written bytes is found: ${JSON.stringify(problems)}`,
  );
  t.same(checkPackage(r.package!), [], 'the tree itself is sound');
});
