/**
 * REST paths that core itself has to write: the targets of signed URLs (which core signs
 * and later verifies) and the status URL of a generation. Each is filled in from the
 * route's path template in the generated route table (proto/gen/routes.ts), so a path is
 * written once, in the protos' `google.api.http` bindings.
 */
import { ROUTES } from '../../../proto/gen/routes.js';

const TEMPLATES: ReadonlyMap<string, string> = new Map(ROUTES.map((r) => [r.id, r.pathTemplate]));

/**
 * The REST path of an RPC's route with its path parameters filled in, verbatim (ids are
 * ULIDs; a signature covers exactly the path the client sends).
 * @param routeId - e.g. `slidewright.v1.TemplateService/UploadTemplateContent`
 * @param params - a value for every `{name}` of the path template
 * @throws Error for an unknown route or a missing parameter (a programming error)
 */
export function restPath(routeId: string, params: Readonly<Record<string, string | number>>): string {
  const template = TEMPLATES.get(routeId);
  if (template === undefined) throw new Error(`no REST route ${routeId}`);
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`REST route ${routeId} needs ${name}`);
    return String(value);
  });
}

/** REST path of a template's direct upload, which the signed upload URL also targets. */
export function uploadPath(templateId: string): string {
  return restPath('slidewright.v1.TemplateService/UploadTemplateContent', { template_id: templateId });
}

/** REST path of a template's file, which the template's signed download URL targets. */
export function templateDownloadPath(templateId: string): string {
  return restPath('slidewright.v1.TemplateService/DownloadTemplate', { template_id: templateId });
}

/** REST path of a generation's deck, which the signed download URL targets. */
export function downloadPath(generationId: string): string {
  return restPath('slidewright.v1.PresentationService/DownloadPresentation', { presentation_id: generationId });
}

/** REST path of a generation's status. */
export function generationStatusPath(generationId: string): string {
  return restPath('slidewright.v1.PresentationService/GetGenerationStatus', { generation_id: generationId });
}
