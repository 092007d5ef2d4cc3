/**
 * The PresentationML reading model: the presentation part, slide masters (§19.3.1.42
 * `p:sldMaster`), slide layouts (§19.3.1.39 `p:sldLayout`) and slides (§19.3.1.38 `p:sld`),
 * navigated slide → layout → master → theme through relationships, each part read once and
 * cached, with its placeholders indexed by idx and type once.
 */
import { PackageError } from '../errors.js';
import type { OpcPackage } from '../opc/package.js';
import { RT } from '../opc/constants.js';
import { NS, attr, attrNS, boolAttr, child, children, type Element } from '../xml.js';
import { DEFAULT_COLOR_MAP, readColorMap, type ColorMap } from './color.js';
import { indexRels, readPresentation, type PresentationInfo } from './presentation.js';
import { IDENTITY, Shape, layoutBasePlaceholder, masterBasePlaceholder, readShapeElement, type ShapeBudget, type PlaceholderLookup, type PlaceholderRef, type PlaceholderType } from './shapes.js';
import { EMPTY_THEME, readTheme, type Theme } from './theme.js';

/** Which kind of part holds a shape tree. */
export type ShapeTreePartKind = 'slide' | 'layout' | 'master';

/** Most shapes read from one part; a hostile part cannot make the walk unbounded. */
export const MAX_SHAPES_PER_PART = 50_000;

/** A part with a common slide data (`p:cSld`, §19.3.1.16): slide, layout or master. */
export abstract class ShapeTreePart {
  abstract readonly kind: ShapeTreePartKind;
  /** `p:cSld` element. */
  readonly cSld: Element | undefined;
  private shapeList: Shape[] | undefined;
  /** Shapes read element by element ({@link shapesOf}) before the whole tree was. */
  private shapesByElement: Map<Element, Shape[]> | undefined;
  /** Shapes this part's tree may still hold (both ways of reading it count down the same budget). */
  private readonly shapeBudget: ShapeBudget = { remaining: MAX_SHAPES_PER_PART, limit: MAX_SHAPES_PER_PART };
  private phByIdx: Map<number, Shape> | undefined;
  private phByType: Map<PlaceholderType, Shape> | undefined;

  constructor(
    readonly model: PmlModel,
    readonly partName: string,
    /** Root element (`p:sld`, `p:sldLayout`, `p:sldMaster`). */
    readonly root: Element,
  ) {
    this.cSld = child(root, NS.p, 'cSld');
  }

  /** `p:cSld/@name`; '' when absent. */
  get name(): string {
    return attr(this.cSld, 'name') ?? '';
  }

  /** The slide master at the top of this part's chain. */
  abstract get master(): MasterPart;

  /** The part this one inherits from (slide → layout → master). */
  abstract get parent(): ShapeTreePart | undefined;

  /** Theme of the master. */
  get theme(): Theme {
    return this.master.theme;
  }

  private colorMapCache: ColorMap | undefined;

  /** The colour map in force: the master's `p:clrMap`, overridden by `p:clrMapOvr` (§19.3.1.7). Read once. */
  get colorMap(): ColorMap {
    if (!this.colorMapCache) this.colorMapCache = this.readOwnColorMap();
    return this.colorMapCache;
  }

  /** This part's colour map from its parent's and its own override. */
  protected readOwnColorMap(): ColorMap {
    const base = this.parent?.colorMap ?? DEFAULT_COLOR_MAP;
    const ovr = child(child(this.root, NS.p, 'clrMapOvr'), NS.a, 'overrideClrMapping');
    return ovr ? readColorMap(ovr, base) : base;
  }

