// Run by `npm run build`, after Vite: writes `<file>.gz` and `<file>.br` beside every text file
// of dist/, which the API serves to browsers that accept them (api/src/spa.rs). Compressing
// once at build time affords the slow, dense encoders: zopfli for gzip (valid gzip, some 3%
// smaller than zlib's best) and Brotli at its highest quality.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import zopfli from "@gfx/zopfli";

const DIST = new URL("../dist/", import.meta.url).pathname;
/** Formats that are already compressed (fonts, images) gain nothing. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

let count = 0;
for (const path of files(DIST)) {
  const content = readFileSync(path);
  writeFileSync(`${path}.gz`, await zopfli.gzipAsync(content, { numiterations: 15 }));
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  );
  count += 1;
}
console.log(`compressed ${count} files of dist/ (gzip by zopfli, and brotli)`);
