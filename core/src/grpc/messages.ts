/**
 * The generated message codecs (ts-proto) by fully-qualified proto name, so generic code
 * (the gRPC server wrapper, the gateway) can build and read any message.
 */
import * as analysisMessages from '../../../proto/gen/ts/slidewright/v1/analysis.js';
import * as analysisService from '../../../proto/gen/ts/slidewright/v1/analysis_service.js';
import * as contentMessages from '../../../proto/gen/ts/slidewright/v1/content.js';
import * as errorMessages from '../../../proto/gen/ts/slidewright/v1/errors.js';
import * as matchService from '../../../proto/gen/ts/slidewright/v1/match_service.js';
import * as presentationService from '../../../proto/gen/ts/slidewright/v1/presentation_service.js';
import * as qualityMessages from '../../../proto/gen/ts/slidewright/v1/quality.js';
import * as templateMessages from '../../../proto/gen/ts/slidewright/v1/template.js';
import * as templateService from '../../../proto/gen/ts/slidewright/v1/template_service.js';

/** The part of a ts-proto `MessageFns` that generic code uses. */
export interface MessageCodec {
  encode(message: unknown): { finish(): Uint8Array };
  decode(input: Uint8Array): unknown;
  fromJSON(object: unknown): unknown;
  toJSON(message: unknown): unknown;
  fromPartial(object: unknown): unknown;
}

function isCodec(v: unknown): v is MessageCodec {
  return typeof v === 'object' && v !== null && 'encode' in v && 'decode' in v && 'fromPartial' in v && 'toJSON' in v;
}

const registry = new Map<string, MessageCodec>();
for (const mod of [analysisMessages, analysisService, contentMessages, errorMessages, matchService, presentationService, qualityMessages, templateMessages, templateService]) {
  for (const [name, value] of Object.entries(mod)) if (isCodec(value)) registry.set(`slidewright.v1.${name}`, value);
}

/**
 * The codec of a message type.
 * @param typeName - e.g. `slidewright.v1.GenerateDeckRequest`
 * @throws Error for a name the generated code does not define (a programming error)
 */
export function codecOf(typeName: string): MessageCodec {
  const c = registry.get(typeName.replace(/^\./, ''));
  if (!c) throw new Error(`no generated codec for ${typeName}`);
  return c;
}

export const SERVICE_DEFINITIONS = {
  'slidewright.v1.TemplateService': templateService.TemplateServiceService,
  'slidewright.v1.AnalysisService': analysisService.AnalysisServiceService,
  'slidewright.v1.PresentationService': presentationService.PresentationServiceService,
  'slidewright.v1.MatchService': matchService.MatchServiceService,
} as const;

export type ServiceName = keyof typeof SERVICE_DEFINITIONS;
