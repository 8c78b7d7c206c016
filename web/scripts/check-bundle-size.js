// Run by `npm run build`, after scripts/compress-assets.js: sums the gzipped JavaScript the
// first page needs when a visitor lands on / (landing page) or /login, as the API ships it
// (the .gz files): the entry chunk with its static imports, plus the route's own lazy chunk
// with its static imports. Fails the build over the budget.
import { readFileSync, statSync } from "node:fs";

/**
 * The budget of one first page load, in kB (1000 bytes, as Vite prints sizes). The libraries
 * take most of it: react-dom 65.7, react-router 13.6 (declarative mode; its data router
 * would add 17), react-query 13.8 kB gzipped.
 */
const BUDGET_KB = 100;

/**
 * Each first page and the chunk its route loads besides the entry (null: in the entry), by
 * the chunk's name (vite.config.ts names the login page's chunk).
 */
const FIRST_PAGES = [
  { name: "landing (/)", chunk: null },
  { name: "login (/login)", chunk: "login" },
];

const DIST = new URL("../dist/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL(".vite/manifest.json", DIST), "utf8"));

/** The chunk files `key` loads at once: its own and those of its static imports, transitively. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

/** Bytes on the wire: the precompressed files the API serves (api/src/spa.rs). */
const shippedBytes = (file, encoding) => statSync(new URL(`${file}.${encoding}`, DIST)).size;
const kB = (bytes) => (bytes / 1000).toFixed(2);

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
let over = false;
for (const page of FIRST_PAGES) {
  const files = staticClosure(entry);
  if (page.chunk) {
    const key = Object.keys(manifest).find((candidate) => manifest[candidate].name === page.chunk);
    if (!key) throw new Error(`no chunk is named ${page.chunk} in the build manifest`);
    staticClosure(key, files);
  }
  const js = [...files].filter((file) => file.endsWith(".js"));
  const total = js.reduce((sum, file) => sum + shippedBytes(file, "gz"), 0);
  const brotli = js.reduce((sum, file) => sum + shippedBytes(file, "br"), 0);
  const verdict = total <= BUDGET_KB * 1000 ? "ok" : "OVER BUDGET";
  console.log(
    `first load of ${page.name}: ${kB(total)} kB of gzipped JS in ${js.length} files (budget ${BUDGET_KB} kB) ${verdict}; ${kB(brotli)} kB as brotli`,
  );
  over ||= total > BUDGET_KB * 1000;
}
if (over) {
  console.error(`The first page load ships more than ${BUDGET_KB} kB of gzipped JavaScript.`);
  process.exit(1);
}
