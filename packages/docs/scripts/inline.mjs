// Browser code and styles inlined into the pages: one esbuild bundle per page (the console, the flow
// page), minified, for the browsers of today, with no import left to fetch.
import { build } from 'esbuild';

/** One self-contained script (IIFE) from a TypeScript entry. */
export async function bundleScript(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    // The client reads process.env only when it exists; a browser has none.
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles[0].text;
}

/** A script element; "</script" inside the code would end it early, so it is escaped. */
export const inlineScript = (code) => `<script>${code.replace(/<\/script/gi, '<\\/script')}</script>`;

export const inlineStyle = (css) => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
