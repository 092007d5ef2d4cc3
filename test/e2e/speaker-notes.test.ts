/**
 * Speaker notes through the REST API (issue 24, item 1): `slide_data.notes` sent to
 * generate-deck comes back in the downloaded deck as the slide's notes (read as python-pptx
 * reads them: the slide's notesSlide relationship, the body placeholder's paragraphs); a
 * template slide's own notes are kept when `notes` is absent; the generated slide's preview
 * is the same with or without notes; notes past 10000 characters are refused with the
 * contract's 422 shape.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { RT } from '../../core/src/ooxml/opc/constants.js';
import { NS, attr, attrNS, child, children, descendants, path } from '../../core/src/ooxml/xml.js';
import { HOUSE_SLIDE2_NOTES, houseTemplate } from '../fixtures/house-template.js';
import { uploadAndAnalyze, waitForGeneration } from '../helpers/flows.js';
import { startTestService } from '../helpers/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const dir = mkdtempSync(join(tmpdir(), 'slidewright-notes-e2e-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'house-with-notes.pptx');
writeFileSync(file, await houseTemplate({ speakerNotes: true }));

const svc = await startTestService();
t.teardown(() => svc.close());

const { results } = await uploadAndAnalyze(svc, file);
const slide2 = (results.slides as Json[]).find((s) => s.slide_index === 1)!.slide_id as string;
const content = (results.layouts as Json[]).find((l) => l.type === 'obj')!.slide_id as string;

async function generate(json: unknown): Promise<Json> {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json });
  if (r.status !== 202) throw new Error(`generate-deck: ${r.status} ${await r.text()}`);
  return waitForGeneration(svc, ((await r.json()) as Json).generation_id as string);
}

/** python-pptx's `slide.notes_slide.notes_text_frame.text` for each slide (undefined: no notes slide). */
function notesOfSlides(pkg: OpcPackage): Array<string | undefined> {
  const pres = pkg.relatedPartName('/', RT.officeDocument)!;
  return descendants(pkg.getXml(pres), NS.p, 'sldId').map((s) => {
    const slide = pkg.rel(pres, attrNS(s, NS.r, 'id')!)!.targetPartName!;
    const notes = pkg.relatedPartName(slide, RT.notesSlide);
    if (!notes) return undefined;
    const tree = path(pkg.getXml(notes).documentElement!, [NS.p, 'cSld'], [NS.p, 'spTree'])!;
    const body = children(tree, NS.p, 'sp').find((sp) => attr(path(sp, [NS.p, 'nvSpPr'], [NS.p, 'nvPr'], [NS.p, 'ph']), 'type') === 'body');
    const txBody = body ? child(body, NS.p, 'txBody') : undefined;
    return txBody ? children(txBody, NS.a, 'p').map((p) => descendants(p, NS.a, 't').map((x) => x.textContent ?? '').join('')).join('\n') : '';
  });
}

t.test('a deck with notes round-trips through generate-deck and download', async (t) => {
  const st = await generate({
    slides: [
      { template_slide_id: content, slide_data: { title: 'With notes', content: { blocks: [{ type: 'text', text: { bullets: ['One'] } }] }, notes: 'First point & <second>\n\nClosing remark' } },
      { template_slide_id: slide2, slide_data: { title: 'Template notes kept' } },
      { template_slide_id: slide2, slide_data: { title: 'Template notes removed', notes: '' } },
      { template_slide_id: content, slide_data: { title: 'No notes', notes: null } },
    ],
  });
  t.equal(st.status, 'completed', JSON.stringify(st.errors));
  const dl = await fetch(st.download_url as string);
  t.equal(dl.status, 200);
  const pkg = await OpcPackage.open(new Uint8Array(await dl.arrayBuffer()));
  t.same(notesOfSlides(pkg), ['First point & <second>\n\nClosing remark', HOUSE_SLIDE2_NOTES.join('\n'), undefined, undefined]);

  // the preview of a generated slide does not draw its notes
  const again = await generate({ slides: [{ template_slide_id: content, slide_data: { title: 'With notes', content: { blocks: [{ type: 'text', text: { bullets: ['One'] } }] } } }] });
  const preview = async (id: string): Promise<string> => {
    const r = await svc.api(`/api/v1/presentations/${id}/slides/1/preview?width=320`);
    t.equal(r.status, 200);
    return Buffer.from(await r.arrayBuffer()).toString('base64');
  };
  t.equal(await preview(st.generation_id as string), await preview(again.generation_id as string), 'the same preview with and without notes');
});

t.test('notes past 10000 characters are refused with the 422 shape', async (t) => {
  const r = await svc.api('/api/v1/presentations/generate-deck', { method: 'POST', json: { slides: [{ template_slide_id: content, slide_data: { notes: 'x'.repeat(10_001) } }] } });
  t.equal(r.status, 422);
  const body = (await r.json()) as Json;
  t.same(body.detail[0].loc, ['body', 'slides', 0, 'slide_data', 'notes']);
  t.equal(body.detail[0].type, 'string_too_long');
  t.same(body.detail[0].ctx, { max_length: 10_000 });
});

t.test('/openapi.json documents notes with their limit', async (t) => {
  const doc = (await (await svc.api('/openapi.json', { as: null })).json()) as Json;
  const body = doc.paths['/api/v1/presentations/generate-deck'].post.requestBody.content['application/json'].schema as Json;
  const notes = body.properties.slides.items.properties.slide_data.properties.notes as Json;
  t.equal(notes.maxLength, 10_000);
  t.match(notes.description, /Speaker notes.*at most 10000 characters/s);
});
