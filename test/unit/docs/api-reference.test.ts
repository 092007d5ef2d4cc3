/**
 * docs/api.md, the API reference in the project's own words, is kept true against the
 * route table (proto/gen/routes.ts) and the OpenAPI document the gateway serves
 * (gateway/src/openapi.ts):
 *
 * - every route has one section headed `### METHOD /path` (the path as in the OpenAPI
 *   document), and every such heading is a route;
 * - each section's status table (rows whose first cell is a three-digit status) lists
 *   exactly the statuses the OpenAPI document declares for that operation;
 * - each section names (in backticks) every path and query parameter and every top-level
 *   body field of the operation, and the row naming a parameter or field states its
 *   numeric bounds (minimum, maximum, item counts);
 * - each section names (in backticks) every response header the OpenAPI document declares
 *   for the operation, and a section whose headers the document says are RFC 8187-encoded
 *   says so too; the reference's examples of encoded values are what the gateway's header
 *   code (gateway/src/headers.ts) makes of them;
 * - the "… states:" lines list exactly the states of core/src/domain/records.ts.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '../../../proto/gen/routes.js';
import { openApiDocument } from '../../../gateway/src/openapi.js';
import { contentDisposition, decodeHeaderValue, encodeExtValue } from '../../../gateway/src/headers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API_MD = fileURLToPath(new URL('../../../docs/api.md', import.meta.url));
const RECORDS_TS = fileURLToPath(new URL('../../../core/src/domain/records.ts', import.meta.url));
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** One `### METHOD /path` section of the reference. */
interface RouteSection {
  method: string;
  path: string;
  /** 1-based line of the heading. */
  line: number;
  /** The section's lines after the heading, up to the next heading of level 1–3. */
  body: string[];
}

/**
 * Splits the markdown into route sections. A heading of level 3 whose first word is an
 * HTTP method (in any case) starts one; any heading of level 1–3 ends it. Headings inside
 * fenced code blocks are ignored.
 */
function routeSections(markdown: string): RouteSection[] {
  const out: RouteSection[] = [];
  let current: RouteSection | undefined;
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,3})\s+(.*?)\s*$/.exec(line);
    if (heading) {
      current = undefined;
      const [word, path = '', ...rest] = heading[2]!.split(/\s+/);
      if (heading[1] === '###' && word !== undefined && METHODS.includes(word.toUpperCase())) {
        current = { method: word, path: rest.length ? `${path} ${rest.join(' ')}` : path, line: i + 1, body: [] };
        out.push(current);
      }
      return;
    }
    current?.body.push(line);
  });
  return out;
}

/** Statuses of a section's status table: rows whose first cell is a three-digit number. */
function documentedStatuses(section: RouteSection): string[] {
  const out: string[] = [];
  for (const line of section.body) {
    const m = /^\|\s*(\d{3})\s*\|/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** The table rows of a section whose first cell names `name` in backticks. */
function rowsNaming(section: RouteSection, name: string): string[] {
  return section.body.filter((line) => {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    return first.includes(`\`${name}\``);
  });
}

/** The numeric bounds a schema states (minimum, maximum, item counts), as text. */
function boundsOf(schema: Json | undefined): string[] {
  if (!schema) return [];
  return ['minimum', 'maximum', 'minItems', 'maxItems'].filter((k) => typeof schema[k] === 'number').map((k) => String(schema[k]));
}

/** The operation's parameters and top-level JSON body fields, with their schemas. */
function inputsOf(op: Json): Array<{ name: string; where: string; schema: Json | undefined }> {
  const out: Array<{ name: string; where: string; schema: Json | undefined }> = [];
  for (const p of (op['parameters'] ?? []) as Json[]) out.push({ name: p['name'], where: p['in'], schema: p['schema'] });
  const body = op['requestBody']?.['content']?.['application/json']?.['schema'] as Json | undefined;
  for (const [name, schema] of Object.entries((body?.['properties'] ?? {}) as Record<string, Json>)) out.push({ name, where: 'body', schema });
  return out;
}

/** The members of `export type <name> = 'a' | 'b' | …;` in a TypeScript source. */
function unionMembers(source: string, name: string): string[] {
  const m = new RegExp(`export type ${name}\\s*=([^;]+);`).exec(source);
  return m ? [...m[1]!.matchAll(/'([^']+)'/g)].map((x) => x[1]!) : [];
}

const markdown = readFileSync(API_MD, 'utf8');
const sections = routeSections(markdown);
const doc = openApiDocument('1.0.0') as Json;
const operations = new Map<string, Json>();
for (const [path, ops] of Object.entries(doc['paths'] as Record<string, Record<string, Json>>)) {
  for (const [method, op] of Object.entries(ops)) operations.set(`${method.toUpperCase()} ${path}`, op);
}
const routeKeys = new Set(ROUTES.map((r) => `${r.method} ${r.pathTemplate}`));

t.test('the route table and the OpenAPI document describe the same operations', async (t) => {
  t.same([...operations.keys()].sort(), [...routeKeys].sort());
});

t.test('docs/api.md has one section per route and none for anything else', async (t) => {
  const seen = new Map<string, number>();
  for (const s of sections) {
    const key = `${s.method} ${s.path}`;
    t.ok(routeKeys.has(key) && operations.has(key), `docs/api.md:${s.line}: the section on ${key} is a route of the route table and the OpenAPI document`);
    t.notOk(seen.has(key), `docs/api.md:${s.line}: ${key} is documented once${seen.has(key) ? ` (also at line ${seen.get(key)})` : ''}`);
    seen.set(key, s.line);
  }
  for (const key of routeKeys) t.ok(seen.has(key), `docs/api.md has a section headed "${key}" (level 3)`);
});

t.test('each section lists exactly the statuses the OpenAPI document declares', async (t) => {
  for (const s of sections) {
    const op = operations.get(`${s.method} ${s.path}`);
    if (!op) continue; // reported above
    const documented = documentedStatuses(s);
    const declared = Object.keys(op['responses'] as Json).sort();
    const extra = documented.filter((x) => !declared.includes(x));
    const missing = declared.filter((x) => !documented.includes(x));
    t.same(extra, [], `${s.method} ${s.path}: no status the OpenAPI document does not declare`);
    t.same(missing, [], `${s.method} ${s.path}: every declared status has a row`);
    t.equal(new Set(documented).size, documented.length, `${s.method} ${s.path}: each status once`);
  }
});

t.test('each section names its parameters and body fields, with their bounds', async (t) => {
  for (const s of sections) {
    const op = operations.get(`${s.method} ${s.path}`);
    if (!op) continue;
    const text = s.body.join('\n');
    for (const input of inputsOf(op)) {
      t.ok(text.includes(`\`${input.name}\``), `${s.method} ${s.path}: names ${input.where} field \`${input.name}\``);
      const bounds = boundsOf(input.schema);
      if (bounds.length === 0) continue;
      const rows = rowsNaming(s, input.name);
      t.ok(rows.length > 0, `${s.method} ${s.path}: a table row for \`${input.name}\` (it has bounds ${bounds.join(', ')})`);
      for (const b of bounds) {
        t.ok(rows.some((r) => new RegExp(`(^|[^\\d])${b}([^\\d]|$)`).test(r)), `${s.method} ${s.path}: the row of \`${input.name}\` states ${b}`);
      }
    }
  }
});

/** The response headers an operation declares, over all its responses, with their descriptions. */
function headersOf(op: Json): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of Object.values((op['responses'] ?? {}) as Record<string, Json>)) {
    for (const [name, h] of Object.entries((r['headers'] ?? {}) as Record<string, Json>)) out.set(name, String(h['description'] ?? ''));
  }
  return out;
}

