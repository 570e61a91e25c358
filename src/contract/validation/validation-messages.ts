import type { ErrorObject } from 'ajv/dist/2020.js'

const OBJECT_ID = 'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds'

/**
 * The live service's wording of a broken rule (class-validator's default messages), keyed by
 * `property|rule`, where `*` stands for any property and any rule. The most specific key wins:
 * `property|rule`, then `property|*`, then `*|rule`. `{p}` is the property's path
 * (`credentials.deviceTokens`), `{limit}` the bound of a minimum or maximum, `{values}` the
 * allowed values in the document's order, `{pattern}` a pattern as a literal (`/^a$/`). See docs/behaviour.md §1.2.
 */
export const MESSAGES: Readonly<Record<string, string>> = {
  '*|required': '{p} should not be null or undefined',
  '*|type:string': '{p} must be a string',
  '*|type:array': '{p} must be an array',
  '*|type:object': '{p} must be an object',
  '*|type:boolean': '{p} must be a boolean value',
  '*|type:integer': '{p} must be an integer number',
  '*|type:number': '{p} must be a number conforming to the specified constraints',
  '*|each:type:string': 'each value in {p} must be a string',
  '*|maximum': '{p} must not be greater than {limit}',
  '*|minimum': '{p} must not be less than {limit}',
  '*|enum': '{p} must be one of the following values: {values}',
  '*|pattern': '{p} must match {pattern} regular expression',
  '*|minLength': '{p} must be longer than or equal to {limit} characters',
  '*|maxLength': '{p} must be shorter than or equal to {limit} characters',
  '*|minItems': '{p} must contain at least {limit} elements',
  '*|maxItems': '{p} must contain no more than {limit} elements',
  '*|format:email': '{p} must be an email',
  '*|format:uuid': '{p} must be a UUID',
  '*|format:date-time': '{p} must be a valid ISO 8601 date string',
  '*|format:uri': '{p} must be a URL address',
  'body:providerId|enum': 'providerId must be a valid provider ID',
  'body:messageId|*': OBJECT_ID,
  // Both of the live service's validators on messageId fail when it is missing.
  'body:messageId|required': `messageId should not be null or undefined\n${OBJECT_ID}`,
  'path:integrationId|pattern': 'integrationId must be a mongodb id',
}

/** Where in the request a problem lies; path parameters keep a key of their own (docs/behaviour.md §2.3). */
export type Location = 'path' | 'query' | 'header' | 'body'

/** One broken rule of one property, as the live service names it. */
export interface Problem {
  location: Location
  /** The property's path, dotted: `limit`, `credentials.deviceTokens`. */
  property: string
  rule: string
  messages: string[]
}

/**
 * Ajv's errors as problems, one per property and rule: the branches of an `anyOf` that fail
 * together, or a rule broken by several items of one array, make one problem. A property whose
 * type is wrong reports that alone (a repeated `orderBy` is not a string, whatever its values).
 */
export function problemsOf(errors: readonly ErrorObject[], location: (segments: string[]) => { location: Location; segments: string[] }): Problem[] {
  const problems = new Map<string, Problem>()
  for (const error of errors) {
    if (error.keyword === 'anyOf') continue
    const where = location(pointerSegments(error.instancePath))
    const { segments, rule } = ruleOf(error, where.segments)
    const property = segments.join('.')
    const messages = messagesFor(where.location, property, rule, error)
    problems.set(`${where.location}:${property}|${messages.join('\n')}`, { location: where.location, property, rule, messages })
  }
  return onlyTypeWhereTypeBroke([...problems.values()])
}

function ruleOf(error: ErrorObject, segments: string[]): { segments: string[]; rule: string } {
  if (error.keyword === 'required') return { segments: [...segments, String(error.params.missingProperty)], rule: 'required' }
  const rule = error.keyword === 'type' || error.keyword === 'format' ? `${error.keyword}:${error.params[error.keyword]}` : error.keyword
  const last = segments.at(-1)
  // An array's item: class-validator words it for the array ("each value in …").
  if (last !== undefined && /^\d+$/.test(last)) return { segments: segments.slice(0, -1), rule: `each:${rule}` }
  return { segments, rule }
}

function messagesFor(location: Location, property: string, rule: string, error: ErrorObject): string[] {
  const own = `${location}:${property}`
  const template = MESSAGES[`${own}|${rule}`] ?? MESSAGES[`${own}|*`] ?? MESSAGES[`*|${rule}`]
  if (template === undefined) return [`${property} ${error.message ?? `must pass "${error.keyword}"`}`]
  const values = Array.isArray(error.params.allowedValues) ? error.params.allowedValues.join(', ') : ''
  return template
    .replaceAll('{p}', property)
    .replaceAll('{limit}', String(error.params.limit))
    .replaceAll('{values}', values)
    .replaceAll('{pattern}', `/${String(error.params.pattern)}/`)
    .split('\n')
}

function onlyTypeWhereTypeBroke(problems: Problem[]): Problem[] {
  const typeBroken = new Set(problems.filter((p) => p.rule.startsWith('type:')).map((p) => `${p.location}:${p.property}`))
  return problems.filter((p) => p.rule.startsWith('type:') || !typeBroken.has(`${p.location}:${p.property}`))
}

export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}
