/**
 * The string value forms of ISO/IEC 29500 (ECMA-376 Part 1 §22.9.2: `s:ST_Percentage`,
 * `s:ST_UniversalMeasure`; xsd:boolean and `s:ST_OnOff`) in the integer forms the engine
 * reads, and the schema-derived table of the attributes that take them.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  VALUE_FORM_ATTRIBUTES, canonicalBoolean, convertValueForm, measureToCentipoints, measureToEmu, percentToThousandths, percentToWhole,
} from '../../../core/src/ooxml/value-forms.js';
import { repoRoot, sharedDir, strictTests } from '../../helpers/corpus.js';

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

t.test('percentages in thousandths of a percent (pct1000)', async (t) => {
  const cases: Array<[string, string | undefined]> = [
    ['90%', '90000'],
    ['94.66%', '94660'],
    ['15.62%', '15620'],
    ['0%', '0'],
    ['100%', '100000'],
    ['800%', '800000'],
    ['-12.5%', '-12500'],
    ['-0%', '0'], // never "-0"
    ['-0.0001%', '0'],
    ['0.0005%', '1'], // half away from zero
    ['-0.0005%', '-1'],
    ['0.00049%', '0'],
    ['33.3333%', '33333'],
    ['1.0005%', '1001'], // exact decimal arithmetic (1.0005 * 1000 is 1000.4999… in binary floating point)
    ['007%', '7000'],
    [' 50% ', '50000'],
    ['12345678901234567890%', '12345678901234567890000'],
    ['90000', undefined],
    ['90', undefined],
    ['%', undefined],
    ['1.%', undefined],
    ['.5%', undefined],
    ['+5%', undefined],
    ['5 %', undefined],
    ['1e3%', undefined],
    ['50pct', undefined],
    ['', undefined],
  ];
  for (const [input, expected] of cases) t.equal(percentToThousandths(input), expected, JSON.stringify(input));
});

t.test('percentages in whole percent (pct1, the chart types)', async (t) => {
  t.equal(percentToWhole('150%'), '150');
  t.equal(percentToWhole('0%'), '0');
  t.equal(percentToWhole('-100%'), '-100');
  t.equal(percentToWhole('12.5%'), '13');
  t.equal(percentToWhole('-12.5%'), '-13');
  t.equal(percentToWhole('12.49%'), '12');
  t.equal(percentToWhole('150'), undefined);
});

t.test('universal measures in EMU, every unit', async (t) => {
  const cases: Array<[string, string | undefined]> = [
    ['1in', '914400'],
    ['1cm', '360000'],
    ['1mm', '36000'],
    ['1pt', '12700'],
    ['1pc', '152400'],
    ['1pi', '152400'],
    ['2.54cm', '914400'],
    ['25.4mm', '914400'],
    ['72pt', '914400'],
    ['6pc', '914400'],
    ['6pi', '914400'],
    ['0.5in', '457200'],
    ['-1in', '-914400'],
    ['-2.5mm', '-90000'],
    ['10mm', '360000'],
    ['12pt', '152400'],
    ['0.00001mm', '0'], // 0.36 EMU
    ['0.00002mm', '1'], // 0.72 EMU
    ['-0.00001mm', '0'],
    ['1.5in', '1371600'],
    ['0in', '0'],
    [' 3cm ', '1080000'],
    ['1', undefined],
    ['914400', undefined],
    ['1 in', undefined],
    ['1IN', undefined],
    ['1px', undefined],
    ['1em', undefined],
    ['in', undefined],
    ['.5in', undefined],
    ['1.in', undefined],
  ];
  for (const [input, expected] of cases) t.equal(measureToEmu(input), expected, JSON.stringify(input));
});

t.test('universal measures in hundredths of a point (cpt, ST_TextPoint)', async (t) => {
  t.equal(measureToCentipoints('12pt'), '1200');
  t.equal(measureToCentipoints('1.5pt'), '150');
  t.equal(measureToCentipoints('-3pt'), '-300');
  t.equal(measureToCentipoints('1in'), '7200');
  t.equal(measureToCentipoints('1pc'), '1200');
  t.equal(measureToCentipoints('1pi'), '1200');
  t.equal(measureToCentipoints('2.54cm'), '7200');
  t.equal(measureToCentipoints('1cm'), '2835'); // 28.3465 pt
  t.equal(measureToCentipoints('1mm'), '283'); // 2.83465 pt
  t.equal(measureToCentipoints('25.4mm'), '7200');
  t.equal(measureToCentipoints('0.001pt'), '0');
  t.equal(measureToCentipoints('0.005pt'), '1');
  t.equal(measureToCentipoints('1200'), undefined);
});

t.test('booleans as 1 and 0', async (t) => {
  t.equal(canonicalBoolean('true'), '1');
  t.equal(canonicalBoolean('false'), '0');
  t.equal(canonicalBoolean('on'), '1');
  t.equal(canonicalBoolean('off'), '0');
  t.equal(canonicalBoolean(' true '), '1');
  t.equal(canonicalBoolean('1'), undefined, 'already in the read form');
  t.equal(canonicalBoolean('0'), undefined);
  t.equal(canonicalBoolean('True'), undefined, 'xsd:boolean is case-sensitive');
  t.equal(canonicalBoolean('yes'), undefined);
});

t.test('convertValueForm dispatches by conversion', async (t) => {
  t.equal(convertValueForm('pct1000', '90%'), '90000');
  t.equal(convertValueForm('pct1', '90%'), '90');
  t.equal(convertValueForm('emu', '1in'), '914400');
  t.equal(convertValueForm('cpt', '1in'), '7200');
  t.equal(convertValueForm('bool', 'false'), '0');
  t.equal(convertValueForm('emu', '90%'), undefined, 'a percentage is not a measure');
  t.equal(convertValueForm('pct1000', '1in'), undefined, 'a measure is not a percentage');
});

t.test('the schema-derived table', async (t) => {
  const form = (ns: string, el: string, at: string): string | undefined => VALUE_FORM_ATTRIBUTES[ns]?.[el]?.[at];
  // percentages of DrawingML (ST_Percentage family) and PresentationML
  t.equal(form(A, 'spcPct', 'val'), 'pct1000', 'a:spcPct/@val (ST_TextSpacingPercentOrPercentString)');
  t.equal(form(A, 'tint', 'val'), 'pct1000');
  t.equal(form(A, 'lumMod', 'val'), 'pct1000');
  t.equal(form(A, 'alpha', 'val'), 'pct1000');
  t.equal(form(A, 'gs', 'pos'), 'pct1000');
  t.equal(form(A, 'miter', 'lim'), 'pct1000');
  t.equal(form(A, 'normAutofit', 'fontScale'), 'pct1000');
  t.equal(form(A, 'srcRect', 'l'), 'pct1000');
  t.equal(form(A, 'rPr', 'baseline'), 'pct1000');
  t.equal(form(A, 'buSzPct', 'val'), 'pct1000', 'a:buSzPct/@val read as ST_TextBulletSize (the XSD referee patches it the same way)');
  t.equal(form(P, 'restoredTop', 'sz'), 'pct1000');
  // chart percentages count whole percent
  t.equal(form(C, 'gapWidth', 'val'), 'pct1');
  t.equal(form(C, 'overlap', 'val'), 'pct1');
  t.equal(form(C, 'holeSize', 'val'), 'pct1');
  // coordinates and text points
  t.equal(form(A, 'off', 'x'), 'emu', 'a:off/@x (ST_Coordinate)');
  t.equal(form(A, 'chOff', 'y'), 'emu');
  t.equal(form(A, 'bodyPr', 'lIns'), 'emu', 'a:bodyPr/@lIns (ST_Coordinate32)');
  t.equal(form(A, 'tcPr', 'marL'), 'emu');
  t.equal(form(A, 'gridCol', 'w'), 'emu');
  t.equal(form(A, 'rPr', 'spc'), 'cpt', 'a:rPr/@spc (ST_TextPoint)');
  // booleans
  t.equal(form(A, 'xfrm', 'flipH'), 'bool');
  t.equal(form(P, 'sld', 'show'), 'bool');
  // what the schemas do not allow a string form for stays out
  t.equal(form(A, 'ext', 'cx'), undefined, 'a:ext/@cx is ST_PositiveCoordinate, an xsd:long only');
  t.equal(form(A, 'rPr', 'sz'), undefined, 'a:rPr/@sz is ST_TextFontSize, an int only');
  t.equal(form(A, 'pPr', 'marL'), undefined, 'a:pPr/@marL is ST_TextMargin, an int only');
  t.equal(form(C, 'numFmt', 'formatCode'), undefined, 'c:numFmt/@formatCode is free text ("0%")');
  t.equal(form(A, 'tcTxStyle', 'b'), undefined, 'a:tcTxStyle/@b is ST_OnOffStyleType (on/off/def), not a boolean');
  t.equal(form(P, 'presentation', 'conformance'), undefined);
});

const xsdDir = join(sharedDir, 'tools', 'ooxml-xsd', 'transitional');
t.test('the checked-in table is what scripts/gen-value-forms.ts makes from the schemas', { skip: existsSync(xsdDir) || strictTests ? false : `the schemas are not in ${xsdDir}` }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sw-value-forms-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'value-forms-data.ts');
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'gen-value-forms.ts'), xsdDir, out], { encoding: 'utf8', cwd: repoRoot });
  t.equal(r.status, 0, r.stderr);
  t.equal(readFileSync(out, 'utf8'), readFileSync(join(repoRoot, 'core', 'src', 'ooxml', 'value-forms-data.ts'), 'utf8'), 'regenerated table is identical');
});