  /**
   * Top-level shapes of the shape tree in document order (read once).
   * @throws PackageError `too_large` past {@link MAX_SHAPES_PER_PART} shapes
   */
  get shapes(): Shape[] {
    if (!this.shapeList) {
      const list: Shape[] = [];
      const spTree = child(this.cSld, NS.p, 'spTree');
      if (spTree) {
        for (const el of children(spTree)) {
          // elements read one by one already keep their shapes (one Shape per element, ever)
          const known = this.shapesByElement?.get(el);
          if (known) for (const s of known) list.push(s);
          else readShapeElement(this.shapeElementOf(el), this, undefined, IDENTITY, list, this.shapeBudget);
        }
      }
      this.shapeList = list;
      this.shapesByElement = undefined;
    }
    return this.shapeList;
  }

  /**
   * The top-level shapes one child element of the shape tree holds (the shape itself with
   * its group members, or the shapes an `mc:AlternateContent` chooses; none for other
   * elements), the same objects {@link shapes} lists. Reads only that element when the
   * whole tree has not been read: a caller that needs a few shapes of a large tree does
   * not pay for the rest.
   *
   * @param el - a child element of this part's `p:spTree`
   * @throws PackageError `too_large` past {@link MAX_SHAPES_PER_PART} shapes
   */
  shapesOf(el: Element): readonly Shape[] {
    if (this.shapeList) {
      const out: Shape[] = [];
      for (const s of this.shapeList) if (s.element === el || s.element.parentNode?.parentNode === el) out.push(s);
      return out;
    }
    this.shapesByElement ??= new Map();
    let known = this.shapesByElement.get(el);
    if (!known) {
      known = [];
      readShapeElement(this.shapeElementOf(el), this, undefined, IDENTITY, known, this.shapeBudget);
      this.shapesByElement.set(el, known);
    }
    return known;
  }

  /**
   * The element read as the shape tree's child `el`: `el` itself here; a part whose tree
   * holds stand-ins for elements kept elsewhere (a slide being generated) reads those.
   */
  protected shapeElementOf(el: Element): Element {
    return el;
  }

  /** Placeholders of this part (any depth), document order. */
  get placeholders(): Shape[] {
    const out: Shape[] = [];
    for (const s of this.shapes) for (const d of s.walk()) if (d.placeholder) out.push(d);
    return out;
  }

  private indexPlaceholders(): void {
    if (this.phByIdx) return;
    this.phByIdx = new Map();
    this.phByType = new Map();
    for (const s of this.shapes) {
      for (const d of s.walk()) {
        const ph = d.placeholder;
        if (!ph) continue;
        if (!this.phByIdx.has(ph.idx)) this.phByIdx.set(ph.idx, d);
        if (!this.phByType.has(ph.type)) this.phByType.set(ph.type, d);
      }
    }
  }

  /** The placeholder of this part with `idx`, indexed once. */
  placeholderByIdx(idx: number): Shape | undefined {
    this.indexPlaceholders();
    return this.phByIdx!.get(idx);
  }

  /** The first placeholder of this part of `type`, indexed once. */
  placeholderByType(type: PlaceholderType): Shape | undefined {
    this.indexPlaceholders();
    return this.phByType!.get(type);
  }

  /** This part's placeholders as a {@link PlaceholderLookup} for the inheritance rule. */
  get placeholderLookup(): PlaceholderLookup<Shape> {
    return { byIdx: (idx) => this.placeholderByIdx(idx), byType: (type) => this.placeholderByType(type as PlaceholderType) };
  }

  /** The placeholder on the parent part that a placeholder of this part inherits from. */
  abstract basePlaceholderFor(ph: PlaceholderRef): Shape | undefined;
}

/** A slide master (§19.3.1.42). */
export class MasterPart extends ShapeTreePart {
  readonly kind = 'master' as const;
  private readonly ownTheme: Theme;
  /** Layout part names in `p:sldLayoutIdLst` order, then any other related layouts. */
  readonly layoutPartNames: string[];

