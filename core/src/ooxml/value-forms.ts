/**
 * The string forms of numbers and booleans that ISO/IEC 29500 admits beside the integer
 * forms the engine reads, and their conversion.
 *
 * ISO/IEC 29500-1 Strict writes DrawingML percentages as strings (`s:ST_Percentage` and
 * its restrictions, Part 1 §22.9.2.3, §22.9.2.9–§22.9.2.11: `"90%"`, `"-12.5%"`) where
 * ECMA-376 1st edition, and Office writing Transitional, write integers in thousandths of
 * a percent (`90000`); both classes admit universal measures (`s:ST_UniversalMeasure`,
 * §22.9.2.15: `"1in"`, `"2.54cm"`, `"12pt"`) for coordinates (EMU) and text points
 * (hundredths of a point). ISO/IEC 29500-4 Transitional admits every one of these forms
 * too (its types are unions of the integer and the string member), so a package of either
 * class may hold them. Which attribute takes which conversion is derived from the schemas
 * by `scripts/gen-value-forms.ts` ({@link VALUE_FORM_ATTRIBUTES}).
 *
 * Every conversion is exact decimal arithmetic (BigInt), rounded half away from zero.
 */
export { VALUE_FORM_ATTRIBUTES } from './value-forms-data.js';

/**
 * The conversion an attribute takes:
 * - `pct1000`: `"n%"` → thousandths of a percent (`"94.66%"` → `94660`), DrawingML and
 *   PresentationML percentages (ST_Percentage and its restrictions, §20.1.10);
 * - `pct1`: `"n%"` → whole percent (`"150%"` → `150`), the chart types of §21.2.3
 *   (ST_GapAmount, ST_Overlap, ST_HoleSize, …);
 * - `emu`: universal measure → EMU (ST_Coordinate, ST_Coordinate32, §20.1.10);
 * - `cpt`: universal measure → hundredths of a point (ST_TextPoint, §21.1.10);
 * - `bool`: `true`/`on` → `1`, `false`/`off` → `0` (xsd:boolean, s:ST_OnOff §22.9.2.7).
 */
export type ValueForm = 'pct1000' | 'pct1' | 'emu' | 'cpt' | 'bool';

/** Namespace URI → element local name → (unqualified) attribute name → conversion. */
export type ValueFormTable = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, ValueForm>>>>>>;

const PERCENT = /^\s*(-?)([0-9]+)(?:\.([0-9]+))?%\s*$/;
const MEASURE = /^\s*(-?)([0-9]+)(?:\.([0-9]+))?(mm|cm|in|pt|pc|pi)\s*$/;

/** Units of ST_UniversalMeasure as a fraction (numerator, denominator) of an EMU count. */
const EMU_PER: Readonly<Record<string, readonly [bigint, bigint]>> = {
  in: [914400n, 1n],
  cm: [360000n, 1n],
  mm: [36000n, 1n],
  pt: [12700n, 1n],
  // pica: 12 points; `pi` is the same unit (ECMA-376 Part 1, §22.9.2.15)
  pc: [152400n, 1n],
  pi: [152400n, 1n],
};

/** Units of ST_UniversalMeasure in hundredths of a point (1 in = 72 pt, 1 in = 2.54 cm). */
const CENTIPOINTS_PER: Readonly<Record<string, readonly [bigint, bigint]>> = {
  in: [7200n, 1n],
  cm: [720000n, 254n],
  mm: [72000n, 254n],
  pt: [100n, 1n],
  pc: [1200n, 1n],
  pi: [1200n, 1n],
};

/** sign · int.frac · num / den, rounded half away from zero, as an integer string. */
function scaled(sign: string, int: string, frac: string | undefined, num: bigint, den: bigint): string {
  const digits = frac ?? '';
  const value = BigInt(int + digits) * num;
  const divisor = 10n ** BigInt(digits.length) * den;
  let q = value / divisor;
  if ((value % divisor) * 2n >= divisor) q += 1n;
  return q === 0n || sign !== '-' ? q.toString() : `-${q.toString()}`;
}

/**
 * A percentage string (`s:ST_Percentage`, ECMA-376 Part 1 §22.9.2.9: `-?[0-9]+(\.[0-9]+)?%`)
 * in thousandths of a percent: `"90%"` → `"90000"`, `"-12.3456%"` → `"-12346"`.
 * @returns undefined when `value` is not in that form
 */
export function percentToThousandths(value: string): string | undefined {
  const m = PERCENT.exec(value);
  return m ? scaled(m[1]!, m[2]!, m[3], 1000n, 1n) : undefined;
}

/**
 * A percentage string in whole percent, as the chart types of ECMA-376 Part 1 §21.2.3
 * count (`c:gapWidth val="150%"` → `"150"`).
 * @returns undefined when `value` is not in that form
 */
export function percentToWhole(value: string): string | undefined {
  const m = PERCENT.exec(value);
  return m ? scaled(m[1]!, m[2]!, m[3], 1n, 1n) : undefined;
}

/**
 * A universal measure (`s:ST_UniversalMeasure`, ECMA-376 Part 1 §22.9.2.15:
 * `-?[0-9]+(\.[0-9]+)?(mm|cm|in|pt|pc|pi)`) in EMU (914400 per inch, 360000 per
 * centimetre, 12700 per point, 152400 per pica): `"1in"` → `"914400"`, `"-2.5mm"` → `"-90000"`.
 * @returns undefined when `value` is not in that form
 */
export function measureToEmu(value: string): string | undefined {
  const m = MEASURE.exec(value);
  if (!m) return undefined;
  const [num, den] = EMU_PER[m[4]!]!;
  return scaled(m[1]!, m[2]!, m[3], num, den);
}

/**
 * A universal measure in hundredths of a point (ST_TextPoint, ECMA-376 Part 1 §21.1.10):
 * `"12pt"` → `"1200"`, `"1cm"` → `"2835"` (28.3465 pt).
 * @returns undefined when `value` is not in that form
 */
export function measureToCentipoints(value: string): string | undefined {
  const m = MEASURE.exec(value);
  if (!m) return undefined;
  const [num, den] = CENTIPOINTS_PER[m[4]!]!;
  return scaled(m[1]!, m[2]!, m[3], num, den);
}

/**
 * A boolean in the form `1`/`0`: xsd:boolean's `true`/`false` and Transitional
 * `s:ST_OnOff`'s `on`/`off` (ECMA-376 Part 1 §22.9.2.7).
 * @returns undefined for any other value (including `1` and `0`, already in that form)
 */
export function canonicalBoolean(value: string): string | undefined {
  switch (value.trim()) {
    case 'true':
    case 'on':
      return '1';
    case 'false':
    case 'off':
      return '0';
    default:
      return undefined;
  }
}

/**
 * The integer (or `1`/`0`) form of `value` for an attribute of conversion `form`.
 * @returns undefined when `value` is not a string form of that conversion (an integer
 *   already, or something else left for the reader to judge)
 */
export function convertValueForm(form: ValueForm, value: string): string | undefined {
  switch (form) {
    case 'pct1000':
      return percentToThousandths(value);
    case 'pct1':
      return percentToWhole(value);
    case 'emu':
      return measureToEmu(value);
    case 'cpt':
      return measureToCentipoints(value);
    case 'bool':
      return canonicalBoolean(value);
  }
}
