// docs/recipes.md quotes this file: Playwright drives a frontend whose API base URL is the mock's.
import { existsSync } from 'node:fs'
import { startMockServer, type MockServer } from 'novu-mock'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startInboxApp, type InboxApp } from './inbox-app.ts'

const CHROMIUM = '/usr/bin/chromium' // Debian's; .ci/run installs it, so CI never skips
const NO_BROWSER = !existsSync(CHROMIUM) && !process.env.CI
if (NO_BROWSER) console.warn(`test/recipes/playwright.test.ts skipped: no ${CHROMIUM} (apt-get install chromium)`)

describe.skipIf(NO_BROWSER)('the inbox page against the mock', () => {
  let mock: MockServer
  let app: InboxApp
  let browser: Browser

  beforeAll(async () => {
    mock = await startMockServer()
    app = await startInboxApp() // your frontend's dev server, built with the mock's URL as its API
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  })

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await mock?.close()
  })

  it('greets the subscriber and marks the message read once', async () => {
    const page = await browser.newPage()
    await page.goto(`${app.url}/?api=${encodeURIComponent(mock.url)}&key=playwright-recipe`)
    await page.getByText('Hello, Ada').waitFor() // the page read the subscriber from the mock

    await page.click('#mark-read')
    await page.getByText('Marked read').waitFor()

    const tenant = mock.tenant('playwright-recipe')
    await tenant.verify({ operationId: 'markMessagesAs', count: 1, bodyMatches: { markAs: 'read' } })
    const { messages } = await tenant.state()
    expect(messages.find((message) => message._id === '64f200000000000000000001')?.read).toBe(true)
  })
})