  constructor(model: PmlModel, partName: string, root: Element) {
    super(model, partName, root);
    const pkg = model.pkg;
    const themePart = pkg.relatedPartName(partName, RT.theme);
    this.ownTheme = themePart && pkg.hasPart(themePart) ? model.theme(themePart) : EMPTY_THEME;
    const rels = indexRels(pkg.rels(partName));
    const names: string[] = [];
    const seen = new Set<string>();
    for (const el of children(child(root, NS.p, 'sldLayoutIdLst') ?? root, NS.p, 'sldLayoutId')) {
      const rId = attrNS(el, NS.r, 'id');
      const target = rId === undefined ? undefined : rels.get(rId)?.targetPartName;
      if (target && pkg.hasPart(target) && !seen.has(target)) {
        seen.add(target);
        names.push(target);
      }
    }
    for (const r of pkg.rels(partName)) {
      if (r.type === RT.slideLayout && r.targetPartName && pkg.hasPart(r.targetPartName) && !seen.has(r.targetPartName)) {
        seen.add(r.targetPartName);
        names.push(r.targetPartName);
      }
    }
    this.layoutPartNames = names;
  }

  get master(): MasterPart {
    return this;
  }

  /** The master's theme (§14.2.7), or an empty one when its theme part is missing. */
  override get theme(): Theme {
    return this.ownTheme;
  }

  get parent(): ShapeTreePart | undefined {
    return undefined;
  }

  /** The master's own `p:clrMap` (§19.3.1.6). */
  protected override readOwnColorMap(): ColorMap {
    return readColorMap(child(this.root, NS.p, 'clrMap'));
  }

  /** `p:txStyles` (§19.3.1.52) child: `titleStyle`, `bodyStyle` or `otherStyle`. */
  textStyle(which: 'titleStyle' | 'bodyStyle' | 'otherStyle'): Element | undefined {
    return child(child(this.root, NS.p, 'txStyles'), NS.p, which);
  }

  basePlaceholderFor(): Shape | undefined {
    return undefined;
  }
}

/** A slide layout (§19.3.1.39). */
export class LayoutPart extends ShapeTreePart {
  readonly kind = 'layout' as const;
  readonly masterPart: MasterPart;

  constructor(model: PmlModel, partName: string, root: Element) {
    super(model, partName, root);
    const masterName = model.pkg.relatedPartName(partName, RT.slideMaster);
    if (!masterName || !model.pkg.hasPart(masterName)) {
      throw new PackageError('bad_structure', `slide layout ${partName} has no slide master (no slideMaster relationship or its target is missing)`);
    }
    this.masterPart = model.master(masterName);
  }

  get master(): MasterPart {
    return this.masterPart;
  }

  get parent(): ShapeTreePart {
    return this.masterPart;
  }

  /** `p:sldLayout/@type` (ST_SlideLayoutType §19.7.15); the schema default is `cust`. */
  get layoutType(): string {
    return attr(this.root, 'type') ?? 'cust';
  }

  /** Layout placeholders inherit from the master placeholder of the mapped type. */
  basePlaceholderFor(ph: PlaceholderRef): Shape | undefined {
    return masterBasePlaceholder(this.masterPart.placeholderLookup, ph.type);
  }
}

/** A slide (§19.3.1.38). */
export class SlidePart extends ShapeTreePart {
  readonly kind = 'slide' as const;
  readonly layoutPart: LayoutPart;

  constructor(model: PmlModel, partName: string, root: Element) {
    super(model, partName, root);
    const layoutName = model.pkg.relatedPartName(partName, RT.slideLayout);
    if (!layoutName || !model.pkg.hasPart(layoutName)) {
      throw new PackageError('bad_structure', `slide ${partName} has no slide layout (no slideLayout relationship or its target is missing)`);
    }
    this.layoutPart = model.layout(layoutName);
  }

  get master(): MasterPart {
    return this.layoutPart.masterPart;
  }

  get parent(): ShapeTreePart {
    return this.layoutPart;
  }

  /** False when `p:sld/@show` is `0` (a hidden slide). */
  get shown(): boolean {
    return boolAttr(this.root, 'show') ?? true;
  }

