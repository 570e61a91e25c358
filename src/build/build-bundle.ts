// The build's last step (after tsc and build-contract): `node dist/src/build/build-bundle.js`.
import { build } from 'esbuild'
import { packagePath } from '../lib/package-path.ts'

/**
 * The CLI, the library (the package root) and `novu-mock/msw`, each as one file over chunks they share, plus a
 * chunk per import made only when needed (seeding, the document loader): a start reads a handful
 * of files rather than resolving and reading some 260 modules, which took most of it
 * (docs/decisions.md, 2026-11-24). `bin/novu-mock.js` runs `cli.js`, `import 'novu-mock'` loads
 * `index.js` (typed by the declarations in `dist/src/`). What is loaded through `createRequire`
 * (Ajv, ajv-formats, pino-pretty) and the build's validators stay files of their own.
 */
await build({
  entryPoints: [
    { in: packagePath('dist/src/cli/main.js'), out: 'cli' },
    { in: packagePath('dist/src/index.js'), out: 'index' },
    // `novu-mock/msw`: the same state and core, mounted as msw handlers.
    { in: packagePath('dist/src/msw/index.js'), out: 'msw' },
  ],
  outdir: packagePath('dist/bundle'),
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // Loaded only with --db (a native module) or --redis (docs/decisions.md): never bundled, imported from node_modules.
  // msw is the user's own (an optional peer dependency): imported from their node_modules, one copy with their setupServer.
  external: ['better-sqlite3', 'ioredis', 'msw'],
  // The bundled CommonJS modules (express's, pino's) call require; an ES module has none of its own.
  // The import is renamed: the bundle imports createRequire too, under its own name.
  banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
})
