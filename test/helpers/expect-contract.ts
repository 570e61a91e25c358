import { expect } from 'vitest'
import { loadContracts } from '../../src/app/create-state.ts'

interface Answer {
  status: number
  body: unknown
}

/**
 * Asserts that an answer is one the document allows for this operation: the status is listed and
 * the body validates, with the server's own compiled validators.
 */
export async function expectContract(operationId: string, answer: Answer, document: 'api' | 'admin' | 'novu' = 'api'): Promise<void> {
  const contracts = await loadContracts()
  const operation = contracts[document].operations.get(operationId)
  expect(operation, `operation ${operationId}`).toBeDefined()
  const validate = operation!.responseValidators.get(answer.status)
  expect(validate, `status ${answer.status} documented for ${operationId}`).toBeDefined()
  const valid = validate!(answer.body)
  expect(valid ? [] : validate!.errors, `body of ${operationId} ${answer.status}`).toEqual([])
}

/** For answers outside any operation (an unknown route): the ErrorDto schema. */
export async function expectErrorDto(body: unknown): Promise<void> {
  const { api } = await loadContracts()
  const validate = api.schemas.get('ErrorDto')!
  expect(validate(body) ? [] : validate.errors).toEqual([])
}