  /** The layout's placeholder by {@link layoutBasePlaceholder}, else the master's. */
  basePlaceholderFor(ph: PlaceholderRef): Shape | undefined {
    return layoutBasePlaceholder(this.layoutPart.placeholderLookup, ph) ?? masterBasePlaceholder(this.layoutPart.masterPart.placeholderLookup, ph.type);
  }
}

/**
 * The reading model over one package: every part read at most once. Construction reads
 * only the presentation part; masters, layouts, slides and themes are read on demand.
 */
export class PmlModel {
  readonly presentation: PresentationInfo;
  private readonly masters = new Map<string, MasterPart>();
  private readonly layouts = new Map<string, LayoutPart>();
  private readonly slides = new Map<string, SlidePart>();
  private readonly themes = new Map<string, Theme>();

  /**
   * @throws PackageError `bad_structure` (no presentation part), `not_presentation`,
   *   `macro_enabled`, `xml_*`
   */
  constructor(readonly pkg: OpcPackage) {
    this.presentation = readPresentation(pkg);
  }

  /**
   * Slides in `p:sldIdLst` order (the deck's order).
   * @throws PackageError `bad_structure` when a slide has no layout or a layout no master
   */
  slidesInOrder(): SlidePart[] {
    return this.presentation.slides.map((ref) => this.slide(ref.partName));
  }

  /** Slide masters in `p:sldMasterIdLst` order. */
  mastersInOrder(): MasterPart[] {
    return this.presentation.masters.map((ref) => this.master(ref.partName));
  }

  /**
   * Every layout, master by master in `p:sldMasterIdLst` order, each master's in
   * `p:sldLayoutIdLst` order; then layouts used by slides but listed by no master.
   */
  layoutsInOrder(): LayoutPart[] {
    const out: LayoutPart[] = [];
    const seen = new Set<LayoutPart>();
    const add = (l: LayoutPart): void => {
      if (!seen.has(l)) {
        seen.add(l);
        out.push(l);
      }
    };
    for (const m of this.mastersInOrder()) for (const name of m.layoutPartNames) add(this.layout(name));
    for (const s of this.slidesInOrder()) add(s.layoutPart);
    return out;
  }

  /** @throws PackageError `bad_structure` when the part's root is not `p:sldMaster` */
  master(partName: string): MasterPart {
    let m = this.masters.get(partName);
    if (!m) {
      m = new MasterPart(this, partName, this.rootOf(partName, 'sldMaster', 'slide master'));
      this.masters.set(partName, m);
    }
    return m;
  }

  /** @throws PackageError `bad_structure` when the part's root is not `p:sldLayout` or it has no master */
  layout(partName: string): LayoutPart {
    let l = this.layouts.get(partName);
    if (!l) {
      l = new LayoutPart(this, partName, this.rootOf(partName, 'sldLayout', 'slide layout'));
      this.layouts.set(partName, l);
    }
    return l;
  }

  /** @throws PackageError `bad_structure` when the part's root is not `p:sld` or it has no layout */
  slide(partName: string): SlidePart {
    let s = this.slides.get(partName);
    if (!s) {
      s = new SlidePart(this, partName, this.rootOf(partName, 'sld', 'slide'));
      this.slides.set(partName, s);
    }
    return s;
  }

  theme(partName: string): Theme {
    let t = this.themes.get(partName);
    if (!t) {
      const root = this.pkg.getXml(partName).documentElement;
      t = root && root.localName === 'theme' && root.namespaceURI === NS.a ? readTheme(root, partName) : EMPTY_THEME;
      this.themes.set(partName, t);
    }
    return t;
  }

  private rootOf(partName: string, local: string, what: string): Element {
    if (!this.pkg.hasPart(partName)) throw new PackageError('bad_structure', `the ${what} part ${partName} is missing`);
    const root = this.pkg.getXml(partName).documentElement;
    if (!root || root.localName !== local || root.namespaceURI !== NS.p) {
      throw new PackageError('bad_structure', `${partName} should be a ${what} (p:${local}) but its root element is ${root?.tagName ?? 'missing'}`);
    }
    return root;
  }
}
