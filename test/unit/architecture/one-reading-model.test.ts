/**
 * One reading model per package object (issue 19, "one reading model"): the PresentationML
 * reading model (`PmlModel`) is built only inside core/src/ooxml/pml, where the thread's
 * registry (`opened-templates.ts`, `openedTemplates.modelOf(pkg)`) keeps one per package
 * object. A source of the service that constructs one itself keeps a second model beside
 * the registry (and the memory of its parsed parts twice); this test lists each.
 *
 * Reads the service's TypeScript sources with TypeScript's parser: `new PmlModel(…)`, under
 * an import alias (`import { PmlModel as M }`) or through a namespace import
 * (`new pml.PmlModel(…)`), counts; a mention in a comment or a type does not.
 */
import t from 'tap';
import { scratchSourceTree, sourcesUnder } from '../../helpers/sources.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Source folders of the service, relative to the repository root. */
const SOURCE_DIRS = ['core/src', 'gateway/src', 'workers/src', 'main'];
/** The one folder that builds reading models. */
const MODEL_DIR = 'core/src/ooxml/pml';
const CLASS = 'PmlModel';

const posix = (path: string): string => path.split(sep).join('/');

/** Line numbers (1-based) of each construction of the reading model in `source`. */
function constructionsIn(file: string, source: string): number[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  // names the class goes by in this file: its own and its import aliases
  const names = new Set([CLASS]);
  for (const stmt of sf.statements) {
    const bindings = ts.isImportDeclaration(stmt) ? stmt.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const el of bindings.elements) if ((el.propertyName ?? el.name).text === CLASS) names.add(el.name.text);
    }
  }
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) {
      const callee = node.expression;
      // `new PmlModel(…)`, `new Alias(…)`, or `new ns.PmlModel(…)` through a namespace import
      const hit = (ts.isIdentifier(callee) && names.has(callee.text)) || (ts.isPropertyAccessExpression(callee) && callee.name.text === CLASS);
      if (hit) lines.push(sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return lines;
}

/** `path:line` of each reading model built outside {@link MODEL_DIR} in the sources under `root`. */
function constructionsOutside(root: string): string[] {
  const found: string[] = [];
  for (const dir of SOURCE_DIRS) {
    if (!existsSync(join(root, dir))) continue;
    for (const file of sourcesUnder(join(root, dir))) {
      const path = posix(relative(root, file));
      if (path.startsWith(`${MODEL_DIR}/`)) continue;
      for (const line of constructionsIn(path, readFileSync(file, 'utf8'))) found.push(`${path}:${line}`);
    }
  }
  return found.sort();
}

t.test('no source outside ooxml/pml builds a reading model of its own', async (t) => {
  t.same(constructionsOutside(repoRoot), [], `PmlModel is constructed only under ${MODEL_DIR}/ (read it with openedTemplates.modelOf(pkg))`);
});

t.test('the registry is where the model is built', async (t) => {
  const registry = join(repoRoot, MODEL_DIR, 'opened-templates.ts');
  t.ok(constructionsIn(registry, readFileSync(registry, 'utf8')).length > 0, 'the check sees the construction the registry makes');
});

t.test('the check finds each way of building the model, and nothing else', async (t) => {
  const { root, write } = scratchSourceTree(t, 'one-reading-model');
  write(`${MODEL_DIR}/opened-templates.ts`, "import { PmlModel } from './parts.js';\nexport const m = (p: never) => new PmlModel(p);\n");
  write('core/src/quality/a.ts', "import { PmlModel } from '../ooxml/pml/parts.js';\nconst x = 1;\nexport const m = (p: never) => new PmlModel(p);\n");
  write('core/src/render/b.ts', "import { PmlModel as Model } from '../ooxml/pml/parts.js';\nexport const m = (p: never) => new Model(p);\n");
  write('workers/src/c.ts', "import * as pml from '../../core/src/ooxml/pml/parts.js';\nexport const m = (p: never) => new pml.PmlModel(p);\n");
  // a type, a comment and another class are not constructions
  write('core/src/d.ts', "import type { PmlModel } from './ooxml/pml/parts.js';\n// new PmlModel(pkg)\nexport let m: PmlModel | undefined;\nexport const s = new Set<PmlModel>();\n");
  t.same(constructionsOutside(root), ['core/src/quality/a.ts:3', 'core/src/render/b.ts:2', 'workers/src/c.ts:2']);
});
