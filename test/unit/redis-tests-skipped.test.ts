import { describe, expect, it } from 'vitest'
import { redisTestsSkipped } from '../helpers/redis-server.ts'

describe('the --redis tests without redis-server', () => {
  it('are skipped with one line saying why and how to install it', () => {
    const line = redisTestsSkipped({}, false)
    expect(line).toMatch(/^--redis tests skipped: no redis-server at \/usr\/bin\/redis-server \(apt-get install -y redis-server/)
    expect(line).not.toContain('\n')
    expect(redisTestsSkipped({ CI: 'false' }, false)).toBe(line)
  })

  it('run under CI, where a missing redis-server must fail them, and wherever it is installed', () => {
    expect(redisTestsSkipped({ CI: 'true' }, false)).toBeUndefined()
    expect(redisTestsSkipped({}, true)).toBeUndefined()
  })
})
