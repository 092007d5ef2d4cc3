/**
 * The README and docs/ stand alone: every relative link points at a file of the
 * repository (and the heading it names exists), and nothing names the documents of the
 * shared folder that a clone does not have.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pages = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

/** Anchors of every heading of a markdown text (outside code fences). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (m) out.add(anchorOf(m[1]!));
  }
  return out;
}

/** Inline links `[text](target)` of a markdown text, outside code fences and code spans. */
function links(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1]!);
  }
  return out;
}

for (const page of pages) {
  t.test(page, async (t) => {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    t.notMatch(text, /DESIGN\.md|interface\.md|shared\/spec|shared\/tools\/ooxml-lint/, 'names no document of the shared folder');
    for (const target of links(text)) {
      if (/^[a-z]+:/i.test(target)) continue; // http(s), mailto: not checked here
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file === '' ? join(repoRoot, page) : resolve(join(repoRoot, dirname(page)), file);
      const inside = !relative(repoRoot, path).startsWith('..');
      t.ok(inside, `${target}: inside the repository`);
      t.ok(existsSync(path), `${target}: the file exists`);
      if (anchor && inside && existsSync(path) && path.endsWith('.md')) {
        t.ok(anchors(readFileSync(path, 'utf8')).has(anchor), `${target}: the heading exists`);
      }
    }
  });
}
