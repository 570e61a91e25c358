import { expect } from 'vitest'
import { loadContracts } from '../../src/app/create-state.ts'

/** Asserts an answer is one Novu's document allows for the operation: status listed, body valid against its schema. */
export async function expectNovuContract(operationId: string, answer: { status: number; body: unknown }): Promise<void> {
  const { novu } = await loadContracts()
  const validate = novu.operations.get(operationId)?.responseValidators.get(answer.status)
  expect(validate, `status ${answer.status} documented for ${operationId}`).toBeDefined()
  expect(validate!(answer.body) ? [] : validate!.errors, `body of ${operationId} ${answer.status}`).toEqual([])
}
