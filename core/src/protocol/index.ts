/**
 * The wire protocol shared by core and the REST gateway, beyond what proto/gen generates:
 * gRPC metadata keys and the REST paths core writes into signed URLs. Core and the
 * gateway both import it; it imports nothing of either.
 */
export { MD, type MetadataKey } from './metadata.js';
export { GrpcStatusError } from './grpc-error.js';
export { restPath, uploadPath, templateDownloadPath, downloadPath, generationStatusPath } from './paths.js';
