/**
 * API documentation and discovery: OpenAPI 3.1 and Swagger UI over REST, server
 * reflection and the health service over gRPC — all from the same generated definitions.
 */
import t from 'tap';
import * as grpc from '@grpc/grpc-js';
import { ROUTES } from '../../proto/gen/routes.js';
import { startTestService, type TestService } from '../helpers/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
t.before(async () => {
  svc = await startTestService();
});
t.teardown(() => svc.close());

t.test('/openapi.json documents every route with its body, parameters and error responses', async (t) => {
  const res = await svc.api('/openapi.json', { as: null });
  t.equal(res.status, 200);
  const doc = (await res.json()) as Json;
  t.equal(doc.openapi, '3.1.0');
  for (const r of ROUTES) {
    const op = doc.paths[r.pathTemplate]?.[r.method.toLowerCase()];
    t.ok(op, `${r.method} ${r.pathTemplate} is documented`);
    if (!op) continue;
    t.ok(op.responses[String(r.successStatus)], `${r.rpc}: success response`);
    t.ok(op.responses['422'], `${r.rpc}: 422 response`);
    t.ok(op.responses['404'] && op.responses['401'], `${r.rpc}: 401 and 404 responses`);
  }
  const deck = doc.paths['/api/v1/presentations/generate-deck'].post;
  const body = deck.requestBody.content['application/json'].schema;
  t.equal(body.properties.slides.minItems, 1, 'rules come from the protos');
  t.equal(body.additionalProperties, false);
  t.equal(doc.components.securitySchemes.ApiKey.name, 'X-API-Key');
});

t.test('/docs serves Swagger UI', async (t) => {
  const res = await svc.api('/docs/', { as: null });
  t.equal(res.status, 200);
  t.match(await res.text(), /swagger/i);
});

t.test('gRPC health service reports SERVING', async (t) => {
  const client = new grpc.Client(svc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => client.close());
  // grpc.health.v1.HealthCheckRequest { service = '' } is an empty message; the response's field 1 is the status enum.
  const response = await new Promise<Buffer>((resolve, reject) =>
    client.makeUnaryRequest('/grpc.health.v1.Health/Check', (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), (err, v) => (err ? reject(err) : resolve(v!))),
  );
  t.same([...response], [0x08, 0x01], 'status SERVING (1)');
});

t.test('gRPC server reflection lists the Slidewright services', async (t) => {
  const client = new grpc.Client(svc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => client.close());
  // ServerReflectionRequest { list_services (field 7) = "" }
  const call = client.makeBidiStreamRequest('/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', (b: Buffer) => b, (b: Buffer) => b);
  const reply = await new Promise<Buffer>((resolve, reject) => {
    call.on('data', (b: Buffer) => resolve(b));
    call.on('error', reject);
    call.write(Buffer.from([0x3a, 0x00]));
    call.end();
  });
  const text = reply.toString('latin1');
  for (const name of ['slidewright.v1.TemplateService', 'slidewright.v1.PresentationService', 'slidewright.v1.AnalysisService', 'slidewright.v1.MatchService']) {
    t.ok(text.includes(name), `lists ${name}`);
  }
});
