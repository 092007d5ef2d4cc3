/**
 * State you can see (issue 19, item 3): what a module keeps between calls is listed here,
 * each entry with the kind of state it is and why it may live at module level; facts about
 * one opened package live in the per-thread registry (`ooxml/pml/opened-templates.ts`:
 * `openedTemplates.factsOf(pkg).of(kind)`), never in a module's own map keyed by the package
 * or its reading model.
 *
 * Read with TypeScript's parser from every service source (core, gateway, workers, the
 * process entry points and the CLI), top-level bindings only:
 * - a `let` (a value the module reassigns), a `new …` (a map, set, memo or any object
 *   made at load) and an empty array literal are state and must be listed, unless
 * - they are constant tables: an UPPER_CASE `ReadonlySet`, `ReadonlyMap` or read-only array made at load.
 * - A map or weak map whose key type is the package (`OpcPackage`), its reading model
 *   (`PmlModel`) or its facts is an offence even when listed: it belongs in the registry.
 * - A listed entry no longer in the sources fails too, so the list stays the truth.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { scratchSourceTree, sourcesUnder } from '../../helpers/sources.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The service's source folders, relative to the repository root. */
const SOURCE_DIRS = ['core/src', 'gateway/src', 'workers/src', 'main', 'cli/src'];

/** Kinds of module-level state that are allowed, and why. */
const KINDS = {
  registry: 'the per-thread registry of opened templates itself',
  'process-wide': 'made once per process from shipped data or configuration (schemas, fonts, metrics, codecs); the same for every request',
  'lives with its key': 'a weak map keyed by an object (an element, a buffer, a theme, an image): an entry goes when its key does',
  bounded: 'a memo of a pure function of strings, with a fixed bound on its entries',
  'lazy handle': 'a library or parsed constant loaded on first use, then fixed',
  scratch: 'reused working storage or a counter of the module; holds nothing of a request after the call',
  descriptor: 'an immutable description (a marker kind, a fact kind) that holds no data itself',
  'live objects': 'the running servers a process holds, added and removed as they start and close',
  constant: 'a value that cannot change (a zero-length buffer)',
} as const;

type Kind = keyof typeof KINDS;

