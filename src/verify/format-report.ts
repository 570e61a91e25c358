import type { ProbeResult } from './verify-target.ts'

/** A report a person reads: per operation, each probe's verdict, what broke and where. */
export function formatReport(target: string, results: readonly ProbeResult[]): string {
  const lines = [`novu-mock verify ${target}`, '']
  const operations = [...new Set(results.map((r) => r.operationId))]
  for (const operationId of operations) {
    lines.push(operationId)
    for (const r of results.filter((result) => result.operationId === operationId)) {
      if (r.skipped !== undefined) {
        lines.push(`  SKIP ${r.name}: not sent (${r.skipped})`)
        continue
      }
      lines.push(`  ${r.passed ? 'PASS' : 'FAIL'} ${r.name} (${r.method} ${r.path} -> ${r.status ?? 'no answer'})`)
      for (const v of r.violations) {
        const where = v.instancePath !== undefined ? ` at ${v.instancePath || '/'}` : ''
        const value = 'value' in v ? ` (value: ${JSON.stringify(v.value)?.slice(0, 120)})` : ''
        const schema = v.schemaPath ? ` [schema ${v.schemaPath}]` : ''
        lines.push(`       ${v.message}${where}${value}${schema}`)
      }
      for (const note of r.notes) lines.push(`       note: ${note}`)
    }
  }
  const failed = results.filter((r) => !r.passed).length
  const skipped = results.filter((r) => r.skipped !== undefined).length
  lines.push('', `${results.length - skipped} probes, ${failed} failed${skipped > 0 ? `, ${skipped} skipped (SKIP above: the flag that sends each)` : ''}`)
  return `${lines.join('\n')}\n`
}
