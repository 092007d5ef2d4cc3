/**
 * One validation failure, in the FastAPI/Pydantic shape the REST contract uses for 422
 * bodies: `loc` locates the fault (`["body", "slides", 0, "options", "table_min_font_size"]`),
 * `type` is from Pydantic's vocabulary (`missing`, `extra_forbidden`, `greater_than_equal`, ...).
 */
export interface Violation {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}
