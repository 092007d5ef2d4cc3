/**
 * The slide draft (core/src/generation/draft) has one public surface, `draft/index.ts`
 * (issue 19, item 2): a source outside the folder that imports one of the draft's own
 * modules (its paragraph or row models, markers, copies, serializer) is listed. The
 * draft's modules import each other freely.
 *
 * Reads every import of core's TypeScript sources (static, `export … from`, `import type`
 * and dynamic `import()`) as TypeScript's pre-processor does.
 */
import t from 'tap';
import { scratchSourceTree, sourcesUnder } from '../../helpers/sources.js';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The draft's folder and its one module others may import, relative to the repository root. */
const DRAFT_DIR = 'core/src/generation/draft';
const DRAFT_INDEX = `${DRAFT_DIR}/index`;


const posix = (path: string): string => path.split(sep).join('/');

/** `file imports specifier` for each import under `root`'s core/src, outside the draft, that reaches into the draft past its index. */
function offences(root: string): string[] {
  const found: string[] = [];
  for (const file of sourcesUnder(join(root, 'core/src'))) {
    const from = posix(relative(root, file));
    if (from.startsWith(`${DRAFT_DIR}/`)) continue;
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue; // packages and node: builtins
      const target = posix(relative(root, resolve(dirname(file), specifier)));
      if (target !== DRAFT_DIR && !target.startsWith(`${DRAFT_DIR}/`)) continue;
      // the index, named with or without its extension, or as the folder itself
      const module = target.replace(/\.(m|c)?(j|t)sx?$/, '');
      if (module === DRAFT_INDEX || module === DRAFT_DIR) continue;
      found.push(`${from} imports ${specifier}`);
    }
  }
  return found.sort();
}

t.test('code outside generation/draft imports the draft through its index only', async (t) => {
  t.same(offences(repoRoot), [], `only ${DRAFT_INDEX}.ts is imported from outside ${DRAFT_DIR}/`);
});

t.test('the check finds each kind of import past the index', async (t) => {
  const { root, write } = scratchSourceTree(t, 'draft-facade');
  write(`${DRAFT_DIR}/index.ts`, "export { cloneInto } from './clone.js';\n");
  write(`${DRAFT_DIR}/clone.ts`, "import { x } from './serialize.js';\nexport const cloneInto = x;\n");
  write('core/src/generation/slide/a.ts', "import { cloneInto } from '../draft/index.js';\nimport { y } from '../draft/clone.js';\n");
  write('core/src/generation/slide/b.ts', "import type { M } from '../draft/model-marker.js';\nimport '../draft';\n");
  write('core/src/generation/c.ts', "export { s } from './draft/serialize.js';\nconst r = await import('./draft/read.js');\n");
  write('core/src/quality/d.ts', "import { p } from '../generation/draft/deferred-paragraphs.js';\nimport { q } from '../generation/draft/index.js';\n");
  t.same(offences(root), [
    'core/src/generation/c.ts imports ./draft/read.js',
    'core/src/generation/c.ts imports ./draft/serialize.js',
    'core/src/generation/slide/a.ts imports ../draft/clone.js',
    'core/src/generation/slide/b.ts imports ../draft/model-marker.js',
    'core/src/quality/d.ts imports ../generation/draft/deferred-paragraphs.js',
  ]);
});

/**
 * What the index lets out: the models' markers (the elements that stand for kept
 * paragraphs and rows in a tree) and the functions that find or make them stay inside the
 * folder; slide writing keeps, drops, expands and reads models through SlideDraft's methods.
 */
const MARKER_INTERNALS = ['paragraphMarkers', 'rowMarkers', 'ModelMarkers', 'deferredParagraphs', 'deferredRows', 'DEFERRED_PARAGRAPHS_NS', 'DEFERRED_ROWS_NS'];

/** The names a module exports (and the names it re-exports under an alias) through `export { … }` and `export` declarations, read with TypeScript's parser. */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      // an alias counts under both names: `export { paragraphMarkers as pm }` lets the marker out
      for (const e of statement.exportClause.elements) names.push(e.name.text, ...(e.propertyName ? [e.propertyName.text] : []));
    } else if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const named = statement as ts.Statement & { name?: ts.Identifier };
      if (named.name) names.push(named.name.text);
      if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    }
  }
  return names;
}

t.test('the index does not let the markers out', async (t) => {
  const names = exportedNames(join(repoRoot, `${DRAFT_INDEX}.ts`));
  t.ok(names.includes('SlideDraft'), 'SlideDraft is the surface');
  t.same(names.filter((n) => MARKER_INTERNALS.includes(n)), [], 'no marker or marker finder is exported by the index');
});

t.test('the export check sees each way of exporting a name', async (t) => {
  const { root, write } = scratchSourceTree(t, 'draft-exports');
  write('index.ts', "export { SlideDraft, paragraphMarkers as pm } from './a.js';\nexport const rowMarkers = 1;\nexport function deferredRows() {}\nexport class ModelMarkers {}\n");
  t.same(exportedNames(join(root, 'index.ts')).sort(), ['ModelMarkers', 'SlideDraft', 'deferredRows', 'paragraphMarkers', 'pm', 'rowMarkers']);
});
