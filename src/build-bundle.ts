// The build's last step (after tsc and build-contract): `node dist/src/build-bundle.js`.
import { build } from 'esbuild'
import { packagePath } from './package-path.ts'

/**
 * The CLI and what it imports as one file, plus a chunk per import it makes only when needed
 * (seeding, the document loader): a start reads a handful of files rather than resolving and
 * reading some 260 modules, which took most of it (docs/decisions.md, 2026-11-24).
 * `bin/novu-mock.js` runs it; `dist/src/` stays for programmatic use. What is loaded through
 * `createRequire` (Ajv, ajv-formats, pino-pretty) and the build's validators stay files of their own.
 */
await build({
  entryPoints: [packagePath('dist/src/cli.js')],
  outdir: packagePath('dist/bundle'),
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // A native module, and an optional one: loaded from node_modules, only for --db.
  external: ['better-sqlite3'],
  // The bundled CommonJS modules (express's, pino's) call require; an ES module has none of its own.
  // The import is renamed: the bundle imports createRequire too, under its own name.
  banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
})
