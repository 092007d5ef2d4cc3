/**
 * The gateway's header guard (gateway/src/headers.ts): whatever value a route, core or an
 * error hands it — non-ASCII, CR/LF, NUL, DEL, lone surrogates, text that looks encoded —
 * every header goes out as visible ASCII and reads back to what was meant. The functions
 * are checked directly, then through a gateway listening on a real socket (Node's own
 * header checks, which answered 500 ERR_INVALID_CHAR before) with a fake core.
 */
import t, { type Test } from 'tap';
import * as grpc from '@grpc/grpc-js';
import type { FastifyInstance } from 'fastify';
import { buildGateway } from '../../../gateway/src/app.js';
import type { RpcInvoker } from '../../../gateway/src/invoker.js';
import {
  CUT_MARK, EXT_VALUE_PREFIX, MAX_HEADER_VALUE_CHARS, asciiFileName, contentDisposition, decodeHeaderValue, encodeExtValue, guardReplyHeaders, ifNoneMatchNames, isPlainHeaderValue,
  safeEntityTag, safeHeaderValue, safeMetadataValue,
} from '../../../gateway/src/headers.js';
import type { RouteSpec } from '../../../proto/gen/routes.js';

/** What a header value may be on the wire: visible ASCII, SP, HTAB. */
const ON_THE_WIRE = /^[\t\x20-\x7e]*$/;

/** Values that broke, or could break, a response header. */
const HOSTILE: ReadonlyArray<readonly [label: string, value: string]> = [
  ['Japanese font names', 'ＭＳ Ｐゴシック=DejaVu Sans; HGP創英角ｺﾞｼｯｸUB=DejaVu Sans'],
  ['Chinese', '微软雅黑=DejaVu Sans'],
  ['Cyrillic', 'Академия=DejaVu Serif'],
  ['Arabic', 'نسخ عربي=DejaVu Sans'],
  ['Latin-1 only (Node would send it as obs-text bytes)', 'Garamond Prémier=Liberation Serif'],
  ['CR LF header injection', 'Calibri=Carlito\r\nSet-Cookie: stolen=1'],
  ['a lone LF', 'a\nb'],
  ['NUL', 'a\u0000b'],
  ['DEL and other controls', 'a\u007fb\u0001c\u001bd'],
  ['a value that looks RFC 8187-encoded', "UTF-8''%41"],
  ['the prefix in another case with a language', "utf-8'en'x"],
  ['an emoji (a surrogate pair)', 'Segoe UI Emoji=😀'],
  ['a lone surrogate', 'x\ud800y'],
  ['bidi controls', '\u202eevil\u202c'],
  ['a very long value', 'ＭＳ'.repeat(2000)],
];

/** `value` as it reads back: a lone surrogate becomes U+FFFD (UTF-8 cannot carry it). */
function meant(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Checks that a header value sent for `value` reads back as it, or as its start and `…` when cut. */
function readsBack(t: Test, sent: string, value: string, label: string): void {
  t.ok(sent.length <= MAX_HEADER_VALUE_CHARS, `${label}: at most ${MAX_HEADER_VALUE_CHARS} characters (${sent.length})`);
  const back = decodeHeaderValue(sent);
  if (back === meant(value)) return void t.pass(`${label}: reads back`);
  t.ok(back.endsWith(CUT_MARK) && meant(value).startsWith(back.slice(0, -1)), `${label}: reads back as its start and … (cut to fit)`);
}

t.test('encodeExtValue and decodeHeaderValue: RFC 8187 ext-values that read back', async (t) => {
  t.equal(encodeExtValue('abc-._~'), "UTF-8''abc-._~", 'attr-chars as themselves');
  t.equal(encodeExtValue('a b=c;d'), "UTF-8''a%20b%3Dc%3Bd", 'space, = and ; percent-encoded');
  t.equal(encodeExtValue('€'), "UTF-8''%E2%82%AC", 'UTF-8 bytes, upper-case hex (RFC 8187 §3.2.3 example)');
  for (const [label, value] of HOSTILE) {
    const sent = encodeExtValue(value);
    t.match(sent, /^UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]*$/, `${label}: only attr-chars and %XX`);
    t.equal(decodeHeaderValue(sent), meant(value), `${label}: reads back${meant(value) === value ? '' : ' (a lone surrogate as U+FFFD)'}`);
  }
  t.equal(decodeHeaderValue('Calibri=Carlito'), 'Calibri=Carlito', 'a plain value reads as itself');
  t.equal(decodeHeaderValue("UTF-8'ja'%E6%97%A5"), '日', 'a language tag is allowed');
  t.equal(decodeHeaderValue("UTF-8''%E6%97"), "UTF-8''%E6%97", 'a malformed encoding comes back as sent');
});

