/**
 * Why a slide of a deck could not be built: a {@link SlideFailure} ends that slide's build
 * (what it wrote is undone) and becomes one {@link SlideError} of the result; the other
 * slides are still built.
 */
import type { SlideError } from '../../domain/content.js';
import { EngineError, PackageError } from '../../ooxml/errors.js';
import { blockFailure, type BlockErrorCode } from '../charts/blocks.js';

/** Why a slide could not be built; becomes a {@link SlideError}. */
export class SlideFailure extends EngineError<'template_not_found' | 'template_unreadable' | 'source_not_found' | 'source_wrong_type' | 'source_corrupt' | 'generation_failed' | BlockErrorCode> {
  override readonly name = 'SlideFailure';
}

/** Any error raised while a slide was built, as the {@link SlideFailure} it is reported as. */
export function toFailure(err: unknown): SlideFailure {
  const block = blockFailure(err);
  if (block) return new SlideFailure(block.code, block.message, { cause: err });
  if (err instanceof PackageError) {
    const code = err.code === 'missing_part' ? 'source_not_found' : 'source_corrupt';
    return new SlideFailure(code, err.message, { cause: err });
  }
  return new SlideFailure('generation_failed', err instanceof Error ? err.message : String(err), { cause: err });
}
