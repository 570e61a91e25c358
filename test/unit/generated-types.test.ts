import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const generator = join('node_modules', '.bin', 'openapi-typescript')

/** The TypeScript types are derived from spec/, never written by hand: `npm run gen:types`. */
describe('types generated from the documents', () => {
  it.each([
    ['spec/openapi.yaml', 'src/contract/generated/openapi-types.ts'],
    ['spec/admin.yaml', 'src/contract/generated/admin-types.ts'],
  ])('%s matches %s', (document, committed) => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'novu-mock-types-')), 'types.ts')
    execFileSync(generator, [document, '--empty-objects-unknown', '-o', fresh], { stdio: 'ignore' })
    expect(readFileSync(fresh, 'utf8'), `run npm run gen:types after changing ${document}`).toBe(readFileSync(committed, 'utf8'))
  })
})
