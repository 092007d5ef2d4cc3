/**
 * Marker elements: one element in a namespace of our own standing in a tree where nodes
 * will go that generation keeps as a small model until the part is written (paragraphs,
 * `deferred-paragraphs.ts`; table rows, `deferred-rows.ts`). The marker carries its model
 * as a property, so the model lives and dies with the tree (a WeakMap beside the tree
 * would keep young trees alive through V8's scavenges).
 */
import type { Document, Element } from '../../ooxml/xml.js';

/** A marker element with the model it carries. */
interface Marker<T> extends Element {
  standsFor?: T;
}

/** The markers of one kind of model: their namespace and qualified name. */
export class ModelMarkers<T> {
  /**
   * @param namespace - the markers' namespace URI (never an OOXML namespace)
   * @param qualifiedName - their name, e.g. `sw:rows`
   */
  constructor(
    readonly namespace: string,
    private readonly qualifiedName: string,
  ) {}

  /** A new marker of `doc` standing for `model` (not yet in the tree). */
  create(doc: Document, model: T): Element {
    const marker = doc.createElementNS(this.namespace, this.qualifiedName) as Marker<T>;
    marker.standsFor = model;
    return marker;
  }

  /** The model `el` stands for (undefined for any other element). */
  modelOf(el: Element): T | undefined {
    return el.namespaceURI === this.namespace ? (el as Marker<T>).standsFor : undefined;
  }

  /** The marker among the children of `parent`, if it has one. */
  markerIn(parent: Element | undefined): Element | undefined {
    for (let c = parent?.lastChild; c; c = c.previousSibling) {
      if (c.nodeType === 1 && (c as Element).namespaceURI === this.namespace) return c as Element;
    }
    return undefined;
  }

  /**
   * Replaces the marker among the children of `parent` with the nodes `build` makes of its
   * model, in its place; a parent without a marker is left alone.
   */
  expandIn(parent: Element, build: (model: T) => Element[]): void {
    const marker = this.markerIn(parent);
    const model = marker ? this.modelOf(marker) : undefined;
    if (!marker || !model) return;
    for (const node of build(model)) parent.insertBefore(node, marker);
    parent.removeChild(marker);
  }

  /** The model a child of `parent` stands for, if it has one. */
  modelIn(parent: Element | undefined): T | undefined {
    const marker = this.markerIn(parent);
    return marker ? this.modelOf(marker) : undefined;
  }
}
