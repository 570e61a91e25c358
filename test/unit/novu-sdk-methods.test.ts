// spec/novu/sdk-methods.json names every operation of Novu's document by a method the installed SDK has (scripts/sdk-methods.js writes it).
import { Novu } from '@novu/api'
import { describe, expect, it } from 'vitest'
import { novuOperationsDocument } from '../../src/contract/novu/novu-document.ts'
import { sdkMethodsOf } from '../../src/contract/novu/operation-names.ts'

describe('the SDK method of each operation', () => {
  const methods = sdkMethodsOf()
  it("names every operation of Novu's document, each by a method of its own", () => {
    const ids = Object.values(novuOperationsDocument().paths ?? {}).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId))
    expect(Object.keys(methods).sort()).toEqual([...ids].sort())
    expect(new Set(Object.values(methods)).size).toBe(ids.length)
  })

  it('names methods the installed SDK has', () => {
    const novu = new Novu({ secretKey: 'x' }) as unknown as Record<string, unknown>
    for (const path of Object.values(methods)) {
      const target = path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], novu)
      expect(typeof target, path).toBe('function')
    }
  })
})