t.test('safeHeaderValue: plain values pass, every other value is sent encoded', async (t) => {
  for (const plain of ['Calibri=Carlito; Segoe UI=Liberation Sans', '1280', 'a\tb', '', 'private, max-age=300']) {
    t.ok(isPlainHeaderValue(plain), `${JSON.stringify(plain)} is plain`);
    t.equal(safeHeaderValue('X-Font-Substitutions', plain), plain, `${JSON.stringify(plain)} is sent as it is`);
  }
  for (const [label, value] of HOSTILE) {
    const sent = safeHeaderValue('X-Font-Substitutions', value);
    t.match(sent, ON_THE_WIRE, `${label}: ASCII on the wire`);
    t.ok(sent.startsWith(EXT_VALUE_PREFIX), `${label}: as an ext-value`);
    t.notMatch(sent, /[\r\n\0]/, `${label}: no CR, LF or NUL`);
    readsBack(t, sent, value, label);
  }
  const long = 'Calibri=Carlito; '.repeat(400);
  const cut = safeHeaderValue('X-Font-Substitutions', long);
  t.ok(cut.startsWith(EXT_VALUE_PREFIX) && cut.endsWith('%E2%80%A6') && cut.length <= MAX_HEADER_VALUE_CHARS, `a plain value over ${MAX_HEADER_VALUE_CHARS} characters is cut and ends with … (${cut.length})`);
  readsBack(t, cut, long, 'the long plain value');
  t.equal(safeMetadataValue('key-ascii-1'), 'key-ascii-1', 'ASCII metadata as it is');
  t.match(safeMetadataValue('clé\ttab'), /^UTF-8''/, 'metadata with non-ASCII or a tab (grpc-js refuses both) encoded');
});

t.test('entity tags stay entity tags', async (t) => {
  t.equal(safeEntityTag('"0123abcd-2-1280"'), '"0123abcd-2-1280"', 'a valid tag as it is');
  t.equal(safeEntityTag('W/"x"'), 'W/"x"', 'weak tags too');
  t.equal(safeEntityTag('bare-token'), '"bare-token"', 'bare etagc characters are quoted');
  for (const [label, value] of HOSTILE) {
    const tag = safeEntityTag(value);
    if (/^[\x21\x23-\x7e]+$/.test(value)) t.equal(tag, `"${value}"`, `${label}: quoted (all of it is etagc)`);
    else t.match(tag, /^"sha256-[0-9a-f]{32}"$/, `${label}: a quoted digest`);
    t.equal(safeEntityTag(value), tag, `${label}: the same every time`);
  }
  t.ok(ifNoneMatchNames('"a", "b"', '"b"'), 'a list names its members');
  t.ok(ifNoneMatchNames('W/"b"', '"b"'), 'weak comparison');
  t.ok(ifNoneMatchNames('*', '"b"'), '* names any');
  t.notOk(ifNoneMatchNames('"a"', '"b"'), 'another tag does not');
  t.notOk(ifNoneMatchNames(undefined, '"b"'), 'no header does not');
});

t.test('Content-Disposition: RFC 6266 with an ASCII filename and an RFC 8187 filename*', async (t) => {
  t.equal(contentDisposition('brand.pptx'), 'attachment; filename="brand.pptx"', 'a plain name as before');
  t.equal(contentDisposition('Q3報告.pptx'), `attachment; filename="Q3_.pptx"; filename*=UTF-8''Q3%E5%A0%B1%E5%91%8A.pptx`);
  t.equal(contentDisposition('Präsentation.potx'), `attachment; filename="Prasentation.potx"; filename*=UTF-8''Pr%C3%A4sentation.potx`, 'accents dropped in the fallback');
  t.equal(contentDisposition('日本.pptx'), `attachment; filename="download.pptx"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pptx`, 'a name with nothing ASCII left');
  t.equal(asciiFileName('100% "real" \\ deck/v2.pptx'), '100_ _real_ _ deck_v2.pptx', 'quote, backslash, % and / replaced');
  const hostileNames = ['a"\r\nSet-Cookie: x=1.pptx', 'nul\u0000.pptx', '😀.pptx', '..\\..\\evil.pptx', "UTF-8''x.pptx", 'x'.repeat(300) + '.pptx'];
  for (const name of hostileNames) {
    const header = contentDisposition(name);
    t.match(header, ON_THE_WIRE, `${JSON.stringify(name)}: ASCII`);
    t.match(header, /^attachment; filename="[^"\\]*"(; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+)?$/, `${JSON.stringify(name)}: one quoted filename, one filename*`);
    const star = /filename\*=(.*)$/.exec(header)?.[1];
    if (star) t.equal(decodeHeaderValue(star), name, `${JSON.stringify(name)}: filename* reads back exactly`);
  }
  t.equal(safeHeaderValue('content-disposition', 'attachment; filename="日本"'), 'attachment', 'an unsafe disposition that reaches the guard becomes a bare attachment');
});

