/**
 * Why a package could not be read. Each code names one class of bad input, so the upload
 * path can answer with the right HTTP status and the analysis with a precise reason.
 */
export type PackageErrorCode =
  | 'empty'
  | 'not_zip'
  | 'encrypted'
  | 'zip_truncated'
  | 'zip_unsupported'
  | 'zip_bomb'
  | 'too_many_parts'
  | 'bad_entry_name'
  | 'duplicate_entry'
  | 'missing_part'
  | 'not_presentation'
  | 'macro_enabled'
  | 'xml_dtd'
  | 'xml_too_deep'
  | 'xml_malformed'
  | 'bad_structure'
  | 'too_large';

/** A package (zip container, OPC structure or XML part) that Slidewright refuses to read. */
export class PackageError extends Error {
  override readonly name = 'PackageError';
  constructor(
    readonly code: PackageErrorCode,
    message: string,
  ) {
    super(message);
  }
}
