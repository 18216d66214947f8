// bundle.mjs — `make explorer`'s last step: inline every stylesheet and
// script that index.html references into one self-contained page, so that it
// opens from file:// without a server (browsers refuse to fetch a .wasm or
// load ES modules from file://; posenc_wasm.js already embeds the .wasm).
//   node explorer/bundle.mjs explorer/index.html OUT.html DIR...
// Each referenced file is looked up in the DIRs in order.
import { readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const [, , src, out, ...dirs] = process.argv;
if (!src || !out || dirs.length === 0) {
  console.error('usage: node bundle.mjs index.html OUT.html DIR...');
  process.exit(2);
}
function find(name) {
  for (const d of dirs) if (existsSync(join(d, name))) return join(d, name);
  console.error(`bundle.mjs: ${name} (referenced by ${src}) is in none of ${dirs.join(', ')}`);
  process.exit(1);
}
// Nothing inlined may close its own element early.
const safe = (text, tag) => text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);
let html = readFileSync(src, 'utf8');
let n = 0;
html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (_, f) => {
  n++;
  return `<style>/* ${f} */\n${safe(readFileSync(find(f), 'utf8'), 'style')}\n</style>`;
});
html = html.replace(/<script src="([^"]+)"><\/script>/g, (_, f) => {
  n++;
  return `<script>/* ${f} */\n${safe(readFileSync(find(f), 'utf8'), 'script')}\n</script>`;
});
if (/<(link|script)[^>]+(href|src)=/.test(html)) {
  console.error('bundle.mjs: a reference is left that was not inlined');
  process.exit(1);
}
writeFileSync(`${out}.tmp`, html); // whole file or nothing
renameSync(`${out}.tmp`, out);
console.log(`${out}: ${n} files inlined, ${html.length} bytes`);
