/**
 * Relative relationship targets (ECMA-376 Part 2, §9.3: a target is a URI relative to the
 * source part's folder), as written into generated relationships parts.
 */
import t from 'tap';
import { relativeTarget, resolveTarget } from '../../../../core/src/ooxml/opc/part-names.js';

t.test('targets are relative to the source part folder, as Office writes them', async (t) => {
  t.equal(relativeTarget('/ppt/slides/slide1.xml', '/ppt/slideLayouts/slideLayout2.xml'), '../slideLayouts/slideLayout2.xml');
  t.equal(relativeTarget('/ppt/slides/slide1.xml', '/ppt/slides/slide7.xml'), 'slide7.xml');
  t.equal(relativeTarget('/ppt/presentation.xml', '/ppt/slides/slide3.xml'), 'slides/slide3.xml');
  t.equal(relativeTarget('/x', '/ppt/presentation.xml'), 'ppt/presentation.xml');
  t.equal(relativeTarget('/ppt/charts/chart1.xml', '/ppt/embeddings/Microsoft Excel Worksheet.xlsx'), '../embeddings/Microsoft%20Excel%20Worksheet.xlsx');
});

t.test('slides of one folder share the answer; sources in other folders get their own', async (t) => {
  // the same target asked from many slides, then from a layout: no answer leaks between folders
  for (let i = 1; i <= 50; i++) t.equal(relativeTarget(`/ppt/slides/slide${i}.xml`, '/ppt/media/image1.png'), '../media/image1.png');
  t.equal(relativeTarget('/ppt/slideLayouts/slideLayout1.xml', '/ppt/media/image1.png'), '../media/image1.png');
  t.equal(relativeTarget('/ppt/slides/deeper/slide1.xml', '/ppt/media/image1.png'), '../../media/image1.png');
  t.equal(relativeTarget('/ppt/media/x.xml', '/ppt/media/image1.png'), 'image1.png');
});

t.test('every target written resolves back to its part name, past the remembered answers bound', async (t) => {
  // more distinct folder/target pairs than are remembered: answers stay right after the memory is cleared
  for (let i = 0; i < 5000; i++) {
    const source = `/ppt/f${i % 97}/part${i}.xml`;
    const target = `/ppt/g${i}/target ${i}.xml`;
    const rel = relativeTarget(source, target);
    if (resolveTarget(source, decodeURI(rel)) !== target) t.fail(`${source} → ${target} gave ${rel}`);
  }
  t.pass('5000 targets resolve back');
});
