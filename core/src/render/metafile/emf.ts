/**
 * EMF playback ([MS-EMF] §2.3 records): the header's frame (0.01 mm) is the picture, and
 * device units map to it through the reference device's pixels per millimetre. EMF+
 * comments are skipped: a dual EMF+ file carries its GDI records as well.
 */
import { Path2D } from '@napi-rs/canvas';
import { decodeDib } from './dib.js';
import { IDENTITY, Player, compose, decodeText, stockObject, type GdiObject, type Xform } from './player.js';

/** Most records played from one metafile. */
export const MAX_RECORDS = 250_000;
/** Most object table entries (the header's handle count is capped to this). */
export const MAX_OBJECTS = 65_536;

/** What the EMF header says: its frame in 0.01 mm and its device bounds. */
export interface EmfHeader {
  /** Picture frame, 0.01 mm, inclusive-exclusive (left, top, right, bottom). */
  frame: [number, number, number, number];
  /** Bounds of what is drawn, reference device pixels. */
  bounds: [number, number, number, number];
  /** Reference device size in pixels and millimetres. */
  devicePx: [number, number];
  deviceMm: [number, number];
}

/** Reads the EMF header (record 1); undefined when it is not a well-formed one. */
export function readEmfHeader(b: Uint8Array): EmfHeader | undefined {
  if (b.length < 88) return undefined;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (dv.getUint32(0, true) !== 1 || dv.getUint32(40, true) !== 0x464d4520) return undefined;
  const size = dv.getUint32(4, true);
  if (size < 88 || size > b.length) return undefined;
  const i = (o: number): number => dv.getInt32(o, true);
  return {
    bounds: [i(8), i(12), i(16), i(20)],
    frame: [i(24), i(28), i(32), i(36)],
    devicePx: [i(72), i(76)],
    deviceMm: [i(80), i(84)],
  };
}

/** Device pixels → 0.01 mm of the header's reference device. */
function deviceHundredthsMm(h: EmfHeader): { x: number; y: number } {
  const ok = h.devicePx[0] > 0 && h.devicePx[1] > 0 && h.deviceMm[0] > 0 && h.deviceMm[1] > 0;
  return ok ? { x: (h.deviceMm[0] * 100) / h.devicePx[0], y: (h.deviceMm[1] * 100) / h.devicePx[1] } : { x: 2540 / 96, y: 2540 / 96 };
}

/**
 * The picture's rectangle in device pixels: the frame converted, else the bounds.
 * @returns undefined when neither is a non-empty rectangle
 */
export function emfPictureRect(h: EmfHeader): { x: number; y: number; w: number; h: number } | undefined {
  const k = deviceHundredthsMm(h);
  const [fl, ft, fr, fb] = h.frame;
  if (fr > fl && fb > ft) return { x: fl / k.x, y: ft / k.y, w: (fr - fl) / k.x, h: (fb - ft) / k.y };
  const [bl, bt, br, bb] = h.bounds;
  if (br >= bl && bb >= bt) return { x: bl, y: bt, w: br - bl + 1, h: bb - bt + 1 };
  return undefined;
}

