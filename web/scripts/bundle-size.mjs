// Reports the gzipped size of what the login page loads before any lazy
// chunk: the entry script, its modulepreloads and the stylesheets linked
// from dist/index.html. Fails when it exceeds the budget (250 KB gzipped).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);

let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  initial JS + CSS (gzip), budget ${BUDGET_KB} KB`);
if (total > BUDGET_KB * 1024) {
  console.error('Over budget: lazy-load what the login page does not need.');
  process.exit(1);
}
