import type { Browser, Page } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/server.ts'
import { launchChromium, offMachine, skipBrowserSuite, watch, type PageWatch } from '../helpers/browser.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

const OPERATION_IDS = ['upsertSubscriberCredentials', 'getSubscriber', 'setPrimaryIntegration', 'listChannelConnections', 'markMessagesAs']

let server: MockServer
let browser: Browser
let page: Page
let seen: PageWatch
beforeAll(async () => {
  if (skipBrowserSuite) return
  ;[server, browser] = await Promise.all([startTestServer(), launchChromium()])
  page = await browser.newPage()
  seen = watch(page)
  await page.goto(`${server.url}/docs`)
  await page.waitForSelector('.opblock', { timeout: 15_000 })
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe.skipIf(skipBrowserSuite)('/docs in a browser', () => {
  it('lists the five operations, by summary and operationId', async () => {
    const summaries = await page.locator('.opblock .opblock-summary').allInnerTexts()
    expect(summaries).toHaveLength(5)
    for (const operationId of OPERATION_IDS) expect(summaries.some((text) => text.includes(operationId)), operationId).toBe(true)
    expect(summaries.join('\n')).toContain('Retrieve a subscriber')
  })

  it('offers only this server for "Try it out"', async () => {
    const servers = await page.locator('.servers select option').allInnerTexts()
    expect(servers).toHaveLength(1)
    expect(servers[0]).toContain(server.url)
  })

  it('tries GET /v2/subscribers/{subscriberId} against the mock and shows its 200', async () => {
    const auth = freshTenant()
    await page.click('button.authorize')
    await page.fill('.auth-container input#api_key_value', auth.Authorization)
    await page.click('.auth-btn-wrapper button.authorize')
    await page.click('.auth-btn-wrapper button.btn-done')

    const operation = page.locator('#operations-Subscribers-getSubscriber')
    await operation.locator('.opblock-summary').click()
    await operation.locator('button.try-out__btn').click()
    await operation.locator('input[placeholder="subscriberId"]').fill('demo-subscriber-1')
    await operation.locator('button.execute').click()

    const answer = operation.locator('.live-responses-table tr.response').first()
    await answer.waitFor({ timeout: 10_000 })
    expect((await answer.locator('.response-col_status').innerText()).trim()).toBe('200')
    expect(await answer.locator('.response-col_description').innerText()).toContain('"subscriberId": "demo-subscriber-1"')
    // The call reached the mock with the key typed in the dialog: it is in that tenant's journal.
    const journal = await request(server.url).get('/__admin/requests').set(auth)
    expect(journal.body.requests.map((r: { operationId: string; status: number }) => [r.operationId, r.status])).toEqual([['getSubscriber', 200]])
  })

  it('loads everything from 127.0.0.1, with no console error', async () => {
    expect(seen.requests.length).toBeGreaterThan(3)
    expect(offMachine(seen.requests)).toEqual([])
    expect(seen.errors).toEqual([])
  })
})
