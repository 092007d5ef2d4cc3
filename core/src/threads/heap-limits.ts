/**
 * V8 heap limits of the CPU threads (`worker_threads` resource limits), in a module of their
 * own so the benchmarks can run the engine with the same heap without loading the pool.
 */

/**
 * Largest old-generation heap of a CPU thread, MiB: bounded so a hostile file fails its task,
 * not the process. 2048, not less: V8 grows a heap whose bound is under 2 GiB by a factor of
 * at most 1.3–2 between full collections, and by 4 from 2 GiB on, and the work here (parsed
 * XML trees, laid-out text, drawing) keeps enough alive that the smaller factor doubled the
 * time spent collecting garbage when rendering previews (`npm run bench -- render`).
 */
export const THREAD_OLD_GENERATION_MB = 2048;

/**
 * Young generation of a CPU thread by default, MiB (`SLIDEWRIGHT_THREAD_YOUNG_GENERATION_MB`):
 * V8 sizes it as three semi-spaces, so 12 gives 4 MiB semi-spaces instead of the 16 MiB V8
 * grows to on its own while the first templates are parsed. A deck build keeps only its
 * templates and the slide being written alive (a 100-slide deck: ~15 MB live, ~40 MB
 * allocated), so the larger one mostly holds garbage: ~25 MiB of resident memory per
 * thread (peak RSS of one 100-slide deck 106 → 82 MiB). The price is ~4× as many
 * scavenges, ~8 % of a warm deck's time; 18 or 24 MiB save no memory over 48 (the peak is
 * set by the first scavenges' growth), so the choice is 12 or the default.
 * `npm run bench -- generate` reports both.
 */
export const THREAD_YOUNG_GENERATION_MB = 12;

/**
 * Largest old-generation heap of the threads that serve requests, MiB: each service
 * process's main thread (by {@link SERVICE_NODE_FLAGS}) and embedded mode's gateway thread
 * (its `worker_threads` resource limits). V8 lets a heap whose bound is 2 GiB or more grow to
 * 4× what the last full collection kept before it collects again, and node's default bound
 * is about 4 GiB on a machine with 16 GiB of memory or more; under 2 GiB the factor is
 * 1.3–2 (about 1.6 at 1,024). These threads keep little alive (the main thread of an
 * embedded service ~44 MB after 100 decks: code, module sources, the request validators),
 * but every deck and request leaves garbage old enough to be promoted, which the larger
 * factor left in place: after 100 reference decks the main thread had 111 MB committed for
 * 44 MB kept, and the process's RSS was 413–476 MiB; with 1,024 it was 360–362 MiB
 * (512: 347–360; `npm run bench -- memory`, 100 decks). 1,024 leaves the threads 20× what
 * they keep; uploads and deck files are buffers outside this heap.
 */
export const REQUEST_THREAD_OLD_GENERATION_MB = 1024;

/**
 * Node flags every service process starts with, before its script: the start scripts of
 * package.json, the Dockerfile's command, docker-compose's commands and the service
 * benchmarks pass them. They bound the main thread's heap as {@link REQUEST_THREAD_OLD_GENERATION_MB}
 * says (V8 sets a heap's bounds when the thread starts, so they cannot be set from inside).
 * Tests that run the service in their own process do without: only its memory differs.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = [`--max-old-space-size=${REQUEST_THREAD_OLD_GENERATION_MB}`];

/**
 * Default `nice(2)` increment of the CPU threads (`SLIDEWRIGHT_THREAD_NICE`): they run deck
 * builds, analyses and rendering flat out, and with as many busy CPU threads as cores the
 * REST gateway's and core's event loops waited for a time slice behind them. At +10 the
 * kernel gives a request thread ~10× the weight of a CPU thread when both want a core (CFS
 * weights 1024 vs 110); idle request threads cost the builds nothing. Status GETs while 4
 * decks build on 2 cores, 0 vs 10 (taking turns, machine shared): 605/693 vs 1,399/1,335
 * req/s, p99 341/224 vs 134/134 ms, with as many decks built meanwhile (8/7 vs 7/6).
 * Piscina applies it through `@napi-rs/nice`; threads a CPU thread starts inherit it.
 */
export const CPU_THREAD_NICE = 10;

/**
 * Environment every service process starts with: `npm start` and the other start scripts
 * (package.json), the Dockerfile, the test runner (test/run.ts: the tests run the service
 * in their own process) and the service benchmark set it; a value already in the
 * environment wins.
 *
 * `MALLOC_ARENA_MAX=2`: glibc's allocator gives each thread that allocates natively its own
 * arena (up to 8 per core) and keeps what is freed there for that arena. The service has
 * the main thread, the gateway thread, the CPU threads and libuv's pool inflating, drawing
 * and compressing, so a large upload's freed buffers stayed resident in several arenas at
 * once: over the hostile catalog (test/e2e/hostile-uploads.test.ts) the process peaked at
 * 1,873–2,097 MiB with the default and 1,548–1,553 MiB with two arenas, of which the V8
 * heaps and the buffers still in use were ~800 MiB.
 *
 * `MALLOC_MMAP_THRESHOLD_=1048576`: allocations of 1 MiB and more get pages of their own,
 * returned to the system when freed. glibc otherwise raises that threshold each time such a
 * block is freed, so after the first large upload later large buffers (inflated parts, a
 * 16 MiB CJK face being extracted) came from the arenas and stayed resident: the catalog's
 * peak in a fresh clone was still 1,853–2,085 MiB with two arenas alone.
 *
 * Both are read by glibc when the process starts, so they cannot be set from inside it.
 */
export const SERVICE_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' };

/** `env` with {@link SERVICE_PROCESS_ENV} added where `env` does not set those variables. */
export function withServiceProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const [k, v] of Object.entries(SERVICE_PROCESS_ENV)) out[k] ??= v;
  return out;
}
