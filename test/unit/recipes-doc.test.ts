import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO } from '../helpers/packed-install.ts'

/** The TypeScript blocks of docs/recipes.md, each with the file the comment above it names. */
function quotedBlocks(): Array<{ source: string | undefined; code: string }> {
  const text = readFileSync(join(REPO, 'docs', 'recipes.md'), 'utf8')
  return [...text.matchAll(/(?:<!-- from (\S+) -->\n)?```ts\n([\s\S]*?)```/g)].map(([, source, code]) => ({ source, code: code! }))
}

/** Lines without their indentation: a quote may be dedented out of a describe block. */
const unindented = (code: string) =>
  code
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim()

describe('docs/recipes.md', () => {
  const blocks = quotedBlocks()

  it('quotes its TypeScript from files the suite runs, each block naming its file', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4)
    expect(blocks.filter((block) => block.source === undefined).map((block) => block.code)).toEqual([])
  })

  it('imports every SDK error class it uses, from the path that resolves under nodenext', () => {
    const code = blocks.map((block) => block.code).join('\n')
    for (const name of ['SDKError', 'ErrorDto', 'ValidationErrorDto']) {
      if (!new RegExp(`\\b${name}\\b`).test(code)) continue
      expect(code).toMatch(new RegExp(`^import \\{[^}]*\\b${name}\\b[^}]*\\} from '@novu/api/models/errors/index\\.js'$`, 'm'))
    }
  })

  it.each(blocks.filter((block) => block.source !== undefined).map((block) => [block.source!, block.code]))('quotes %s as it stands', (source, code) => {
    expect(unindented(readFileSync(join(REPO, source), 'utf8'))).toContain(unindented(code))
  })
})
