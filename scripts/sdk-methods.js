// Writes spec/novu/sdk-methods.json: each operationId of Novu's document and the method path the
// official SDK (@novu/api, a dev dependency) calls it by, read from the SDK's own sdk/*.js and
// funcs/*.js. Run after upgrading the SDK: `node scripts/sdk-methods.js`.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const root = dirname(require.resolve('@novu/api/package.json'))
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version

/** `const x_js_1 = require("./x.js")` → x_js_1 → file. */
const importsOf = (text) => new Map([...text.matchAll(/const (\w+) = require\("(\.\.?\/[^"]+)"\)/g)].map((m) => [m[1], m[2]]))

const methods = {}
function walk(file, prefix) {
  const text = readFileSync(file, 'utf8')
  const imports = importsOf(text)
  for (const [, name, variable] of text.matchAll(/get (\w+)\(\) \{\s*return \(this\._\w+ \?\? \(this\._\w+ = new (\w+)\./g)) {
    walk(join(dirname(file), imports.get(variable)), [...prefix, name])
  }
  for (const [, name, variable] of text.matchAll(/async (\w+)\([^)]*\) \{\s*return \(0, fp_js_1\.unwrapAsync\)\(\(0, (\w+)\./g)) {
    const func = readFileSync(join(dirname(file), imports.get(variable)), 'utf8')
    const operationId = /operationID: "([^"]+)"/.exec(func)?.[1]
    if (!operationId) throw new Error(`no operationID in ${imports.get(variable)}`)
    methods[operationId] = [...prefix, name].join('.')
  }
}
walk(join(root, 'sdk/sdk.js'), [])
const sorted = Object.fromEntries(Object.entries(methods).sort(([a], [b]) => a.localeCompare(b)))
writeFileSync('spec/novu/sdk-methods.json', `${JSON.stringify({ sdk: `@novu/api ${version}`, methods: sorted }, null, 2)}\n`)
process.stdout.write(`${Object.keys(sorted).length} methods of @novu/api ${version}\n`)
