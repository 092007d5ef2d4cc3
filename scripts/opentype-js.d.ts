/** opentype.js ships no types; scripts/gen-font-metrics.ts narrows what it uses itself. */
declare module 'opentype.js' {
  const opentype: unknown;
  export default opentype;
}
