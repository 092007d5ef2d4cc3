# One image for every Slidewright process. The command picks the role:
#   node --max-old-space-size=1024 dist/main/embedded.js   embedded mode, everything in one process (default)
#   node --max-old-space-size=1024 dist/main/core.js       core (gRPC) of a distributed deployment
#   node --max-old-space-size=1024 dist/main/gateway.js    REST gateway (needs CORE_GRPC_ADDR)
#   node --max-old-space-size=1024 dist/main/worker.js     job worker (run any number)
# docker-compose.yml wires the distributed deployment. The flag bounds the main thread's
# V8 heap, so its garbage is collected before the heap grows to 4x what it keeps
# (core/src/threads/heap-limits.ts SERVICE_NODE_FLAGS).
FROM node:20-bookworm-slim

# Open fonts the previews draw with and the text fitter measures against
# (metric-compatible stand-ins for Calibri, Cambria, Arial, Times New Roman, Courier New;
# DejaVu Sans and Serif for other fonts, by class, and for Hebrew and Arabic; Noto Sans CJK
# for Chinese, Japanese and Korean). .ci/run installs the same five.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-crosextra-carlito fonts-crosextra-caladea fonts-liberation2 fonts-dejavu-core fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && mkdir -p /app/data && chown node:node /app/data

ENV NODE_ENV=production
# glibc keeps freed native memory per thread arena and in its heap; two arenas and a fixed
# mmap threshold bound the service's resident memory (core/src/threads/heap-limits.ts SERVICE_PROCESS_ENV)
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=1048576
USER node
EXPOSE 8080 50051
CMD ["node", "--max-old-space-size=1024", "dist/main/embedded.js"]