/** Every piece of module-level state in the service, `file#name` → its kind. */
const INVENTORY: Record<string, Kind> = {
  'core/src/ooxml/pml/opened-templates.ts#openedTemplates': 'registry',

  'core/src/grpc/messages.ts#registry': 'process-wide',
  'core/src/observability/metrics.ts#registry': 'process-wide',
  'core/src/observability/metrics.ts#httpDuration': 'process-wide',
  'core/src/observability/metrics.ts#rpcDuration': 'process-wide',
  'core/src/observability/metrics.ts#jobDuration': 'process-wide',
  'core/src/observability/metrics.ts#jobsTotal': 'process-wide',
  'core/src/text/font-metrics.ts#faces': 'process-wide',
  'core/src/text/font-metrics.ts#defaultFontMetrics': 'process-wide',
  'core/src/text/fit-metrics.ts#fitMetrics': 'process-wide',
  'core/src/render/fonts.ts#registered': 'process-wide',
  'core/src/render/fonts.ts#cjkRegistered': 'process-wide',
  'core/src/validation/index.ts#ajv': 'process-wide',
  'core/src/validation/index.ts#validators': 'process-wide',
  'core/src/validation/index.ts#routeIndex': 'process-wide',
  'core/src/render/pdf-merge.ts#CLASS': 'process-wide',

  'core/src/generation/deck/slide-quality.ts#inheritedFrames': 'lives with its key',
  'core/src/generation/draft/clone.ts#childrenStubs': 'lives with its key',
  'core/src/generation/draft/serialize.ts#stubText': 'lives with its key',
  'core/src/generation/draft/serialize.ts#childrenText': 'lives with its key',
  'core/src/generation/draft/serialize.ts#cellFrames': 'lives with its key',
  'core/src/ooxml/opc/zip-codec.ts#deflatedOf': 'lives with its key',
  'core/src/ooxml/pml/text-style.ts#sharedStyles': 'lives with its key',
  'core/src/ooxml/pml/text-style.ts#identities': 'lives with its key',
  'core/src/quality/brand.ts#themeBrands': 'lives with its key',
  'core/src/quality/package.ts#resolvedRelationships': 'lives with its key',
  'core/src/quality/package.ts#relsTextByBytes': 'lives with its key',
  'core/src/quality/package.ts#xmlPartFactsByBytes': 'lives with its key',
  'core/src/quality/package.ts#factsOfRepeated': 'lives with its key',
  'core/src/quality/package.ts#slideNeedles': 'lives with its key',
  'core/src/render/draw-context.ts#TILED': 'lives with its key',
  'core/src/render/draw-context.ts#RASTERS': 'lives with its key',
  'core/src/render/draw-context.ts#RECOLORED': 'lives with its key',
  'core/src/text/layout.ts#cjkFaces': 'lives with its key',
  'core/src/text/layout.ts#complexFaces': 'lives with its key',
  'gateway/src/app.ts#propertyLists': 'lives with its key',

  'core/src/generation/draft/serialize.ts#prefixes': 'bounded',
  'core/src/generation/draft/serialize.ts#endTags': 'bounded',
  'core/src/ooxml/opc/part-names.ts#relativeTargets': 'bounded',
  'core/src/ooxml/xml.ts#xmldomExpressions': 'bounded',
  'core/src/quality/package.ts#relationshipsByText': 'bounded',
  'core/src/quality/package.ts#needles': 'bounded',
  'core/src/quality/package.ts#slideHeads': 'bounded',
  'core/src/quality/package.ts#keptPieces': 'bounded',
  'core/src/matching/rank.ts#fontRatios': 'bounded',
  'core/src/text/shaping.ts#cache': 'bounded',
  'core/src/text/layout.ts#glyphCoverage': 'bounded',
  'core/src/render/metafile/player.ts#DECODERS': 'bounded',

  'core/src/generation/charts/workbook.ts#excelJs': 'lazy handle',
  'core/src/generation/fit/table-fit.ts#boldLst': 'lazy handle',
  'core/src/render/table.ts#builtIn': 'lazy handle',
  'core/src/text/bidi.ts#bidi': 'lazy handle',
  'core/src/text/shaping.ts#ctx': 'lazy handle',

  'core/src/domain/ids.ts#randomAt': 'scratch',
  'core/src/ooxml/pml/text-style.ts#nextIdentity': 'scratch',
  'core/src/text/layout.ts#recentBodies': 'scratch',
  'core/src/text/layout.ts#recentSplits': 'scratch',
  'core/src/text/layout.ts#recentNext': 'scratch',
  'core/src/text/layout.ts#freeScratch': 'scratch',
  'core/src/render/canvas-pool.ts#free': 'scratch',
  'core/src/render/png.ts#spare': 'scratch',

  'core/src/ooxml/opc/package.ts#EMPTY': 'constant',

  'core/src/generation/draft/deferred-paragraphs.ts#paragraphMarkers': 'descriptor',
  'core/src/generation/draft/deferred-rows.ts#rowMarkers': 'descriptor',
  'core/src/ooxml/repair.ts#REPAIR_STATE': 'descriptor',
  'core/src/quality/accessibility.ts#THEME_FORMAT_STYLES': 'descriptor',
  'core/src/render/draw-context.ts#DECODED_PICTURES': 'descriptor',

  'gateway/src/app.ts#liveGuards': 'live objects',
};

/** Key types that mark per-package state, which belongs in the registry. */
const PACKAGE_KEYS = /^(?:Weak)?Map<\s*(?:OpcPackage|PmlModel|PackageFacts)\b/;

/** Declared types of UPPER_CASE constant tables (sets, maps, arrays that cannot be changed through the binding). */
const TABLE_TYPES = /^(?:Readonly(?:Set|Map|Array)<|readonly )/;

interface ModuleState {
  /** `file#name`, the file relative to the scanned root. */
  id: string;
  /** The declared type's text, '' when none is written. */
  type: string;
  /** The initializer's constructor (`Map`, `WeakMap`, …), `let`, or `[]`. */
  made: string;
}

