/**
 * The corpus fetcher against a local HTTP mirror: good files land with their hash checked,
 * wrong, missing, partial and oversized answers leave nothing behind, an unreachable mirror
 * is told apart, and the corpus folder is resolved in the documented order.
 */
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchCorpus, main, readManifest, sourceUrl, type CorpusEntry } from './fetch.js';
import { locateCorpus } from '../helpers/corpus.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const COMMIT = 'a'.repeat(40);

function entry(file: string, body: Buffer, sourcePath = file.replace(/^[^/]+\//, 'data/')): CorpusEntry {
  return { file, sha256: sha(body), bytes: body.length, sourceRepo: 'someone/templates', commit: COMMIT, sourcePath, license: 'MIT' };
}

/** A mirror answering per path: a body, a status, a cut-off body, or more than announced. */
type Answer = { body: Buffer } | { status: number } | { truncate: Buffer } | { body: Buffer; extra: Buffer };

async function mirror(t: Test, answers: Map<string, Answer>): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    requests.push(path);
    const a = answers.get(path);
    if (!a) {
      res.writeHead(404).end('not found');
      return;
    }
    if ('status' in a) res.writeHead(a.status).end();
    else if ('truncate' in a) {
      // announce the whole file, send half, then drop the connection
      res.writeHead(200, { 'content-length': String(a.truncate.length) });
      res.write(a.truncate.subarray(0, a.truncate.length >> 1), () => res.destroy());
    } else if ('extra' in a) res.writeHead(200).end(Buffer.concat([a.body, a.extra]));
    else res.writeHead(200, { 'content-length': String(a.body.length) }).end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function scratch(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'slidewright-corpus-fetch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const pathOf = (e: CorpusEntry): string => `/${e.sourceRepo}/${e.commit}/${e.sourcePath}`;

t.test('the repository manifest is well formed and pins every file by commit and hash', async (t) => {
  const entries = readManifest();
  t.ok(entries.length >= 40, `${entries.length} files`);
  t.equal(new Set(entries.map((e) => e.file)).size, entries.length, 'no file twice');
  for (const folder of ['templates/', 'broken/', 'refused/', 'bench/']) t.ok(entries.some((e) => e.file.startsWith(folder)), `has ${folder}`);
  t.equal(sourceUrl(entries.find((e) => e.file === 'templates/onlyoffice-sample-ru.pptx')!, 'https://raw.githubusercontent.com'),
    'https://raw.githubusercontent.com/ONLYOFFICE/document-templates/b63503a7dc416d5e4b0f387ac8ed2689accbe3fa/sample/ru-RU/my/%D0%9E%D0%B1%D1%80%D0%B0%D0%B7%D0%B5%D1%86%20%D0%BF%D1%80%D0%B5%D0%B7%D0%B5%D0%BD%D1%82%D0%B0%D1%86%D0%B8%D0%B8%20ONLYOFFICE.pptx',
    'path segments are percent-encoded');
});

t.test('good files are fetched and kept; intact files are not fetched again', async (t) => {
  const a = entry('templates/a.pptx', Buffer.from('PK first file'));
  const b = entry('broken/b wíth space.pptx', Buffer.from('PK second'), 'dir/b wíth space.pptx');
  const m = await mirror(t, new Map([[pathOf(a), { body: Buffer.from('PK first file') }], [pathOf(b), { body: Buffer.from('PK second') }]]));
  const dir = scratch(t);
  const first = await fetchCorpus([a, b], { dir, mirror: m.url });
  t.same(first.map((o) => o.result), ['fetched', 'fetched']);
  t.equal(readFileSync(join(dir, 'templates/a.pptx'), 'utf8'), 'PK first file');
  t.equal(readFileSync(join(dir, 'broken/b wíth space.pptx'), 'utf8'), 'PK second');
  const before = m.requests.length;
  const again = await fetchCorpus([a, b], { dir, mirror: m.url });
  t.same(again.map((o) => o.result), ['present', 'present']);
  t.equal(m.requests.length, before, 'no request for files already intact');

  writeFileSync(join(dir, 'templates/a.pptx'), 'PK first filf');
  const repaired = await fetchCorpus([a], { dir, mirror: m.url });
  t.same(repaired.map((o) => o.result), ['fetched'], 'a damaged copy is replaced');
  t.equal(readFileSync(join(dir, 'templates/a.pptx'), 'utf8'), 'PK first file');
});

t.test('wrong hash, missing file, partial and oversized downloads fail and leave nothing', async (t) => {
  const good = Buffer.from('PK the real bytes of a template');
  const wrong = entry('templates/wrong.pptx', good);
  const missing = entry('templates/missing.pptx', good);
  const partial = entry('templates/partial.pptx', Buffer.alloc(256 * 1024, 7));
  const oversized = entry('templates/oversized.pptx', good);
  const forbidden = entry('templates/forbidden.pptx', good);
  const m = await mirror(t, new Map<string, Answer>([
    [pathOf(wrong), { body: Buffer.from('PK the fake bytes of a template') }],
    [pathOf(partial), { truncate: Buffer.alloc(256 * 1024, 7) }],
    [pathOf(oversized), { body: good, extra: Buffer.alloc(1024) }],
    [pathOf(forbidden), { status: 403 }],
  ]));
  const dir = scratch(t);
  const outcomes = await fetchCorpus([wrong, missing, partial, oversized, forbidden], { dir, mirror: m.url, timeoutMs: 10_000 });
  const reason = (f: string): string => {
    const o = outcomes.find((x) => x.file === f)!;
    return o.result === 'failed' ? o.reason : `not failed: ${o.result}`;
  };
  t.match(reason('templates/wrong.pptx'), /sha256 [0-9a-f]{64} does not match/);
  t.match(reason('templates/missing.pptx'), /HTTP 404/);
  t.match(reason('templates/partial.pptx'), /terminated|incomplete|other side closed|fetch failed/i);
  t.match(reason('templates/oversized.pptx'), /more than the expected/);
  t.match(reason('templates/forbidden.pptx'), /HTTP 403/);
  const left = existsSync(join(dir, 'templates')) ? readdirSync(join(dir, 'templates')) : [];
  t.same(left, [], 'no file and no partial download is left');
});

t.test('an unreachable mirror: the command says so in one line, and exits 0 only when asked to', async (t) => {
  const dir = scratch(t);
  const manifest = join(dir, 'manifest.tsv');
  const e = entry('templates/a.pptx', Buffer.from('x'));
  writeFileSync(manifest, `# test\nfile\tsha256\tbytes\tsource_repo\tcommit\tsource_path\tlicense\n${[e.file, e.sha256, e.bytes, e.sourceRepo, e.commit, e.sourcePath, e.license].join('\t')}\n`);
  // a port that was just free: nothing listens there
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const lines: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void lines.push(a.join(' '));
  console.error = (...a: unknown[]) => void lines.push(a.join(' '));
  try {
    const args = ['--manifest', manifest, '--dir', join(dir, 'cache'), '--mirror', `http://127.0.0.1:${port}`, '--probe-timeout', '3'];
    t.equal(await main([...args, '--quiet-offline']), 0, 'npm test goes on');
    t.equal(await main(args), 1, 'corpus:fetch itself reports failure');
  } finally {
    console.log = log;
    console.error = error;
  }
  t.equal(lines.length, 2, 'one line each time');
  t.match(lines[0], /not reachable .*ECONNREFUSED.*npm run corpus:fetch/);
  t.notOk(existsSync(join(dir, 'cache', 'templates', 'a.pptx')));
});

t.test('a manifest row leaving the corpus folder is refused', async (t) => {
  const dir = scratch(t);
  const bad = join(dir, 'bad.tsv');
  writeFileSync(bad, `file\tsha256\tbytes\tsource_repo\tcommit\tsource_path\tlicense\n../escape.pptx\t${'0'.repeat(64)}\t1\ta/b\t${COMMIT}\tx\tMIT\n`);
  t.throws(() => readManifest(bad), /relative path inside the corpus/);
});

t.test('the corpus folder: SLIDEWRIGHT_CORPUS_DIR, then the shared folder, then the user cache', async (t) => {
  const dir = scratch(t);
  const shared = join(dir, 'shared');
  const cache = join(dir, 'cache');
  const base = { SLIDEWRIGHT_SHARED_DIR: shared, SLIDEWRIGHT_CORPUS_CACHE: cache };
  t.equal(locateCorpus(base), undefined, 'nothing anywhere');
  mkdirSync(join(cache, 'templates'), { recursive: true });
  t.equal(locateCorpus(base), undefined, 'an empty cache is no corpus');
  writeFileSync(join(cache, 'templates', 'x.pptx'), 'x');
  t.same(locateCorpus(base), { dir: cache, source: 'user cache' });
  mkdirSync(join(shared, 'corpus'), { recursive: true });
  t.same(locateCorpus(base), { dir: join(shared, 'corpus'), source: 'shared folder' });
  t.same(locateCorpus({ ...base, SLIDEWRIGHT_CORPUS_DIR: join(dir, 'mine') }), { dir: join(dir, 'mine'), source: 'SLIDEWRIGHT_CORPUS_DIR' });
  t.same(locateCorpus({ XDG_CACHE_HOME: join(dir, 'xdg'), SLIDEWRIGHT_SHARED_DIR: shared + '-absent' }), undefined);
  mkdirSync(join(dir, 'xdg', 'slidewright', 'corpus'), { recursive: true });
  writeFileSync(join(dir, 'xdg', 'slidewright', 'corpus', 'y.pptx'), 'y');
  t.same(locateCorpus({ XDG_CACHE_HOME: join(dir, 'xdg'), SLIDEWRIGHT_SHARED_DIR: shared + '-absent' }), { dir: join(dir, 'xdg', 'slidewright', 'corpus'), source: 'user cache' });
});
