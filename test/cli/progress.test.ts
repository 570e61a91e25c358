import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedState } from '../../src/seed/generators/seed.ts'
import { PROGRESS_THRESHOLD, seedProgressBar } from '../../src/cli/progress.ts'
import { BIN, cleanEnv, hasScript, runCli } from '../helpers/cli.ts'

const LARGE = { subscribers: 50, channelConnections: 60_000 }
const SMALL = { subscribers: 50, channelConnections: 120 }

/** A stream that says it is a terminal, keeping what is written to it. */
const fakeTerminal = (isTTY = true) => {
  const writes: string[] = []
  return { isTTY, writes, write: (text: string) => writes.push(text) }
}

describe('the seeding progress bar', () => {
  it('is redrawn in place on a terminal as the seed grows, and ends its line at 100%', () => {
    const terminal = fakeTerminal()
    const bar = seedProgressBar(terminal, LARGE)!
    expect(bar).toBeDefined()
    for (let done = 0; done <= 60_000; done += 600) bar(done, 60_000)
    bar(60_000, 60_000) // the same percentage again: nothing more drawn
    expect(terminal.writes).toHaveLength(101)
    expect(terminal.writes.every((text) => text.startsWith('\rseeding ['))).toBe(true)
    expect(terminal.writes[50]).toBe('\rseeding [###############---------------]  50% 30,000/60,000 records')
    expect(terminal.writes.at(-1)).toBe('\rseeding [##############################] 100% 60,000/60,000 records\n')
  })

  it('is not drawn when the stream is no terminal, or the seed is small', () => {
    expect(seedProgressBar(fakeTerminal(false), LARGE)).toBeUndefined()
    expect(seedProgressBar({ write: () => true }, LARGE)).toBeUndefined()
    expect(seedProgressBar(fakeTerminal(), SMALL)).toBeUndefined()
    // connections + subscribers + messages: drawn only above the threshold
    expect(seedProgressBar(fakeTerminal(), { subscribers: 2, channelConnections: PROGRESS_THRESHOLD - 15, messages: 13 })).toBeUndefined()
    expect(seedProgressBar(fakeTerminal(), { subscribers: 2, channelConnections: PROGRESS_THRESHOLD - 14, messages: 13 })).toBeDefined()
  })

  it('gets counts from the seeding that only grow, ending at the number of generated records', () => {
    const calls: [number, number][] = []
    const state = seedState({ seed: 1, subscribers: 1000, channelConnections: 3000 }, (done, total) => void calls.push([done, total]))
    const generated = state.subscribers.length - 2 + state.channelConnections.length + state.messages.length - 13
    expect(calls.at(-1)).toEqual([generated, generated])
    expect(calls.length).toBeGreaterThan(5)
    expect(calls.every(([done, total], i) => total === generated && done <= total && (i === 0 || done >= calls[i - 1]![0]))).toBe(true)
  })

  it('leaves stderr empty when it is not a terminal, however large the seed', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'novu-mock-progress-')), 'state.json')
    const { code, stderr } = await runCli(['seed', '--connections', '60000', '--out', out])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(JSON.parse(readFileSync(out, 'utf8')).channelConnections).toHaveLength(60_000)
  })

  it.skipIf(!hasScript)('is drawn on a real terminal (through script(1))', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'novu-mock-progress-')), 'state.json')
    const command = `node ${BIN} seed --connections 60000 --out ${out}`
    const typed = await new Promise<string>((resolve, reject) =>
      execFile('script', ['-qec', command, '/dev/null'], { env: cleanEnv() }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    )
    expect(typed).toMatch(/\rseeding \[#{30}\] 100% 60,288\/60,288 records\r?\n/)
  })
})