t.test('guardReplyHeaders rewrites what is unsafe and drops names that are not tokens', async (t) => {
  const headers: Record<string, string | number | string[]> = { 'x-ok': 'fine', 'x-font-substitutions': 'ＭＳ=DejaVu Sans', 'content-length': 12, 'bad name': 'x', 'x-list': ['ok', 'ü'] };
  const reply = {
    getHeaders: () => ({ ...headers }),
    header(name: string, value: string | string[]) {
      headers[name] = value;
      return this;
    },
    removeHeader(name: string) {
      delete headers[name];
      return this;
    },
  };
  const changed = guardReplyHeaders(reply as unknown as Parameters<typeof guardReplyHeaders>[0]);
  t.same(changed.sort(), ['bad name', 'x-font-substitutions', 'x-list']);
  t.same(headers, { 'x-ok': 'fine', 'x-font-substitutions': "UTF-8''%EF%BC%AD%EF%BC%B3%3DDejaVu%20Sans", 'content-length': 12, 'x-list': ['ok', "UTF-8''%C3%BC"] });
});

/** A one-pixel PNG. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8ffff3f0005fe02fea7d6a4a50000000049454e44ae426082', 'hex');

/**
 * A fake core: previews answer with `fontSubstitutions` and `etag`, downloads with
 * `filename`; every call first builds real grpc-js metadata from what the gateway sends
 * (which throws on a value gRPC cannot carry) and answers 401 for any key but `good-key`.
 */
