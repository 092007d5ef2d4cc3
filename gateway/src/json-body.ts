/**
 * JSON request bodies, parsed with a bound on their nesting.
 *
 * `JSON.parse` takes a body nested 10,000 levels deep in its stride, but everything after
 * it recurses over the value (validation, normalization, the codecs, the echo of the
 * input in a 422), and one of them overflows the stack: a 500 from a few kilobytes of
 * brackets. No request of the API nests anywhere near {@link MAX_JSON_DEPTH} levels, so a
 * body that does is refused before it is parsed, in one pass over its text.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Violation } from '../../core/src/validation/index.js';

/** Deepest nesting of lists and objects a JSON body may have (the body itself is level 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * Where a JSON text nests deeper than `maxDepth` lists and objects: the offset of the `[`
 * or `{` that opens level `maxDepth + 1`; undefined when it never does. Brackets inside
 * strings (escapes included) do not count. The text need not be valid JSON: this only
 * counts, and the parser judges the rest.
 */
export function jsonDepthExceeded(text: string, maxDepth: number = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return undefined;
}

/** A JSON body refused for its nesting; the gateway answers it with {@link violation}. */
export class JsonTooDeepError extends Error {
  readonly code = 'SW_JSON_TOO_DEEP';
  readonly statusCode = 422;
  /**
   * @param position offset of the bracket that went one level too deep
   * @param maxDepth the limit
   */
  constructor(
    readonly position: number,
    readonly maxDepth: number,
  ) {
    super(`JSON nested deeper than ${maxDepth} levels`);
  }

  /** The 422 entry, FastAPI's json_invalid shape; the body itself is not echoed. */
  get violation(): Violation {
    return { type: 'json_invalid', loc: ['body', this.position], msg: this.message, input: {}, ctx: { error: `nesting deeper than ${this.maxDepth} levels at position ${this.position}` } };
  }
}

/**
 * Replaces the app's `application/json` parser with one that refuses, before parsing, a
 * body nested deeper than `maxDepth` ({@link JsonTooDeepError}) and otherwise parses as
 * Fastify's own does (same errors, `__proto__` and `constructor.prototype` refused).
 */
export function installJsonBodyParser(app: FastifyInstance, maxDepth: number = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const at = jsonDepthExceeded(text, maxDepth);
    if (at !== undefined) {
      done(new JsonTooDeepError(at, maxDepth));
      return;
    }
    parse(req, text, done);
  });
}
