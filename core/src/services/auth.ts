/**
 * Who is calling: an API key maps to an organization (`SLIDEWRIGHT_API_KEYS`, or the dev
 * key printed at start in embedded mode); dev mode also accepts `X-Org-Name`.
 */
import { ServiceError } from '../errors.js';

/** Organization names are used in storage keys: letters, digits, `.`, `_`, `-`; 1–64 characters. */
const ORG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class Authenticator {
  /**
   * @param keys - API key → organization
   * @param devMode - accept `X-Org-Name` without a key
   */
  constructor(
    private readonly keys: ReadonlyMap<string, string>,
    private readonly devMode: boolean,
  ) {}

  /**
   * The caller's organization.
   * @throws ServiceError 401 when no usable key (or, in dev mode, organization name) is given
   */
  organization(apiKey: string | undefined, orgName: string | undefined): string {
    if (apiKey) {
      const org = this.keys.get(apiKey);
      if (!org) throw new ServiceError('unauthenticated', 'unknown API key');
      return org;
    }
    if (this.devMode && orgName) {
      if (!ORG_NAME.test(orgName)) throw new ServiceError('unauthenticated', 'X-Org-Name must be 1–64 letters, digits, ".", "_" or "-"');
      return orgName;
    }
    throw new ServiceError('unauthenticated', this.devMode ? 'missing X-API-Key (or X-Org-Name in dev mode)' : 'missing X-API-Key');
  }
}

export function isValidOrgName(org: string): boolean {
  return ORG_NAME.test(org);
}
