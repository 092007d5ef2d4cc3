/** The slides of the shared corpus as the engine reads them, for tests that walk them all. */
import { readFileSync } from 'node:fs';
import { OpcPackage } from '../../core/src/ooxml/opc/package.js';
import { CT, RT } from '../../core/src/ooxml/opc/constants.js';
import { PmlModel } from '../../core/src/ooxml/pml/parts.js';
import type { Document } from '../../core/src/ooxml/xml.js';
import type { Test } from 'tap';
import { corpusFilesOf, corpusPath } from './corpus.js';

/** One slide of a corpus file, with its package, reading model and layout. */
export interface CorpusSlide {
  /** Corpus-relative path, e.g. `templates/x.pptx`. */
  file: string;
  pkg: OpcPackage;
  pml: PmlModel;
  slidePart: string;
  layoutPart: string;
  /** The slide's parsed XML (the package's cached tree: copy it before changing it). */
  doc: Document;
}

/**
 * The slides of every template and bench file whose reading model opens, in file and
 * package order; slides without a layout are skipped.
 *
 * @param perFile - most slides taken from one file
 */
export async function* corpusSlides(perFile = Infinity): AsyncGenerator<CorpusSlide> {
  const files = [...corpusFilesOf('templates'), ...corpusFilesOf('bench')];
  for (const file of files) {
    const pkg = await OpcPackage.open(readFileSync(corpusPath(file)));
    let pml: PmlModel;
    try {
      pml = new PmlModel(pkg);
    } catch {
      continue;
    }
    for (const slidePart of pkg.partsOfType(CT.slide).slice(0, perFile)) {
      const layoutPart = pkg.relatedPartName(slidePart, RT.slideLayout);
      if (layoutPart) yield { file, pkg, pml, slidePart, layoutPart, doc: pkg.getXml(slidePart) };
    }
  }
}

/**
 * The package of corpus file `rel` opened by the engine, or undefined with a passing
 * assertion saying why there is nothing to check (`reason`) when the engine refuses it
 * (corpus folders hold files the engine turns away on purpose).
 */
export async function openCorpusOrPass(t: Test, rel: string, reason: string): Promise<OpcPackage | undefined> {
  try {
    return await OpcPackage.open(readFileSync(corpusPath(rel)));
  } catch {
    t.pass(reason);
    return undefined;
  }
}
