/**
 * WMF playback ([MS-WMF] §2.3 records; sizes in 16-bit words, parameters often in reverse
 * order). The picture is the placeable header's bounding box when there is one, else the
 * file's first window (SetWindowOrg/SetWindowExt): later window changes map relative to it.
 */
import { decodeDib } from './dib.js';
import { Player, decodeText, type GdiObject } from './player.js';
import { MAX_OBJECTS, MAX_RECORDS, colorRef } from './emf.js';

/** Where the records start and the picture's rectangle in logical units. */
export interface WmfHeader {
  recordsAt: number;
  frame: { x: number; y: number; w: number; h: number };
  objects: number;
}

/** Reads the (placeable) header and finds the picture's rectangle; undefined when there is none. */
export function readWmfHeader(b: Uint8Array): WmfHeader | undefined {
  if (b.length < 18) return undefined;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 0;
  let frame: WmfHeader['frame'] | undefined;
  if (dv.getUint32(0, true) === 0x9ac6cdd7) {
    if (b.length < 40) return undefined;
    const l = dv.getInt16(6, true), t = dv.getInt16(8, true), r = dv.getInt16(10, true), bo = dv.getInt16(12, true);
    if (r !== l && bo !== t) frame = { x: Math.min(l, r), y: Math.min(t, bo), w: Math.abs(r - l), h: Math.abs(bo - t) };
    at = 22;
  }
  const type = dv.getUint16(at, true), headerWords = dv.getUint16(at + 2, true);
  if ((type !== 1 && type !== 2) || headerWords !== 9) return undefined;
  const objects = Math.min(dv.getUint16(at + 10, true), MAX_OBJECTS);
  const recordsAt = at + 18;
  if (!frame) {
    // The first window, from the records.
    let org: [number, number] | undefined, ext: [number, number] | undefined;
    let off = recordsAt;
    for (let n = 0; n < MAX_RECORDS && off + 6 <= b.length && !(org && ext); n++) {
      const words = dv.getUint32(off, true), fn = dv.getUint16(off + 4, true);
      if (words < 3 || off + words * 2 > b.length || fn === 0) break;
      if (fn === 0x020b && words >= 5) org ??= [dv.getInt16(off + 8, true), dv.getInt16(off + 6, true)];
      if (fn === 0x020c && words >= 5) ext ??= [dv.getInt16(off + 8, true), dv.getInt16(off + 6, true)];
      off += words * 2;
    }
    if (!ext || !ext[0] || !ext[1]) return undefined;
    const o = org ?? [0, 0];
    frame = { x: Math.min(o[0], o[0] + ext[0]), y: Math.min(o[1], o[1] + ext[1]), w: Math.abs(ext[0]), h: Math.abs(ext[1]) };
  }
  return { recordsAt, frame, objects };
}

