/**
 * Maps Ajv errors to the FastAPI/Pydantic v2 error vocabulary of the REST contract's 422
 * body (`{"detail": [{"loc", "msg", "type", "input", "ctx"}]}`).
 */
import type { ErrorObject } from 'ajv';

/**
 * One validation failure, in the FastAPI/Pydantic shape: `loc` locates the fault
 * (`["body", "slides", 0, "options", "table_min_font_size"]`; array indices are numbers),
 * `type` is a Pydantic error type (`missing`, `extra_forbidden`, `greater_than_equal`, ...),
 * `input` is the offending value (the parent object for `missing`), `ctx` the error's
 * parameters where Pydantic gives them (`{ge: 6}`).
 */
export interface Violation {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Pydantic's rendering of a literal value in messages: `'slides'`, `5`, `None`. */
function pyRepr(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  return String(v);
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'` — as Pydantic's literal_error. */
export function expectedList(values: readonly unknown[]): string {
  const r = values.map(pyRepr);
  if (r.length <= 1) return r.join('');
  return `${r.slice(0, -1).join(', ')} or ${r[r.length - 1] ?? ''}`;
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

/** Resolves a JSON pointer against the data: loc segments (array indices as numbers). */
export function pointerToLoc(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  const loc: (string | number)[] = [];
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      const i = Number(seg);
      loc.push(i);
      cur = cur[i];
    } else {
      loc.push(seg);
      cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return loc;
}

/** The first non-null type of a `type` keyword value. */
function primaryType(t: unknown): string {
  if (Array.isArray(t)) return String(t.find((x) => x !== 'null') ?? t[0] ?? '');
  return String(t ?? '');
}

function typeViolation(expected: string, data: unknown, parentSchema: Record<string, unknown> | undefined): Omit<Violation, 'loc'> {
  switch (expected) {
    case 'string':
      return { type: 'string_type', msg: 'Input should be a valid string', input: data };
    case 'integer':
      if (typeof data === 'number' && Number.isFinite(data) && !Number.isInteger(data))
        return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part', input: data };
      if (typeof data === 'string')
        return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer', input: data };
      return { type: 'int_type', msg: 'Input should be a valid integer', input: data };
    case 'number':
      if (typeof data === 'string')
        return { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number', input: data };
      return { type: 'float_type', msg: 'Input should be a valid number', input: data };
    case 'boolean':
      if (typeof data === 'string')
        return { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input', input: data };
      return { type: 'bool_type', msg: 'Input should be a valid boolean', input: data };
    case 'array':
      return { type: 'list_type', msg: 'Input should be a valid list', input: data };
    case 'object': {
      const title = parentSchema?.['x-proto-type'] !== undefined ? parentSchema['title'] : undefined;
      if (typeof title === 'string')
        return {
          type: 'model_type',
          msg: `Input should be a valid dictionary or instance of ${title}`,
          input: data,
          ctx: { class_name: title },
        };
      return { type: 'dict_type', msg: 'Input should be a valid dictionary', input: data };
    }
    case 'null':
      return { type: 'none_required', msg: 'Input should be None', input: data };
    default:
      return { type: 'value_error', msg: `Input should be of type ${expected}`, input: data };
  }
}

/** Converts one Ajv error (verbose mode) to a violation; `undefined` for errors to drop. */
function mapError(e: ErrorObject, root: unknown): Violation | undefined {
  const loc = pointerToLoc(e.instancePath, root);
  const p = e.params as Record<string, unknown>;
  const parentSchema = e.parentSchema as Record<string, unknown> | undefined;
  switch (e.keyword) {
    case 'required': {
      const name = String(p['missingProperty']);
      return { loc: [...loc, name], msg: 'Field required', type: 'missing', input: e.data };
    }
    case 'additionalProperties': {
      const name = String(p['additionalProperty']);
      const parent = e.data as Record<string, unknown>;
      return { loc: [...loc, name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: parent[name] };
    }
    case 'type':
      return { loc, ...typeViolation(primaryType(p['type']), e.data, parentSchema) };
    case 'minimum': {
      const n = Number(p['limit']);
      return { loc, msg: `Input should be greater than or equal to ${n}`, type: 'greater_than_equal', input: e.data, ctx: { ge: n } };
    }
    case 'maximum': {
      const n = Number(p['limit']);
      return { loc, msg: `Input should be less than or equal to ${n}`, type: 'less_than_equal', input: e.data, ctx: { le: n } };
    }
    case 'exclusiveMinimum': {
      const n = Number(p['limit']);
      return { loc, msg: `Input should be greater than ${n}`, type: 'greater_than', input: e.data, ctx: { gt: n } };
    }
    case 'exclusiveMaximum': {
      const n = Number(p['limit']);
      return { loc, msg: `Input should be less than ${n}`, type: 'less_than', input: e.data, ctx: { lt: n } };
    }
    case 'minItems': {
      const n = Number(p['limit']);
      const actual = Array.isArray(e.data) ? e.data.length : 0;
      return {
        loc,
        msg: `List should have at least ${n} item${plural(n)} after validation, not ${actual}`,
        type: 'too_short',
        input: e.data,
        ctx: { field_type: 'List', min_length: n, actual_length: actual },
      };
    }
    case 'maxItems': {
      const n = Number(p['limit']);
      const actual = Array.isArray(e.data) ? e.data.length : 0;
      return {
        loc,
        msg: `List should have at most ${n} item${plural(n)} after validation, not ${actual}`,
        type: 'too_long',
        input: e.data,
        ctx: { field_type: 'List', max_length: n, actual_length: actual },
      };
    }
    case 'minLength': {
      const n = Number(p['limit']);
      return { loc, msg: `String should have at least ${n} character${plural(n)}`, type: 'string_too_short', input: e.data, ctx: { min_length: n } };
    }
    case 'maxLength': {
      const n = Number(p['limit']);
      return { loc, msg: `String should have at most ${n} character${plural(n)}`, type: 'string_too_long', input: e.data, ctx: { max_length: n } };
    }
    case 'enum': {
      const allowed = (Array.isArray(p['allowedValues']) ? (p['allowedValues'] as unknown[]) : []).filter((v) => v !== null);
      const expected = expectedList(allowed);
      return { loc, msg: `Input should be ${expected}`, type: 'literal_error', input: e.data, ctx: { expected } };
    }
    case 'const': {
      const expected = expectedList([p['allowedValue']]);
      return { loc, msg: `Input should be ${expected}`, type: 'literal_error', input: e.data, ctx: { expected } };
    }
    case 'format':
      return { loc, msg: `Input should be a valid ${String(p['format'])}`, type: 'value_error', input: e.data };
    case 'pattern': {
      const pattern = String(p['pattern']);
      return { loc, msg: `String should match pattern '${pattern}'`, type: 'string_pattern_mismatch', input: e.data, ctx: { pattern } };
    }
    case 'anyOf':
    case 'oneOf':
    case 'allOf':
    case 'if':
    case 'not':
      return undefined; // the branch errors say more; one violation per location
    default:
      return { loc, msg: e.message ?? 'Invalid value', type: 'value_error', input: e.data };
  }
}

/**
 * Converts Ajv errors (from a validator compiled with `allErrors` and `verbose`) to
 * violations whose loc starts with `prefix`. Duplicates (same loc and type) are dropped,
 * and when a location has a type error, the other errors at that location are dropped.
 */
export function mapAjvErrors(errors: readonly ErrorObject[] | null | undefined, root: unknown, prefix: readonly (string | number)[]): Violation[] {
  const out: Violation[] = [];
  for (const e of errors ?? []) {
    const v = mapError(e, root);
    if (!v) continue;
    // Key order as in FastAPI's output: type, loc, msg, input, ctx.
    const ordered: Violation = { type: v.type, loc: [...prefix, ...v.loc], msg: v.msg, input: v.input };
    if (v.ctx !== undefined) ordered.ctx = v.ctx;
    out.push(ordered);
  }
  const typed = new Set(out.filter((v) => isTypeError(v.type)).map((v) => JSON.stringify(v.loc)));
  const seen = new Set<string>();
  return out.filter((v) => {
    const at = JSON.stringify(v.loc);
    if (typed.has(at) && !isTypeError(v.type)) return false;
    const key = `${at}|${v.type}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isTypeError(type: string): boolean {
  return /_type$|_parsing$|^int_from_float$|^none_required$/.test(type) && type !== 'model_attributes_type';
}

/** Limits of what a violation echoes back ({@link boundedEcho}). */
export const ECHO_LIMITS = {
  /** Characters of a string kept; a longer one is cut and ends with `…`. */
  stringChars: 200,
  /** Items of a list kept; a longer one ends with a `"… N more items"` string. */
  arrayItems: 10,
  /** Keys of an object kept; a bigger one gets a `"…": "N more keys"` entry. */
  objectKeys: 20,
  /** Levels of lists and objects kept; deeper ones are shown as `"[…]"` or `"{…}"`. */
  depth: 4,
} as const;

/**
 * A bounded copy of a value a violation echoes (`input`, `ctx`): long strings cut, long
 * lists and big objects shortened, deep nesting summarized (see {@link ECHO_LIMITS}).
 * The `input` of a `missing` error is the whole parent object, and any input can be as
 * big and as deep as the body it came from: an error answer must never be (JSON.stringify
 * of a body nested 10,000 levels deep overflows the stack), so every 422 body passes here.
 * Values that are not JSON (functions, symbols, bigints, bytes) become strings or null.
 */
export function boundedEcho(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > ECHO_LIMITS.stringChars ? `${value.slice(0, ECHO_LIMITS.stringChars)}…` : value;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (Array.isArray(value)) {
    if (depth >= ECHO_LIMITS.depth) return '[…]';
    const kept: unknown[] = value.slice(0, ECHO_LIMITS.arrayItems).map((v: unknown) => boundedEcho(v, depth + 1));
    if (value.length > ECHO_LIMITS.arrayItems) kept.push(`… ${value.length - ECHO_LIMITS.arrayItems} more items`);
    return kept;
  }
  if (typeof value === 'object') {
    if (depth >= ECHO_LIMITS.depth) return '{…}';
    const keys = Object.keys(value);
    const out: Record<string, unknown> = {};
    for (const k of keys.slice(0, ECHO_LIMITS.objectKeys)) {
      // own data properties only, so a key named __proto__ stays a key
      Object.defineProperty(out, boundedEcho(k) as string, { value: boundedEcho((value as Record<string, unknown>)[k], depth + 1), enumerable: true, writable: true, configurable: true });
    }
    if (keys.length > ECHO_LIMITS.objectKeys) out['…'] = `${keys.length - ECHO_LIMITS.objectKeys} more keys`;
    return out;
  }
  return null;
}
