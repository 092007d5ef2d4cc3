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
