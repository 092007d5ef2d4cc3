/**
 * Effects of DrawingML effect lists (ECMA-376 Part 1 §20.1.8) that previews draw.
 */
import { NS, attr, child, intAttr, type Element } from '../xml.js';
import { EMU_PER_PT, type TextShadow } from '../../text/layout.js';
import { colorIn, type ColorContext } from './color.js';

/**
 * The outer shadow (§20.1.8.49 `a:outerShdw`) of an effect list (`a:effectLst`, a shape's or
 * a run's): offset from `dist` and `dir`, blur from `blurRad`, scale `sx`/`sy` about `algn`
 * (default b); undefined without one or when its colour is transparent.
 */
export function readOuterShadow(list: Element | undefined, colors: ColorContext): TextShadow | undefined {
  const sh = child(list, NS.a, 'outerShdw');
  if (!sh) return undefined;
  const color = colorIn(sh, colors);
  if (!color || color.a <= 0) return undefined;
  const dist = intAttr(sh, 'dist', 0) / EMU_PER_PT;
  const dir = ((intAttr(sh, 'dir', 0) / 60000) * Math.PI) / 180;
  return {
    color,
    dxPt: dist * Math.cos(dir),
    dyPt: dist * Math.sin(dir),
    blurPt: intAttr(sh, 'blurRad', 0) / EMU_PER_PT,
    sx: intAttr(sh, 'sx', 100000) / 100000,
    sy: intAttr(sh, 'sy', 100000) / 100000,
    align: attr(sh, 'algn') ?? 'b',
  };
}
