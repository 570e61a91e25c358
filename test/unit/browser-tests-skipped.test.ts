import { describe, expect, it } from 'vitest'
import { browserTestsSkipped } from '../helpers/chromium.ts'

describe('the browser tests without Chromium', () => {
  it('are skipped with one line saying why and how to install it', () => {
    const line = browserTestsSkipped({}, false)
    expect(line).toMatch(/^test\/browser skipped: no Chromium at \/usr\/bin\/chromium \(apt-get install -y chromium/)
    expect(line).not.toContain('\n')
    expect(browserTestsSkipped({ CI: 'false' }, false)).toBe(line)
  })

  it('run under CI, where a missing browser must fail them, and wherever Chromium is installed', () => {
    expect(browserTestsSkipped({ CI: 'true' }, false)).toBeUndefined()
    expect(browserTestsSkipped({ CI: '1' }, false)).toBeUndefined()
    expect(browserTestsSkipped({}, true)).toBeUndefined()
  })
})