/** Plays an EMF onto `p`, whose `device` maps the picture rectangle to the destination. */
export function playEmf(b: Uint8Array, p: Player, h: EmfHeader): void {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const k = deviceHundredthsMm(h);
  p.devicePerMm = { x: 100 / k.x, y: 100 / k.y };
  const objects = new Map<number, GdiObject>();
  const u32 = (o: number): number => dv.getUint32(o, true);
  const i32 = (o: number): number => dv.getInt32(o, true);
  const f32 = (o: number): number => dv.getFloat32(o, true);
  const xformAt = (o: number): Xform => ({ a: f32(o), b: f32(o + 4), c: f32(o + 8), d: f32(o + 12), e: f32(o + 16), f: f32(o + 20) });
  let off = 0;
  for (let n = 0; n < MAX_RECORDS && off + 8 <= b.length; n++) {
    const type = u32(off);
    const size = u32(off + 4);
    if (size < 8 || size % 4 !== 0 || off + size > b.length) return;
    const r = off;
    const end = off + size;
    off = end;
    /** True when `len` bytes from record offset `o` lie inside the record. */
    const has = (o: number, len: number): boolean => o >= 0 && len >= 0 && r + o + len <= end;
    const points = (at: number, count: number, short: boolean): Int32Array | undefined => {
      const bytes = short ? 4 : 8;
      if (count < 0 || !has(at, count * bytes)) return undefined;
      const out = new Int32Array(count * 2);
      for (let i = 0; i < count * 2; i++) out[i] = short ? dv.getInt16(r + at + i * 2, true) : i32(r + at + i * 4);
      return out;
    };
    switch (type) {
      case 14: // EOF
        return;
      case 2: case 3: case 4: case 5: case 6: case 85: case 86: case 87: case 88: case 89: { // POLYBEZIER … POLYLINETO16
        if (!has(24, 4)) break;
        const short = type >= 85;
        const pts = points(28, u32(r + 24), short);
        if (!pts) break;
        const kind = short ? type - 83 : type;
        if (kind === 2) p.bezier(pts, false);
        else if (kind === 3) p.poly(pts, true, true);
        else if (kind === 4) p.poly(pts, false, false);
        else if (kind === 5) p.bezier(pts, true);
        else p.lineTo(pts);
        break;
      }
      case 7: case 8: case 90: case 91: { // POLYPOLYLINE, POLYPOLYGON (+16)
        if (!has(24, 8)) break;
        const polys = u32(r + 24), total = u32(r + 28);
        if (!has(32, polys * 4)) break;
        const short = type >= 90;
        const pts = points(32 + polys * 4, total, short);
        if (!pts) break;
        const figures: Int32Array[] = [];
        let at = 0;
        for (let i = 0; i < polys; i++) {
          const c = u32(r + 32 + i * 4);
          if (at + c > total) break;
          figures.push(pts.subarray(at * 2, (at + c) * 2));
          at += c;
        }
        if (type === 8 || type === 91) p.polyPoly(figures, true);
        else for (const f of figures) p.poly(f, false, false);
        break;
      }
      case 9: if (has(8, 8)) { p.st.winExt = { x: i32(r + 8), y: i32(r + 12) }; p.touch(); } break;
      case 10: if (has(8, 8)) { p.st.winOrg = { x: i32(r + 8), y: i32(r + 12) }; p.touch(); } break;
      case 11: if (has(8, 8)) { p.st.vpExt = { x: i32(r + 8), y: i32(r + 12) }; p.touch(); } break;
      case 12: if (has(8, 8)) { p.st.vpOrg = { x: i32(r + 8), y: i32(r + 12) }; p.touch(); } break;
      case 17: if (has(8, 4)) { p.st.mapMode = u32(r + 8); p.touch(); } break;
      case 18: if (has(8, 4)) p.st.bkOpaque = u32(r + 8) === 2; break;
      case 19: if (has(8, 4)) p.st.evenOdd = u32(r + 8) !== 2; break;
      case 22: if (has(8, 4)) p.st.textAlign = u32(r + 8); break;
      case 24: if (has(8, 4)) p.st.textColor = colorRef(u32(r + 8)); break;
      case 25: if (has(8, 4)) p.st.bkColor = colorRef(u32(r + 8)); break;
      case 27: if (has(8, 8)) p.moveTo(i32(r + 8), i32(r + 12)); break;
      case 54: if (has(8, 8)) p.lineTo([i32(r + 8), i32(r + 12)]); break;
      case 30: if (has(8, 16)) p.clipTo(p.rectPath(i32(r + 8), i32(r + 12), i32(r + 16), i32(r + 20))); break; // INTERSECTCLIPRECT
      case 33: p.save(); break;
      case 34: if (has(8, 4)) p.restore(i32(r + 8)); break;
      case 35: if (has(8, 24)) { p.st.world = finite(xformAt(r + 8)); p.touch(); } break;
      case 36: { // MODIFYWORLDTRANSFORM
        if (!has(8, 28)) break;
        const x = finite(xformAt(r + 8));
        const mode = u32(r + 32);
        if (mode === 1) p.st.world = IDENTITY;
        else if (mode === 2) p.st.world = compose(x, p.st.world);
        else if (mode === 3) p.st.world = compose(p.st.world, x);
        else if (mode === 4) p.st.world = x;
        p.touch();
        break;
      }
      case 37: { // SELECTOBJECT
        if (!has(8, 4)) break;
        const ih = u32(r + 8);
        const obj = ih & 0x80000000 ? stockObject(ih & 0x7fffffff) : objects.get(ih);
        if (obj?.kind === 'pen') p.st.pen = obj;
        else if (obj?.kind === 'brush') p.st.brush = obj;
        else if (obj?.kind === 'font') p.st.font = obj;
        break;
      }
      case 38: // CREATEPEN
        if (has(8, 20) && u32(r + 8) < MAX_OBJECTS) objects.set(u32(r + 8), { kind: 'pen', style: u32(r + 12), width: i32(r + 16), color: colorRef(u32(r + 24)) });
        break;
      case 95: // EXTCREATEPEN
        if (has(8, 40) && u32(r + 8) < MAX_OBJECTS) {
          const brushStyle = u32(r + 36);
          objects.set(u32(r + 8), { kind: 'pen', style: brushStyle === 1 ? 5 : u32(r + 28), width: u32(r + 32), color: colorRef(u32(r + 40)) });
        }
        break;
      case 39: // CREATEBRUSHINDIRECT
        if (has(8, 16) && u32(r + 8) < MAX_OBJECTS) {
          const style = u32(r + 12);
          objects.set(u32(r + 8), { kind: 'brush', color: style === 1 ? null : colorRef(u32(r + 16)) });
        }
        break;
      case 93: case 94: // CREATEMONOBRUSH, CREATEDIBPATTERNBRUSHPT: drawn as a mid grey of the pattern
        if (has(8, 4) && u32(r + 8) < MAX_OBJECTS) objects.set(u32(r + 8), { kind: 'brush', color: 0x808080 });
        break;
      case 40: if (has(8, 4)) objects.delete(u32(r + 8)); break;
      case 82: { // EXTCREATEFONTINDIRECTW
        if (!has(8, 96) || u32(r + 8) >= MAX_OBJECTS) break;
        let face = '';
        for (let i = 0; i < 32; i++) {
          const c = dv.getUint16(r + 40 + i * 2, true);
          if (!c) break;
          face += String.fromCharCode(c);
        }
        objects.set(u32(r + 8), {
          kind: 'font', height: i32(r + 12), escapement: i32(r + 20), weight: i32(r + 28),
          italic: b[r + 32] !== 0, underline: b[r + 33] !== 0, strike: b[r + 34] !== 0, charset: b[r + 35]!, face,
        });
        break;
      }
      case 42: case 43: case 44: case 45: case 46: case 47: { // ELLIPSE, RECTANGLE, ROUNDRECT, ARC, CHORD, PIE
        if (!has(8, 16)) break;
        const l = i32(r + 8), t = i32(r + 12), rr = i32(r + 16), bb = i32(r + 20);
        if (type === 42) p.ellipseLike(l, t, rr, bb, 'ellipse');
        else if (type === 43) p.rectangle(l, t, rr, bb);
        else if (type === 44 && has(24, 8)) p.roundRect(l, t, rr, bb, i32(r + 24), i32(r + 28));
        else if (has(24, 16)) p.ellipseLike(l, t, rr, bb, type === 45 ? 'arc' : type === 46 ? 'chord' : 'pie', i32(r + 24), i32(r + 28), i32(r + 32), i32(r + 36));
        break;
      }
      case 59: p.beginPath(); break;
      case 60: p.endPath(); break;
      case 61: p.closeFigure(); break;
      case 62: p.paintPath(true, false); break;
      case 63: p.paintPath(true, true); break;
      case 64: p.paintPath(false, true); break;
      case 68: p.path = undefined; p.inPath = false; break; // ABORTPATH
      case 67: if (has(8, 4)) p.clipPath(u32(r + 8) === 5); break; // SELECTCLIPPATH
      case 75: { // EXTSELECTCLIPRGN: region rectangles in device units
        if (!has(8, 8)) break;
        const cb = u32(r + 8), mode = u32(r + 12);
        if (mode === 5 && cb === 0) { p.resetClip(); break; }
        if (mode !== 5 && mode !== 1) break;
        if (!has(16, 32) || cb < 32 || !has(16, cb)) break;
        const count = u32(r + 24);
        if (!has(48, count * 16)) break;
        const region = new Path2D();
        const d = p.device;
        for (let i = 0; i < Math.min(count, 4096); i++) {
          const o = r + 48 + i * 16;
          const x0 = d.a * i32(o) + d.e, y0 = d.d * i32(o + 4) + d.f, x1 = d.a * i32(o + 8) + d.e, y1 = d.d * i32(o + 12) + d.f;
          region.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
        }
        if (mode === 5) p.resetClip();
        p.clipTo(region);
        break;
      }
      case 84: case 83: { // EXTTEXTOUTW, EXTTEXTOUTA
        if (!has(36, 40)) break;
        const x = i32(r + 36), y = i32(r + 40), chars = u32(r + 44), offStr = u32(r + 48), opts = u32(r + 52), offDx = u32(r + 72);
        if (opts & 0x10) break; // glyph indices: no characters to draw
        const wide = type === 84;
        if (chars > 8192 || !has(offStr, chars * (wide ? 2 : 1))) break;
        let str = '';
        if (wide) for (let i = 0; i < chars; i++) str += String.fromCharCode(dv.getUint16(r + offStr + i * 2, true));
        else str = decodeText(b.subarray(r + offStr, r + offStr + chars), p.st.font.charset, p.st.font.face);
        const step = opts & 0x2000 ? 2 : 1;
        let dx: number[] | undefined;
        if (offDx && has(offDx, chars * 4 * step)) {
          dx = [];
          for (let i = 0; i < chars; i++) dx.push(i32(r + offDx + i * 4 * step));
        }
        const rect: [number, number, number, number] = [i32(r + 56), i32(r + 60), i32(r + 64), i32(r + 68)];
        if (opts & 0x2 && rect[2] > rect[0] && rect[3] > rect[1]) p.fillRect(...rect, p.st.bkColor);
        p.text(x, y, str, dx, opts & 0x4 && rect[2] > rect[0] ? rect : undefined);
        break;
      }
      case 76: case 77: case 114: { // BITBLT, STRETCHBLT, ALPHABLEND
        if (!has(8, 92)) break;
        const x = i32(r + 24), y = i32(r + 28), w = i32(r + 32), hh = i32(r + 36), rop = u32(r + 40);
        const offBmi = u32(r + 84), cbBmi = u32(r + 88), offBits = u32(r + 92), cbBits = has(96, 4) ? u32(r + 96) : 0;
        if (cbBmi === 0) {
          // No source bitmap: a pattern fill with the brush (PATCOPY) or a constant.
          const color = rop === 0x00f00021 ? p.st.brush.color : rop === 0x00000042 ? 0 : rop === 0x00ff0062 ? 0xffffff : null;
          if (color !== null && type === 76) p.fillRect(x, y, x + w, y + hh, color);
          break;
        }
        if (!has(offBmi, cbBmi) || !has(offBits, cbBits)) break;
        const alpha = type === 114 && (b[r + 43]! & 1) === 1;
        const dib = decodeDib(b, r + offBmi, cbBmi, r + offBits, cbBits, alpha);
        if (!dib) break;
        const sx = i32(r + 44), sy = i32(r + 48);
        const sw = type !== 76 && has(100, 8) ? i32(r + 100) : w, sh = type !== 76 && has(100, 8) ? i32(r + 104) : hh;
        p.ctx.save();
        if (type === 114) p.ctx.globalAlpha = b[r + 42]! / 255;
        p.bitmap(dib.canvas, sx, sy, Math.abs(sw), Math.abs(sh), x, y, w, hh, type === 114 ? 0x00cc0020 : rop);
        p.ctx.restore();
        break;
      }
      case 81: { // STRETCHDIBITS
        if (!has(8, 72)) break;
        const x = i32(r + 24), y = i32(r + 28), sx = i32(r + 32), sy = i32(r + 36), sw = i32(r + 40), sh = i32(r + 44);
        const offBmi = u32(r + 48), cbBmi = u32(r + 52), offBits = u32(r + 56), cbBits = u32(r + 60), rop = u32(r + 68);
        const w = i32(r + 72), hh = i32(r + 76);
        if (!has(offBmi, cbBmi) || !has(offBits, cbBits) || !cbBmi) break;
        const dib = decodeDib(b, r + offBmi, cbBmi, r + offBits, cbBits);
        if (!dib) break;
        // Source y counts from the bottom row of a bottom-up DIB.
        const top = dib.bottomUp ? dib.height - sy - Math.abs(sh) : sy;
        p.bitmap(dib.canvas, sx, top, Math.abs(sw), Math.abs(sh), x, y, w, hh, rop);
        break;
      }
      case 80: { // SETDIBITSTODEVICE: the bitmap at its size
        if (!has(8, 68)) break;
        const x = i32(r + 24), y = i32(r + 28), sx = i32(r + 32), sy = i32(r + 36), sw = i32(r + 40), sh = i32(r + 44);
        const offBmi = u32(r + 48), cbBmi = u32(r + 52), offBits = u32(r + 56), cbBits = u32(r + 60);
        if (!has(offBmi, cbBmi) || !has(offBits, cbBits) || !cbBmi) break;
        const dib = decodeDib(b, r + offBmi, cbBmi, r + offBits, cbBits);
        if (dib) p.bitmap(dib.canvas, sx, dib.bottomUp ? dib.height - sy - sh : sy, sw, sh, x, y, sw, sh, 0x00cc0020);
        break;
      }
      default:
        // Comments (EMF+ included), palettes, colour management, unknown records: nothing to draw.
        break;
    }
  }
}

/** COLORREF (0x00BBGGRR) → 0xRRGGBB. */
export function colorRef(v: number): number {
  return ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff);
}

function finite(x: Xform): Xform {
  return Object.values(x).every((v) => Number.isFinite(v) && Math.abs(v) < 1e9) ? x : IDENTITY;
}

