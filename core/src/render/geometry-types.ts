/** Shapes of the preset geometry data (generated from ECMA-376 Part 1 Annex D). */

/** A path command: `['M', x, y]`, `['L', x, y]`, `['C', x1, y1, x2, y2, x, y]`, `['Q', x1, y1, x, y]`, `['A', wR, hR, stAng, swAng]`, `['Z']`; operands are guide names or numbers as strings. */
export type PathCommand = ReadonlyArray<string>;

/** One path of a geometry (§20.1.9.15 `a:path`). */
export interface GeometryPath {
  c: ReadonlyArray<PathCommand>;
  /** Path coordinate space (`w`, `h`); absent = shape coordinates (EMU). */
  w?: number;
  h?: number;
  /** `fill` mode (ST_PathFillMode): none, norm, lighten, lightenLess, darken, darkenLess. */
  f?: string;
  /** False when the path is not stroked. */
  s?: boolean;
}

/** One preset (or custom) geometry. */
export interface GeometryDef {
  /** Adjust values: `[name, formula]`. */
  av: ReadonlyArray<ReadonlyArray<string>>;
  /** Guides: `[name, formula]`. */
  gd: ReadonlyArray<ReadonlyArray<string>>;
  p: ReadonlyArray<GeometryPath>;
  /** Text rectangle guide names `[l, t, r, b]`. */
  r?: ReadonlyArray<string | null>;
}

export type PresetTable = Readonly<Record<string, GeometryDef>>;

/** A 2D affine transform: x' = a·x + c·y + e, y' = b·x + d·y + f (the fields of DOMMatrix). */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}