/** Every top-level binding of the sources under `root`'s {@link SOURCE_DIRS} that holds state, constant tables left out. */
function moduleState(root: string): ModuleState[] {
  const found: ModuleState[] = [];
  for (const dir of SOURCE_DIRS) {
    let files: string[];
    try {
      files = sourcesUnder(join(root, dir));
    } catch {
      continue; // a folder the made-up trees of the self-test do not have
    }
    for (const file of files) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const rel = relative(root, file).split(sep).join('/');
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        const isLet = (statement.declarationList.flags & ts.NodeFlags.Let) !== 0;
        for (const d of statement.declarationList.declarations) {
          const name = d.name.getText(source);
          const type = d.type?.getText(source) ?? '';
          const init = d.initializer;
          let made: string | undefined;
          if (isLet) made = 'let';
          else if (init && ts.isNewExpression(init)) made = init.expression.getText(source);
          else if (init && ts.isArrayLiteralExpression(init) && init.elements.length === 0) made = '[]';
          if (!made) continue;
          if (made === 'RegExp' || made === 'TextEncoder' || made === 'TextDecoder') continue; // no state a caller can change
          const genericType = type || (init && ts.isNewExpression(init) && init.typeArguments ? `${made}<${init.typeArguments.map((a) => a.getText(source)).join(', ')}>` : '');
          if (made !== 'let' && /^[A-Z][A-Z0-9_]*$/.test(name) && TABLE_TYPES.test(type) && (made === 'Set' || made === 'Map' || made === '[]')) continue;
          found.push({ id: `${rel}#${name}`, type: genericType, made });
        }
      }
    }
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The offences of the state under `root` against `inventory`: unlisted state, per-package maps, stale entries. */
function offences(root: string, inventory: Record<string, Kind>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of moduleState(root)) {
    seen.add(s.id);
    if (PACKAGE_KEYS.test(s.type)) out.push(`${s.id}: per-package state (${s.type}) belongs in the registry (a FactKind)`);
    else if (!(s.id in inventory)) out.push(`${s.id}: module-level state (${s.made}) not in the inventory`);
  }
  for (const id of Object.keys(inventory)) if (!seen.has(id)) out.push(`${id}: listed but not found`);
  return out;
}

t.test('every piece of module-level state is listed with its kind, and none is per-package', async (t) => {
  t.same(offences(repoRoot, INVENTORY), [], 'the sources hold the inventory\'s state and no other');
  for (const kind of new Set(Object.values(INVENTORY))) t.ok(KINDS[kind], `kind "${kind}" is explained`);
});

t.test('the check finds unlisted state, per-package maps and stale entries, and passes constant tables', async (t) => {
  const { root, write } = scratchSourceTree(t, 'module-state');
  write(
    'core/src/a.ts',
    [
      "const TABLE: ReadonlySet<string> = new Set(['x']);",
      "const LOOSE = new Set(['x']);",
      'let counter = 0;',
      'const memo = new Map<string, number>();',
      'const byPackage = new WeakMap<OpcPackage, string[]>();',
      'const models: WeakMap<PmlModel, number> = new WeakMap();',
      'const listed = new WeakMap<object, number>();',
      'const kept: string[] = [];',
      'const NONE: readonly string[] = [];',
      'const re = new RegExp("a");',
      'function f() { const inner = new Map(); let x = 1; return [inner, x]; }',
      'export const exported = new Map<string, string>();',
    ].join('\n'),
  );
  t.same(offences(root, { 'core/src/a.ts#listed': 'lives with its key', 'core/src/gone.ts#old': 'bounded' }), [
    'core/src/a.ts#LOOSE: module-level state (Set) not in the inventory',
    'core/src/a.ts#byPackage: per-package state (WeakMap<OpcPackage, string[]>) belongs in the registry (a FactKind)',
    'core/src/a.ts#counter: module-level state (let) not in the inventory',
    'core/src/a.ts#exported: module-level state (Map) not in the inventory',
    'core/src/a.ts#kept: module-level state ([]) not in the inventory',
    'core/src/a.ts#memo: module-level state (Map) not in the inventory',
    'core/src/a.ts#models: per-package state (WeakMap<PmlModel, number>) belongs in the registry (a FactKind)',
    'core/src/gone.ts#old: listed but not found',
  ]);
});
