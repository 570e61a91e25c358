import { readFileSync } from 'node:fs'
import { createConfig, lint } from '@redocly/openapi-core'
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core'
import Parsers from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { describe, expect, it } from 'vitest'

interface Finding {
  severity: 'error' | 'warn' | 'info' | 'hint'
  /** `<rule> <JSON pointer>`, then the linter's message. */
  where: string
  message: string
}

/**
 * Warnings kept on purpose, as `<rule>` (anywhere) or `<rule> <pointer>`. The documents name
 * their licence but no contact (the project has no address to give); the health check answers
 * 200 whatever it is sent, so it documents no 4xx.
 */
const ACCEPTED: Record<string, string[]> = {
  'spec/openapi.yaml': ['info-contact'],
  'spec/admin.yaml': ['info-contact', 'operation-4xx-response /paths/~1__admin~1health/get/responses'],
}

const pointer = (path: readonly (string | number)[]) => path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')

/** Spectral's `spectral:oas` ruleset. */
async function spectral(file: string): Promise<Finding[]> {
  const linter = new Spectral()
  // The rulesets package types its export with its own copy of spectral-core's types.
  linter.setRuleset(oas as RulesetDefinition)
  const results = await linter.run(new Document(readFileSync(file, 'utf8'), Parsers.Yaml, file))
  const severities = ['error', 'warn', 'info', 'hint'] as const
  return results.map((result) => ({ severity: severities[result.severity], where: `${String(result.code)} ${pointer(result.path)}`, message: result.message }))
}

/** Redocly's `recommended` ruleset, from the library: no CLI, so nothing is sent anywhere. */
async function redocly(file: string): Promise<Finding[]> {
  const problems = await lint({ ref: file, config: await createConfig({ extends: ['recommended'] }) })
  return problems.map((problem) => ({ severity: problem.severity, where: `${problem.ruleId} ${problem.location[0]?.pointer?.replace(/^#/, '') ?? ''}`, message: problem.message }))
}

const unaccepted = (file: string, findings: Finding[]) =>
  findings.filter(({ where }) => !ACCEPTED[file]!.some((rule) => where === rule || where.startsWith(`${rule} `)))

describe.each(['spec/openapi.yaml', 'spec/admin.yaml'])('%s', (file) => {
  it.each([
    ['Spectral (spectral:oas)', spectral],
    ['Redocly (recommended)', redocly],
  ])('is clean for %s: no error, no warning but the accepted ones', async (_, linter) => {
    const findings = await linter(file)
    expect(findings.filter((finding) => finding.severity === 'error')).toEqual([])
    expect(unaccepted(file, findings)).toEqual([])
  })
})
