/**
 * URLs the router cannot take apart, answered as the API answers any URL that names
 * nothing: 404 with `{"detail": "..."}`.
 *
 * Fastify answers these itself, before any route or error handler, in its own shape and
 * with statuses no operation documents: 414 for a path parameter over its
 * `maxParamLength` (100 characters by default) and 400 for a percent-encoding that does
 * not decode (`/api/v1/templates/%zz`). A path parameter is a name (an id) or a number, so
 * either URL names no resource: 404, which every operation with path parameters documents.
 * The length limit is raised so that path parameters of any sensible length reach
 * validation (a 300-digit slide number is a 422 at its loc, like any number too large).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { boundedEcho } from '../../core/src/validation/index.js';

/** Longest path parameter routed, characters; a longer one answers 404. */
export const MAX_PATH_PARAM_CHARS = 1000;

/** Fastify's handler of the errors it meets while routing (`frameworkErrors`): 404 for each. */
export function answerUnroutableUrl(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const path = boundedEcho(req.url.split('?')[0] ?? '') as string;
  const why =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `a path parameter is over ${MAX_PATH_PARAM_CHARS} characters`
      : error.code === 'FST_ERR_BAD_URL'
        ? 'the path is not valid percent-encoding'
        : error.message;
  void reply.code(404).send({ detail: `no resource at ${req.method} ${path}: ${why}` });
}

/** The Fastify options that route long and malformed URLs to {@link answerUnroutableUrl}. */
export const URL_OPTIONS = {
  routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
  frameworkErrors: answerUnroutableUrl,
} as const;
