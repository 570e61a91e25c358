import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadContracts } from './load-contract.ts'
import { INDEX_FILE, PRECOMPILED_DIR, precompiled, type PrecompiledIndex } from './precompiled.ts'
import { compilingSource } from './validator-source.ts'

/** npm test builds first, so the build's contract is there and current. */
describe('the build’s compiled contract', () => {
  const copies: string[] = []
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

  it('is current and used: its validators are the code it wrote, not compiled now', async () => {
    const build = precompiled()
    expect(build, 'run npm run build').toBeDefined()
    const compiles: string[] = []
    const counting = compilingSource()
    const { api, admin } = await loadContracts({ build, source: build!.source({ validator: (kind, key, schema) => (compiles.push(key), counting.validator(kind, key, schema)) }) })
    for (const operation of [...api.operations.values(), ...admin.operations.values()]) operation.warm()
    expect(compiles).toEqual([])
  })

  it('is ignored once a document changes after the build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-build-'))
    copies.push(dir)
    cpSync(PRECOMPILED_DIR, dir, { recursive: true })
    const index = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as PrecompiledIndex
    writeFileSync(join(dir, INDEX_FILE), JSON.stringify({ ...index, specHash: 'an older document' }))
    expect(precompiled(dir)).toBeUndefined()
  })

  it('judges every answer as the validators compiled from the documents do', async () => {
    const build = await loadContracts()
    const fresh = await loadContracts({ build: undefined })
    const disagreements: string[] = []
    for (const name of ['api', 'admin'] as const) {
      for (const operation of build[name].operations.values()) {
        const compiled = fresh[name].operations.get(operation.operationId)!
        for (const status of [200, 201, 204, 400, 401, 404, 409, 413, 415, 422, 429, 500, 503]) {
          const example = operation.example(status) ?? { statusCode: status, message: 'x' }
          const [a, b] = [operation.responseValidators.get(status), compiled.responseValidators.get(status)]
          if (!a || !b) {
            if (a !== b) disagreements.push(`${operation.operationId} ${status}: documented in one only`)
            continue
          }
          if (a(example) !== b(example)) disagreements.push(`${operation.operationId} ${status}`)
        }
      }
    }
    expect(disagreements).toEqual([])
  })
})