/** Plays a WMF onto `p`, whose `device` maps the header's frame (logical units of the first window) to the destination. */
export function playWmf(b: Uint8Array, p: Player, h: WmfHeader): void {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const table: (GdiObject | undefined)[] = [];
  const add = (o: GdiObject): void => {
    let i = table.indexOf(undefined);
    if (i < 0) i = table.length;
    if (i < Math.max(h.objects, 1) + 1024 && i < MAX_OBJECTS) table[i] = o;
  };
  // Until the file sets a viewport, its window maps onto the picture's frame.
  p.reference = { org: { x: h.frame.x, y: h.frame.y }, ext: { x: h.frame.w, y: h.frame.h } };
  p.st.winOrg = { x: h.frame.x, y: h.frame.y };
  p.st.winExt = { x: h.frame.w, y: h.frame.h };
  p.touch();
  const s16 = (o: number): number => dv.getInt16(o, true);
  const u16 = (o: number): number => dv.getUint16(o, true);
  let off = h.recordsAt;
  for (let n = 0; n < MAX_RECORDS && off + 6 <= b.length; n++) {
    const words = dv.getUint32(off, true);
    const fn = u16(off + 4);
    if (words < 3 || off + words * 2 > b.length) return;
    const r = off;
    const end = off + words * 2;
    off = end;
    const has = (o: number, len: number): boolean => o >= 0 && len >= 0 && r + o + len <= end;
    /** Points as (x, y) pairs of 16-bit values. */
    const points = (at: number, count: number): Int16Array | undefined => {
      if (count < 0 || !has(at, count * 4)) return undefined;
      const out = new Int16Array(count * 2);
      for (let i = 0; i < count * 2; i++) out[i] = s16(r + at + i * 2);
      return out;
    };
    /** The four 16-bit values bottom, right, top, left from `at` (as l, t, r, b). */
    const box = (at: number): [number, number, number, number] => [s16(r + at + 6), s16(r + at + 4), s16(r + at + 2), s16(r + at)];
    switch (fn) {
      case 0x0000:
        return;
      case 0x020b: if (has(6, 4)) { p.st.winOrg = { x: s16(r + 8), y: s16(r + 6) }; p.touch(); } break;
      case 0x020c: if (has(6, 4)) { p.st.winExt = { x: s16(r + 8), y: s16(r + 6) }; p.touch(); } break;
      case 0x020f: if (has(6, 4)) { p.st.winOrg = { x: p.st.winOrg.x + s16(r + 8), y: p.st.winOrg.y + s16(r + 6) }; p.touch(); } break;
      case 0x0410: // SCALEWINDOWEXT
        if (has(6, 8) && s16(r + 6) && s16(r + 10)) {
          p.st.winExt = { x: (p.st.winExt.x * s16(r + 12)) / s16(r + 10), y: (p.st.winExt.y * s16(r + 8)) / s16(r + 6) };
          p.touch();
        }
        break;
      case 0x020d: case 0x020e: // viewport: kept, but the window maps onto the picture's frame (see Player.reference)
        if (has(6, 4)) {
          if (fn === 0x020d) p.st.vpOrg = { x: s16(r + 8), y: s16(r + 6) };
          else p.st.vpExt = { x: s16(r + 8), y: s16(r + 6) };
        }
        break;
      case 0x0103: if (has(6, 2)) { p.st.mapMode = u16(r + 6); p.touch(); } break;
      case 0x0102: if (has(6, 2)) p.st.bkOpaque = u16(r + 6) === 2; break;
      case 0x0106: if (has(6, 2)) p.st.evenOdd = u16(r + 6) !== 2; break;
      case 0x012e: if (has(6, 2)) p.st.textAlign = u16(r + 6); break;
      case 0x0209: if (has(6, 4)) p.st.textColor = colorRef(dv.getUint32(r + 6, true)); break;
      case 0x0201: if (has(6, 4)) p.st.bkColor = colorRef(dv.getUint32(r + 6, true)); break;
      case 0x001e: p.save(); break;
      case 0x0127: if (has(6, 2)) p.restore(s16(r + 6)); break;
      case 0x012d: { // SELECTOBJECT
        if (!has(6, 2)) break;
        const obj = table[u16(r + 6)];
        if (obj?.kind === 'pen') p.st.pen = obj;
        else if (obj?.kind === 'brush') p.st.brush = obj;
        else if (obj?.kind === 'font') p.st.font = obj;
        break;
      }
      case 0x01f0: if (has(6, 2) && u16(r + 6) < table.length) table[u16(r + 6)] = undefined; break;
      case 0x02fa: // CREATEPENINDIRECT
        if (has(6, 10)) add({ kind: 'pen', style: u16(r + 6), width: s16(r + 8), color: colorRef(dv.getUint32(r + 12, true)) });
        else add({ kind: 'other' });
        break;
      case 0x02fc: // CREATEBRUSHINDIRECT
        if (has(6, 6)) add({ kind: 'brush', color: u16(r + 6) === 1 ? null : colorRef(dv.getUint32(r + 8, true)) });
        else add({ kind: 'other' });
        break;
      case 0x02fb: { // CREATEFONTINDIRECT
        if (!has(6, 18)) { add({ kind: 'other' }); break; }
        let face = '';
        for (let i = 24; i < 56 && r + i < end; i++) {
          const c = b[r + i]!;
          if (!c) break;
          face += String.fromCharCode(c);
        }
        add({ kind: 'font', height: s16(r + 6), escapement: s16(r + 10), weight: s16(r + 14), italic: b[r + 16] !== 0, underline: b[r + 17] !== 0, strike: b[r + 18] !== 0, charset: b[r + 19]!, face });
        break;
      }
      case 0x0142: { // DIBCREATEPATTERNBRUSH: the pattern's average colour
        const dib = has(10, 40) ? decodeDib(b.subarray(0, end), r + 10, end - r - 10) : undefined;
        add({ kind: 'brush', color: dib ? averageColor(dib.canvas) : 0x808080 });
        break;
      }
      case 0x01f9: case 0x00f7: case 0x06ff: add({ kind: 'other' }); break; // pattern brush, palette, region
      case 0x0324: case 0x0325: { // POLYGON, POLYLINE
        if (!has(6, 2)) break;
        const pts = points(8, s16(r + 6));
        if (pts) p.poly(pts, fn === 0x0324, fn === 0x0324);
        break;
      }
      case 0x0538: { // POLYPOLYGON
        if (!has(6, 2)) break;
        const polys = u16(r + 6);
        if (!has(8, polys * 2)) break;
        const figures: Int16Array[] = [];
        let at = 8 + polys * 2;
        for (let i = 0; i < polys; i++) {
          const pts = points(at, u16(r + 8 + i * 2));
          if (!pts) break;
          figures.push(pts);
          at += pts.length * 2;
        }
        p.polyPoly(figures, true);
        break;
      }
      case 0x041b: if (has(6, 8)) p.rectangle(...box(6)); break;
      case 0x0418: if (has(6, 8)) p.ellipseLike(...box(6), 'ellipse'); break;
      case 0x061c: if (has(6, 12)) p.roundRect(...box(10), s16(r + 8), s16(r + 6)); break;
      case 0x0817: case 0x081a: case 0x0830: // ARC, PIE, CHORD
        if (has(6, 16)) p.ellipseLike(...box(14), fn === 0x0817 ? 'arc' : fn === 0x081a ? 'pie' : 'chord', s16(r + 12), s16(r + 10), s16(r + 8), s16(r + 6));
        break;
      case 0x0214: if (has(6, 4)) p.moveTo(s16(r + 8), s16(r + 6)); break;
      case 0x0213: if (has(6, 4)) p.lineTo([s16(r + 8), s16(r + 6)]); break;
      case 0x0416: if (has(6, 8)) p.clipTo(p.rectPath(...box(6))); break; // INTERSECTCLIPRECT
      case 0x012c: p.resetClip(); break; // SELECTCLIPREGION (regions are not kept: no clip)
      case 0x061d: { // PATBLT
        if (!has(6, 12)) break;
        const rop = dv.getUint32(r + 6, true);
        const hh = s16(r + 10), w = s16(r + 12), y = s16(r + 14), x = s16(r + 16);
        const color = rop === 0x00f00021 ? p.st.brush.color : rop === 0x00000042 ? 0 : rop === 0x00ff0062 ? 0xffffff : null;
        if (color !== null) p.fillRect(x, y, x + w, y + hh, color);
        break;
      }
      case 0x0521: { // TEXTOUT
        if (!has(6, 2)) break;
        const len = s16(r + 6);
        const padded = len + (len & 1);
        if (len <= 0 || !has(8, padded + 4)) break;
        const str = decodeText(b.subarray(r + 8, r + 8 + len), p.st.font.charset, p.st.font.face);
        p.text(s16(r + 10 + padded), s16(r + 8 + padded), str, undefined);
        break;
      }
      case 0x0a32: { // EXTTEXTOUT
        if (!has(6, 8)) break;
        const y = s16(r + 6), x = s16(r + 8), len = s16(r + 10), opts = u16(r + 12);
        let at = 14;
        let rect: [number, number, number, number] | undefined;
        if (opts & 0x6) {
          if (!has(at, 8)) break;
          rect = [s16(r + at), s16(r + at + 2), s16(r + at + 4), s16(r + at + 6)];
          at += 8;
        }
        if (rect && opts & 0x2 && rect[2] > rect[0] && rect[3] > rect[1]) p.fillRect(...rect, p.st.bkColor);
        if (len <= 0 || !has(at, len)) break;
        const str = decodeText(b.subarray(r + at, r + at + len), p.st.font.charset, p.st.font.face);
        at += len + (len & 1);
        let dx: number[] | undefined;
        if (has(at, len * 2)) {
          dx = [];
          for (let i = 0; i < len; i++) dx.push(s16(r + at + i * 2));
        }
        p.text(x, y, str, dx, rect && opts & 0x4 ? rect : undefined);
        break;
      }
      case 0x0b41: case 0x0940: case 0x0f43: case 0x0d33: { // DIBSTRETCHBLT, DIBBITBLT, STRETCHDIB, SETDIBTODEV
        let sx: number, sy: number, sw: number, sh: number, x: number, y: number, w: number, hh: number, dibAt: number, rop = 0x00cc0020;
        let fromBottom = false;
        if (fn === 0x0b41) {
          if (words === (fn >> 8) + 3 || !has(6, 20)) break;
          rop = dv.getUint32(r + 6, true);
          [sh, sw, sy, sx, hh, w, y, x] = [s16(r + 10), s16(r + 12), s16(r + 14), s16(r + 16), s16(r + 18), s16(r + 20), s16(r + 22), s16(r + 24)];
          dibAt = 26;
        } else if (fn === 0x0940) {
          if (words === (fn >> 8) + 3 || !has(6, 16)) break;
          rop = dv.getUint32(r + 6, true);
          [sy, sx, hh, w, y, x] = [s16(r + 10), s16(r + 12), s16(r + 14), s16(r + 16), s16(r + 18), s16(r + 20)];
          sw = w; sh = hh;
          dibAt = 22;
        } else if (fn === 0x0f43) {
          if (!has(6, 22)) break;
          rop = dv.getUint32(r + 6, true);
          [sh, sw, sy, sx, hh, w, y, x] = [s16(r + 12), s16(r + 14), s16(r + 16), s16(r + 18), s16(r + 20), s16(r + 22), s16(r + 24), s16(r + 26)];
          dibAt = 28;
          fromBottom = true;
        } else {
          if (!has(6, 18)) break;
          [sy, sx, hh, w, y, x] = [s16(r + 12), s16(r + 14), s16(r + 16), s16(r + 18), s16(r + 20), s16(r + 22)];
          sw = w; sh = hh;
          dibAt = 24;
          fromBottom = true;
        }
        if (!has(dibAt, 12)) break;
        const dib = decodeDib(b.subarray(0, end), r + dibAt, end - r - dibAt);
        if (!dib) break;
        const top = fromBottom && dib.bottomUp ? dib.height - sy - Math.abs(sh) : sy;
        p.bitmap(dib.canvas, sx, top, Math.abs(sw), Math.abs(sh), x, y, w, hh, rop);
        break;
      }
      default:
        // Escapes, palettes, ROP2 and stretch modes, unknown records: nothing to draw.
        break;
    }
  }
}

/** Average colour (0xRRGGBB) of a small pattern bitmap. */
function averageColor(c: import('@napi-rs/canvas').Canvas): number {
  const w = Math.min(c.width, 64), h = Math.min(c.height, 64);
  const d = c.getContext('2d').getImageData(0, 0, w, h).data;
  let r = 0, g = 0, bl = 0;
  const n = w * h;
  for (let i = 0; i < d.length; i += 4) { r += d[i]!; g += d[i + 1]!; bl += d[i + 2]!; }
  return (Math.round(r / n) << 16) | (Math.round(g / n) << 8) | Math.round(bl / n);
}