function fakeCore(values: { fontSubstitutions: string; etag: string; filename: string; retryAfter?: string }): RpcInvoker & { seen: Array<Record<string, string>> } {
  const seen: Array<Record<string, string>> = [];
  return {
    seen,
    async call(route: RouteSpec, _request: unknown, metadata: Readonly<Record<string, string>>): Promise<unknown> {
      const md = new grpc.Metadata();
      for (const [k, v] of Object.entries(metadata)) md.set(k, v);
      seen.push({ ...metadata });
      const trailers = (status: string, extra: Record<string, string> = {}) => ({ get: (k: string) => (k === 'x-http-status' ? [status] : k in extra ? [extra[k]] : []) });
      if (metadata['x-api-key'] !== 'good-key') throw Object.assign(new Error('unknown API key'), { code: 16, details: 'clé inconnue: unknown API key', metadata: trailers('401') });
      if (route.rpc === 'GenerateDeck') throw Object.assign(new Error('busy'), { code: 8, details: 'trop de générations', metadata: trailers('429', { 'retry-after': values.retryAfter ?? '5' }) });
      if (route.rpc === 'GetTemplateSlidePreview' || route.rpc === 'GetPresentationSlidePreview') {
        return { image: { content_type: 'image/png', data: PNG, extensions: [] }, width_px: 1, height_px: 1, width_emu: 12192000, height_emu: 6858000, etag: values.etag, font_substitutions: values.fontSubstitutions };
      }
      if (route.rpc === 'DownloadTemplate' || route.rpc === 'DownloadPresentation') {
        return { file: { content_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', data: Buffer.from('PK'), extensions: [] }, filename: values.filename };
      }
      throw Object.assign(new Error('not in this fake'), { code: 12, details: 'not in this fake', metadata: trailers('501') });
    },
    close() {},
  };
}

/** Starts a gateway on a free port with `core`; closed at the end of `t`. */
async function listening(t: Test, core: RpcInvoker): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildGateway({ invoker: core, logger: false });
  // a route added after the gateway was built gets the guard too
  app.get('/late-route', async (_req, reply) => reply.header('x-late', 'späť\r\nInjected: 1').send({ ok: true }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return { app, base: address };
}

t.test('through a listening gateway: hostile values from core never break an answer', async (t) => {
  for (const [label, value] of HOSTILE) {
    const core = fakeCore({ fontSubstitutions: value, etag: value, filename: `${value}.pptx`, retryAfter: value });
    const { base } = await listening(t, core);
    const key = { 'x-api-key': 'good-key' };
    for (const path of ['/api/v1/templates/tpl_x/slides/1/preview', '/api/v1/presentations/gen_x/slides/2/preview?width=640']) {
      const res = await fetch(`${base}${path}`, { headers: key });
      t.equal(res.status, 200, `${label}: ${path} answers 200`);
      t.equal(Buffer.from(await res.arrayBuffer()).subarray(0, 8).toString('hex'), '89504e470d0a1a0a', `${label}: the PNG`);
      for (const [name, v] of res.headers) t.match(v, ON_THE_WIRE, `${label}: ${name} is ASCII`);
      t.notOk(res.headers.get('set-cookie') ?? res.headers.get('injected'), `${label}: nothing injected`);
      readsBack(t, res.headers.get('x-font-substitutions') ?? '', value, `${label}: X-Font-Substitutions`);
      const etag = res.headers.get('etag')!;
      t.match(etag, /^(W\/)?"[\x21\x23-\x7e]*"$/, `${label}: ETag is an entity tag`);
      const again = await fetch(`${base}${path}`, { headers: { ...key, 'if-none-match': etag } });
      t.equal(again.status, 304, `${label}: If-None-Match with that ETag answers 304`);
      await again.arrayBuffer();
    }
    for (const path of ['/api/v1/templates/tpl_x/download', '/api/v1/presentations/gen_x/download']) {
      const res = await fetch(`${base}${path}`, { headers: key });
      t.equal(res.status, 200, `${label}: ${path} answers 200`);
      await res.arrayBuffer();
      const cd = res.headers.get('content-disposition') ?? '';
      t.match(cd, ON_THE_WIRE, `${label}: Content-Disposition is ASCII`);
      const star = /filename\*=(.*)$/.exec(cd)?.[1];
      const name = star ? decodeHeaderValue(star) : /filename="([^"]*)"/.exec(cd)?.[1];
      if (cd === 'attachment') t.ok(`${value}.pptx`.length > 255, `${label}: only a name too long for the header is left out`);
      else t.equal(name, meant(`${value}.pptx`), `${label}: the file name reads back`);
    }
    const busy = await fetch(`${base}/api/v1/presentations/generate-deck`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ slides: [{ template_slide_id: 'lay_x', slide_data: {} }] }) });
    t.equal(busy.status, 429, `${label}: an error from core keeps its status`);
    t.match(busy.headers.get('retry-after') ?? '', ON_THE_WIRE, `${label}: Retry-After from core's trailers is ASCII`);
    t.same(await busy.json(), { detail: 'trop de générations' }, `${label}: the message stays in the JSON body, unencoded`);
    const late = await fetch(`${base}/late-route`);
    t.equal(late.status, 200, `${label}: a route added later answers`);
    t.equal(decodeHeaderValue(late.headers.get('x-late') ?? ''), 'späť\r\nInjected: 1', `${label}: and its header is guarded`);
    t.notOk(late.headers.get('injected'), `${label}: nothing injected there either`);
    await late.arrayBuffer();
  }
});

t.test('request headers gRPC metadata cannot carry are passed on encoded: 401, not 500', async (t) => {
  const core = fakeCore({ fontSubstitutions: '', etag: '"e"', filename: 'x.pptx' });
  const { base } = await listening(t, core);
  // fetch sends header values as Latin-1 bytes; Node reads them back as the same characters
  const res = await fetch(`${base}/api/v1/templates/tpl_x/slides/1/preview`, { headers: { 'x-api-key': 'clé-spéciale', 'x-org-name': 'ÿorg' } });
  t.equal(res.status, 401, 'an unknown (non-ASCII) key is 401');
  t.same(await res.json(), { detail: 'clé inconnue: unknown API key' }, "core's message as it sent it");
  const sent = core.seen.at(-1)!;
  t.equal(sent['x-api-key'], encodeExtValue('clé-spéciale'), 'the key reached core encoded');
  t.equal(sent['x-org-name'], encodeExtValue('ÿorg'), 'the organization too');
  const signed = await fetch(`${base}/api/v1/templates/tpl_x/download?expires=1&org=%C3%A9&signature=%E2%82%AC`);
  t.equal(signed.status, 401, 'signature parameters with non-ASCII text reach core (encoded) instead of failing the request');
  t.equal(core.seen.at(-1)!['x-signature'], encodeExtValue('€'));
  await signed.arrayBuffer();
});
