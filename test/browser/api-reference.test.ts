import type { Browser, Page } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { launchChromium, offMachine, skipBrowserSuite, watch, type PageWatch } from '../helpers/browser.ts'
import { OPERATION_IDS } from '../helpers/operations.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

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

  it('says in the Authorize dialog how the header is written', async () => {
    await page.click('button.authorize')
    expect(await page.locator('.auth-container').first().innerText()).toContain('ApiKey <key>')
    await page.click('.auth-btn-wrapper button.btn-done')
  })

  it('tries GET /v2/subscribers/{subscriberId} against the mock with a key typed alone, and shows its 200', async () => {
    const auth = freshTenant()
    await page.click('button.authorize')
    // The key alone, as a newcomer types it: the page sends it as `ApiKey <key>`.
    await page.fill('.auth-container input#api_key_value', auth.Authorization.replace(/^ApiKey /, ''))
    await page.click('.auth-btn-wrapper button.authorize')
    await page.click('.auth-btn-wrapper button.btn-done')

    const operation = page.locator('#operations-Subscribers-getSubscriber')
    await operation.locator('.opblock-summary').click()
    await operation.locator('button.try-out__btn').click()
    await operation.locator('input[placeholder="subscriberId"]').fill(ADA)
    await operation.locator('button.execute').click()

    const answer = operation.locator('.live-responses-table tr.response').first()
    await answer.waitFor({ timeout: 10_000 })
    expect((await answer.locator('.response-col_status').innerText()).trim()).toBe('200')
    expect(await answer.locator('.response-col_description').innerText()).toContain(`"subscriberId": "${ADA}"`)
    // The call reached the mock with the key typed in the dialog: it is in that tenant's journal.
    const journal = await request(server.url).get('/__admin/requests').set(auth)
    expect(journal.body.requests.map((r: { operationId: string; status: number }) => [r.operationId, r.status])).toEqual([['getSubscriber', 200]])
  })

  it('shows each error response with an example of its own status', async () => {
    const operation = page.locator('#operations-Subscribers-getSubscriber')
    const example = async (status: string) => (await operation.locator(`tr.response[data-code="${status}"] .example`).first().innerText()).replace(/\s+/g, ' ')
    for (const status of ['401', '404', '500']) expect(await example(status), status).toContain(`"statusCode": ${status}`)
    expect(await example('401')).toContain('Missing authorization header')
    expect(await example('429')).toContain('API rate limit exceeded')
    expect(await example('503')).toContain('Please wait some time, then try again.')
  })

  it('loads everything from 127.0.0.1, with no console error', async () => {
    expect(seen.requests.length).toBeGreaterThan(3)
    expect(offMachine(seen.requests)).toEqual([])
    expect(seen.errors).toEqual([])
  })
})