t.test('each section names the response headers its operation declares, and how they are encoded', async (t) => {
  let encoded = 0;
  for (const s of sections) {
    const op = operations.get(`${s.method} ${s.path}`);
    if (!op) continue;
    const text = s.body.join('\n');
    for (const [name, description] of headersOf(op)) {
      t.ok(text.includes(`\`${name}\``), `${s.method} ${s.path}: names response header \`${name}\``);
      if (/RFC 8187/.test(description)) {
        encoded++;
        t.ok(text.includes('RFC 8187') && text.includes("UTF-8''"), `${s.method} ${s.path}: says that ${name} may arrive RFC 8187-encoded (UTF-8'')`);
      }
    }
  }
  t.ok(encoded >= 4, `the OpenAPI document says which headers may be encoded (${encoded}: X-Font-Substitutions and Content-Disposition)`);
  t.match(markdown, /^### Header values$/m, 'the conventions have a "Header values" section');
});

t.test("the reference's encoded examples are what the gateway sends", async (t) => {
  const pairs = [...markdown.matchAll(/`([^`]+)`\s+arrives\s+as\s+`(UTF-8''[^`]+)`/g)];
  t.ok(pairs.length > 0, 'an example of an encoded header value');
  for (const [, plain, sent] of pairs) {
    t.equal(encodeExtValue(plain!), sent, `${plain} is sent as ${sent}`);
    t.equal(decodeHeaderValue(sent!), plain, `and reads back`);
  }
  const dispositions = [...markdown.matchAll(/`(attachment; filename="[^`]*)`\s+for\s+`([^`]+)`/g)];
  t.ok(dispositions.length > 0, 'an example of a Content-Disposition');
  for (const [, header, name] of dispositions) t.equal(contentDisposition(name!), header, `Content-Disposition for ${name}`);
});

t.test('the state lines list the states the records have', async (t) => {
  const records = readFileSync(RECORDS_TS, 'utf8');
  for (const [subject, type] of [['Template', 'TemplateStatus'], ['Analysis', 'AnalysisStatus'], ['Generation', 'GenerationStatus']] as const) {
    const states = unionMembers(records, type);
    t.ok(states.length > 0, `${type} found in core/src/domain/records.ts`);
    const line = new RegExp(`^${subject} states: (.*)$`, 'm').exec(markdown);
    t.ok(line, `docs/api.md has a line "${subject} states: …"`);
    const documented = [...(line?.[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    t.same([...documented].sort(), [...states].sort(), `${subject} states in docs/api.md are those of ${type}`);
  }
});

t.test('the reference links to its neighbours and nothing outside the repository', async (t) => {
  t.match(markdown, /\]\(user-guide\.md\)/, 'links the user guide');
  t.match(markdown, /\]\(architecture\.md\)/, 'links the architecture notes');
  t.notMatch(markdown, /\.\.\/shared|DESIGN\.md|interface\.md/, 'no reference to files outside the repository');
});
