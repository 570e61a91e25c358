import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Ajv2020 } from 'ajv/dist/2020.js'
import standaloneModule from 'ajv/dist/standalone/index.js'
import { createAjvInstances, type ValidatorKind } from '../contract/ajv-instances.ts'
import { ADMIN_DOCUMENT, API_DOCUMENT, documentName, loadContracts } from '../contract/load-contract.ts'
import { INDEX_FILE, PRECOMPILED_DIR, specHash, type PrecompiledIndex } from '../contract/precompiled.ts'
import type { ValidatorSource } from '../contract/validator-source.ts'
import { NOVU } from '../contract/novu/novu-document.ts'

// CommonJS; under NodeNext its default import is the module object.
const standaloneCode = standaloneModule.default

/**
 * Compiles every validator of both documents and writes them out as code, with the dereferenced
 * documents and the index that `precompiled` reads at start-up. One CommonJS file per validator:
 * ajv's standalone output `require`s its runtime helpers, and start-up loads only those it uses.
 */
export async function precompileValidators(dir = PRECOMPILED_DIR): Promise<number> {
  const ajv = createAjvInstances({ keepSource: true })
  const compiled: { instance: Ajv2020; key: string }[] = []
  const recording: ValidatorSource = {
    validator(kind: ValidatorKind, key, schema) {
      const instance = ajv[kind]
      instance.addSchema(schema(), key)
      compiled.push({ instance, key })
      return instance.getSchema(key)!
    },
  }
  const { api, admin, novu } = await loadContracts({ source: recording, build: undefined })
  for (const operation of [...api.operations.values(), ...admin.operations.values(), ...novu.operations.values()]) operation.warm()

  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const documents = { [documentName(API_DOCUMENT)]: api.document, [documentName(ADMIN_DOCUMENT)]: admin.document, [NOVU]: novu.document }
  const index: PrecompiledIndex = { specHash: specHash(), documents, validators: {} }
  const own = compiled.filter(({ key }) => !key.startsWith(`${NOVU}:`))
  own.forEach(({ instance, key }, i) => {
    const file = `v${i}.cjs`
    writeFileSync(join(dir, file), standaloneCode(instance, { validate: key }))
    index.validators[key] = { file, name: 'validate' }
  })
  // Novu's validators share its components: one file per instance, each validator an export of it, loaded at its first call.
  const novuKeys = compiled.filter(({ key }) => key.startsWith(`${NOVU}:`))
  ;[...new Set(novuKeys.map((entry) => entry.instance))].forEach((instance, n) => {
    const file = `${NOVU}-${n}.cjs`
    const exports = novuKeys.filter((entry) => entry.instance === instance).map(({ key }, i) => [`v${i}`, key] as const)
    writeFileSync(join(dir, file), standaloneCode(instance, Object.fromEntries(exports)))
    for (const [name, key] of exports) index.validators[key] = { file, name }
  })
  writeFileSync(join(dir, INDEX_FILE), JSON.stringify(index))
  return compiled.length
}
