/**
 * The `slidewright` CLI end to end: spawned as a child process (its package bin) against a
 * running service, with SLIDEWRIGHT_URL and SLIDEWRIGHT_API_KEY in the environment. Tests
 * that upload corpus templates skip (one line) when the corpus is absent.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusPath, needsCorpus, repoRoot } from '../helpers/corpus.js';
import { ORG_A, ORG_B, startTestService, type TestService } from '../helpers/service.js';
import { pptxSlideCount, run, type RunResult } from '../helpers/clients.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BIN = join(repoRoot, 'cli', 'bin', 'slidewright.js');
const ONE_MASTER_TEMPLATE = 'templates/pandoc-footer-reference.pptx';
const TWO_MASTER_TEMPLATE = 'templates/automizer-additional-master.pptx';

let svc: TestService;
let dir: string;

t.before(async () => {
  svc = await startTestService();
  dir = mkdtempSync(join(tmpdir(), 'slidewright-cli-'));
});
t.teardown(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI with organization A's key unless `env` says otherwise. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return run(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, SLIDEWRIGHT_URL: svc.url, SLIDEWRIGHT_API_KEY: ORG_A.key, ...env },
  });
}

t.test('upload --analyze, list, show, generate from YAML with a progress display, status, download, previews', needsCorpus(ONE_MASTER_TEMPLATE), async (t) => {
  // templates upload --analyze: signed-URL upload, analysis, the layout ids to use.
  const up = await cli(['templates', 'upload', corpusPath(ONE_MASTER_TEMPLATE), '--analyze', '--category', 'brand', '--tag', 'cli', 'e2e']);
  t.equal(up.code, 0, `upload exits 0\n${up.stderr}`);
  const templateId = /template_id: (tpl_\w+)/.exec(up.stdout)?.[1];
  t.ok(templateId, 'prints the template id');
  t.match(up.stdout, /status: ready/);
  t.match(up.stdout, /Layouts \(\d+\) — /);
  t.match(up.stdout, /^Master 1 of 1: .+ \(\d+ layouts\)$/m, 'one master, named');
  t.match(up.stdout, /^ {2}lay_\w+\s+title\s+Title Slide$/m, 'lists layouts with their ids, types and names');
  t.match(up.stderr, /Analyzing tpl_\w+: completed 100%/, 'shows the analysis progress');

  // templates list
  const list = await cli(['templates', 'list']);
  t.equal(list.code, 0);
  t.match(list.stdout, new RegExp(`${templateId}\\s+ready\\s+49\\.1 kB\\s+brand`), 'lists the template');
  t.match(list.stdout, /page 1 of 1, 1 template\(s\)/);
  const other = await cli(['templates', 'list'], { SLIDEWRIGHT_API_KEY: ORG_B.key });
  t.equal(other.stdout.trim(), 'no templates', "another organization's key sees none");

  // templates show (text and JSON)
  const show = await cli(['templates', 'show', templateId!]);
  t.equal(show.code, 0);
  t.match(show.stdout, /status\s+ready/);
  t.match(show.stdout, /tags\s+cli, e2e/);
  t.match(show.stdout, /analysis\s+completed \(1 slides, \d+ layouts\)/);
  const shown = JSON.parse((await cli(['--json', 'templates', 'show', templateId!])).stdout) as Json;
  t.equal(shown.template_id, templateId);
  const layouts = shown.analysis_results.layouts as Json[];
  const title = layouts.find((l) => l.type === 'title')!;
  const obj = layouts.find((l) => l.type === 'obj')!;
  t.ok(title && obj, 'the analysis has title and content layouts');

  // generate from YAML
  const deckFile = join(dir, 'deck.yaml');
  writeFileSync(
    deckFile,
    [
      'slides:',
      `  - template_slide_id: ${String(title.slide_id)}`,
      '    slide_data:',
      '      title: Q3 Review',
      '      subtitle: From the CLI',
      `  - template_slide_id: ${String(obj.slide_id)}`,
      '    slide_data:',
      '      title: Highlights',
      '      content:',
      '        blocks:',
      '          - type: text',
      '            text: {bullets: ["Revenue +12%", "Churn < 2%"]}',
      `  - template_slide_id: ${String(obj.slide_id)}`,
      '    slide_data:',
      '      title: By region',
      '      content:',
      '        blocks:',
      '          - type: table',
      '            table:',
      '              table:',
      '                rows:',
      '                  - {is_header: true, cells: [{value: Region}, {value: Revenue}]}',
      '                  - cells: [{value: North}, {value: "120"}]',
      '      footnote: Source - finance',
      'options:',
      '  footer_text: Confidential',
      '  show_slide_numbers: true',
      '',
    ].join('\n'),
  );
  const out = join(dir, 'out.pptx');
  const gen = await cli(['generate', deckFile, '-o', out]);
  t.equal(gen.code, 0, `generate exits 0\n${gen.stderr}`);
  const generationId = /generation (gen_\w+) submitted/.exec(gen.stderr)?.[1];
  t.ok(generationId, 'says which generation it submitted');
  t.match(gen.stderr, new RegExp(`Generating ${generationId}: completed 100%`), 'shows the progress while polling');
  t.match(gen.stdout, /wrote .*out\.pptx \(3 slides, [\d.]+ kB; completed\)/);
  // The footnote of the third slide has no place in this template: slide_index 2 is slide 3.
  const footnoteWarning = new RegExp(`^warning: slide 3 \\(${String(obj.slide_id)}\\): content_not_placed slide has no text box marked "footnote_placeholder" or "footnote"; footnote not placed$`, 'm');
  t.match(gen.stderr, footnoteWarning, 'warnings name the slide 1-based');
  t.equal(await pptxSlideCount(out), 3, 'the downloaded .pptx is a zip with the 3 requested slides');

  // status of the generation and of the analysis
  const st = await cli(['status', generationId!]);
  t.equal(st.code, 0);
  t.match(st.stdout, /status\s+completed/);
  t.match(st.stdout, /slides generated\s+3/);
  t.match(st.stdout, /download_url\s+http/);
  t.match(st.stdout, footnoteWarning, 'status names the slide 1-based too');
  const stJson = JSON.parse((await cli(['status', generationId!, '--json'])).stdout) as Json;
  t.equal(stJson.total_pages_generated, 3);
  const ana = await cli(['status', templateId!]);
  t.equal(ana.code, 0);
  t.match(ana.stdout, /status\s+completed/);

  // generate from JSON, default output name next to the working directory, --json summary
  const jsonDeck = join(dir, 'one.json');
  writeFileSync(jsonDeck, JSON.stringify({ slides: [{ template_slide_id: title.slide_id, slide_data: { title: 'Only one' } }] }));
  const one = await cli(['--json', 'generate', jsonDeck, '--interval', '0.5']);
  t.equal(one.code, 0, one.stderr);
  t.match(JSON.parse(one.stdout) as Json, { status: 'completed', total_pages_generated: 1, output: 'one.pptx' });
  t.equal(await pptxSlideCount(join(dir, 'one.pptx')), 1);

  // previews: slide 1 of the template, slide 2 of the generated deck (both 1-based)
  const templatePng = join(dir, 'template-1.png');
  const preview = await cli(['preview', templateId!, '1', '-o', templatePng, '--width', '320']);
  t.equal(preview.code, 0, preview.stderr);
  t.equal(readFileSync(templatePng).subarray(1, 4).toString('latin1'), 'PNG', 'a template preview is a PNG');
  t.match(preview.stdout, /^wrote .*template-1\.png \([\d.]+ kB, 320×\d+ px\)$/m);
  const deckPng = join(dir, 'deck-2.png');
  const deckPreview = await cli(['preview', generationId!, '2', '-o', deckPng, '--width', '320']);
  t.equal(deckPreview.code, 0, deckPreview.stderr);
  t.equal(readFileSync(deckPng).subarray(1, 4).toString('latin1'), 'PNG', 'a generated deck preview is a PNG');
  t.match(deckPreview.stdout, /^wrote .*deck-2\.png \([\d.]+ kB, 320×\d+ px\)$/m);
  const pastEnd = await cli(['preview', generationId!, '4', '-o', join(dir, 'never.png')]);
  t.equal(pastEnd.code, 1);
  t.match(pastEnd.stderr, new RegExp(`^slidewright: 404 Not Found \\(GET /api/v1/presentations/${generationId}/slides/4/preview\\): .*it has 3 slides`, 'm'), 'slide 4 of a 3-slide deck is not there');

  const matchFile = join(dir, 'match.json');
  writeFileSync(matchFile, JSON.stringify({ title: 'Highlights', content: { blocks: [{ type: 'text', text: { bullets: ['a', 'b'] } }] } }));
  const match = await cli(['match', matchFile, '--against', 'layouts', '--top-k', '3']);
  t.equal(match.code, 0, match.stderr);
  t.match(match.stdout, /score/);
  t.match(match.stdout, /lay_\w+/);

  // delete (soft), restore, delete --permanent
  const del = await cli(['templates', 'delete', templateId!]);
  t.equal(del.code, 0, del.stderr);
  t.equal(del.stdout, `deleted ${templateId} (status deleted); undo with: slidewright templates restore ${templateId}\n`);
  t.equal((await cli(['templates', 'list'])).stdout.trim(), 'no templates', 'a soft-deleted template is not listed');
  t.match((await cli(['templates', 'list', '--include-deleted'])).stdout, new RegExp(`${templateId}\\s+deleted`), 'unless asked for');
  const restored = await cli(['templates', 'restore', templateId!]);
  t.equal(restored.code, 0, restored.stderr);
  t.equal(restored.stdout, `restored ${templateId} (status ready)\n`);
  const again = await cli(['templates', 'restore', templateId!]);
  t.equal(again.code, 1);
  t.match(again.stderr, /^slidewright: 409 Conflict \(POST \/api\/v1\/templates\/tpl_\w+\/restore\): /m, 'restoring a live template is a conflict');
  const gone = await cli(['templates', 'delete', templateId!, '--permanent']);
  t.equal(gone.code, 0, gone.stderr);
  t.equal(gone.stdout, `deleted ${templateId} permanently\n`);
  const showGone = await cli(['templates', 'show', templateId!]);
  t.equal(showGone.code, 1);
  t.match(showGone.stderr, /404 Not Found/, 'a permanently deleted template is gone');
  t.equal((await cli(['templates', 'restore', templateId!])).code, 1, 'and cannot be restored');
});

t.test('errors: the API detail, each 422 loc: msg, exit code 1', async (t) => {
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'slides:\n  - template_slide_id: lay_X\n    slide_data: {title: 1}\nbogus: 1\n');
  const v = await cli(['generate', bad, '-o', join(dir, 'never.pptx')]);
  t.equal(v.code, 1);
  t.match(v.stderr, /invalid request \(422, POST \/api\/v1\/presentations\/generate-deck\):/);
  t.match(v.stderr, /^ {2}body\.slides\.0\.slide_data\.title \(slide 1\): Input should be a valid string$/m, 'a 422 inside slides[0] names slide 1');
  t.match(v.stderr, /^ {2}body\.bogus: Extra inputs are not permitted$/m);

  const unknown = await cli(['templates', 'show', 'tpl_01ARZ3NDEKTSV4RRFFQ69G5FAV']);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /^slidewright: 404 Not Found \(GET \/api\/v1\/templates\/tpl_01ARZ3NDEKTSV4RRFFQ69G5FAV\): .+/m);

  const wrongKey = await cli(['templates', 'list'], { SLIDEWRIGHT_API_KEY: 'nope' });
  t.equal(wrongKey.code, 1);
  t.match(wrongKey.stderr, /^slidewright: 401 Unauthorized/m);

  const flagsBoth = await cli(['--api-key', ORG_A.key, '--url', svc.url, 'templates', 'list'], { SLIDEWRIGHT_API_KEY: 'nope', SLIDEWRIGHT_URL: 'http://127.0.0.1:9' });
  t.equal(flagsBoth.code, 0, '--url and --api-key override SLIDEWRIGHT_URL and SLIDEWRIGHT_API_KEY');

  const noKey = await cli(['templates', 'list'], { SLIDEWRIGHT_API_KEY: undefined });
  t.equal(noKey.code, 1);
  t.match(noKey.stderr, /no API key: set SLIDEWRIGHT_API_KEY or pass --api-key/);

  const missing = await cli(['templates', 'upload', join(dir, 'nope.pptx')]);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /cannot read .*nope\.pptx: ENOENT/);

  const badYaml = join(dir, 'broken.yaml');
  writeFileSync(badYaml, 'slides: [\n');
  const parse = await cli(['generate', badYaml]);
  t.equal(parse.code, 1);
  t.match(parse.stderr, /broken\.yaml is not valid YAML/);

  const usage = await cli(['preview', 'tpl_x', '-o', join(dir, 'x.png')]);
  t.equal(usage.code, 1, 'a missing argument is a usage error');
  t.match(usage.stderr, /missing required argument 'n'/);

  const help = await cli(['--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /templates\s+upload, list, inspect, delete and restore\s+templates/);
});

t.test('templates show: a two-master template lists its layouts under each master by name', needsCorpus(TWO_MASTER_TEMPLATE), async (t) => {
  const up = await cli(['templates', 'upload', corpusPath(TWO_MASTER_TEMPLATE), '--analyze'], { SLIDEWRIGHT_API_KEY: ORG_B.key });
  t.equal(up.code, 0, up.stderr);
  const templateId = /template_id: (tpl_\w+)/.exec(up.stdout)?.[1];
  const shown = JSON.parse((await cli(['--json', 'templates', 'show', templateId!], { SLIDEWRIGHT_API_KEY: ORG_B.key })).stdout) as Json;
  const masters = shown.analysis_results.masters as Json[];
  const layouts = shown.analysis_results.layouts as Json[];
  t.equal(masters.length, 2, 'the template has two masters');

  const show = await cli(['templates', 'show', templateId!], { SLIDEWRIGHT_API_KEY: ORG_B.key });
  t.equal(show.code, 0, show.stderr);
  t.match(show.stdout, new RegExp(`^Layouts \\(${layouts.length} in 2 masters\\) — `, 'm'));
  // Each master's heading, then exactly its own layouts (by id), in order.
  const sections = show.stdout.split(/^(?=Master \d+ of 2: )/m).slice(1);
  t.equal(sections.length, 2, 'two master sections');
  masters.forEach((m, i) => {
    const own = layouts.filter((l) => l.master_index === m.master_index);
    const section = sections[i] ?? '';
    t.ok(section.startsWith(`Master ${i + 1} of 2: ${String(m.name)} (${own.length} layout${own.length === 1 ? '' : 's'})\n`), `master ${i + 1} is headed by its name (${String(m.name)})`);
    t.same(section.match(/lay_\w+/g), own.map((l) => l.slide_id), `master ${i + 1} lists its own layouts`);
  });
});

t.test('npx slidewright resolves the package bin', async (t) => {
  const r = await run('npx', ['--no-install', 'slidewright', '--version'], { cwd: repoRoot, env: { ...process.env } });
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout.trim(), '0.1.0');
});
