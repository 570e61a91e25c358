import type { Browser, Page } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { launchChromium, newPage, skipBrowserSuite, watch, type PageWatch } from '../helpers/browser.ts'
import { expectQuiet, openInspector, pickTenant, rowOf, SHOWN_MS } from '../helpers/inspector-page.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { INTEGRATIONS } from '../helpers/well-known.ts'

const MAILGUN = INTEGRATIONS.mailgun

let server: MockServer
let browser: Browser
beforeAll(async () => {
  if (skipBrowserSuite) return
  ;[server, browser] = await Promise.all([startTestServer(), launchChromium()])
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

let page: Page
let seen: PageWatch
beforeEach(async (context) => {
  if (skipBrowserSuite) return
  page = await newPage(browser)
  seen = watch(page)
  context.onTestFinished(() => page.context().close())
})

const emptyCallsHint = () => page.locator('#calls .empty').innerText()

describe.skipIf(skipBrowserSuite)('the inspector on a first visit', () => {
  it('asks to pick a tenant before one is picked, and says "no calls yet" only for a tenant', async () => {
    const auth = freshTenant()
    await request(server.url).post('/__admin/tenants').set(freshTenant()).send({ apiKey: auth.Authorization.slice(7) }).expect(201)
    await openInspector(page, server.url)
    expect(await emptyCallsHint()).toBe('Pick a tenant (or enter the API key your client uses) to see its calls.')
    await page.click(`#tenants li[data-key="${auth.Authorization.slice(7)}"] button`, { timeout: SHOWN_MS })
    await page.waitForSelector('#subscribers tbody tr', { timeout: SHOWN_MS })
    expect(await emptyCallsHint()).toBe('No calls yet. They appear here as a client makes them, newest first.')
    expectQuiet(seen)
  })

  it("closes an opened record's JSON when another tab is shown", async () => {
    const auth = freshTenant()
    await request(server.url).get('/v2/subscribers/demo-subscriber-1').set(auth).expect(200)
    await openInspector(page, server.url)
    await pickTenant(page, auth.Authorization.slice(7))
    await page.click(rowOf('subscribers', 'demo-subscriber-1'))
    expect(await page.locator('#detail').isVisible()).toBe(true)
    await page.click('#tabs [data-tab=integrations]')
    expect(await page.locator('#detail').isHidden()).toBe(true)
    await page.click(rowOf('integrations', MAILGUN))
    expect(await page.locator('#detail h3').innerText()).toBe('Integration mailgun')
    await page.click('#tabs [data-tab=subscribers]')
    expect(await page.locator('#detail').isHidden()).toBe(true)
    expect(await page.locator('#subscribers tbody tr.selected').count()).toBe(0)
    expectQuiet(seen)
  })
})

describe.skipIf(skipBrowserSuite)('/docs on a first visit', () => {
  it('starts "Try it out" with the well-known records in the path parameters, and the call works as given', async () => {
    const auth = freshTenant()
    await page.goto(`${server.url}/docs`)
    await page.waitForSelector('.opblock', { timeout: 15_000 })
    await page.click('button.authorize')
    await page.fill('.auth-container input#api_key_value', auth.Authorization.slice(7))
    await page.click('.auth-btn-wrapper button.authorize')
    await page.click('.auth-btn-wrapper button.btn-done')
    for (const [id, name, value] of [
      ['getSubscriber', 'subscriberId', 'demo-subscriber-1'],
      ['upsertSubscriberCredentials', 'subscriberId', 'demo-subscriber-1'],
      ['setPrimaryIntegration', 'integrationId', MAILGUN],
    ] as const) {
      const operation = page.locator(`.opblock[id$="-${id}"]`)
      await operation.locator('.opblock-summary').click()
      await operation.locator('button.try-out__btn').click()
      expect(await operation.locator(`input[placeholder="${name}"]`).inputValue(), id).toBe(value)
    }
    const setPrimary = page.locator('.opblock[id$="-setPrimaryIntegration"]')
    await setPrimary.locator('button.execute').click()
    const answer = setPrimary.locator('.live-responses-table tr.response').first()
    await answer.waitFor({ timeout: 10_000 })
    expect((await answer.locator('.response-col_status').innerText()).trim()).toBe('200')
    const state = await request(server.url).get('/__admin/state').set(auth).expect(200)
    expect(state.body.integrations.find((i: { _id: string }) => i._id === MAILGUN).primary).toBe(true)
  })

  it('has an icon at /favicon.ico that the browser decodes, so no page logs a 404 for it', async () => {
    await page.goto(`${server.url}/docs`)
    const size = await page.evaluate(async () => {
      const image = new Image()
      image.src = '/favicon.ico'
      await image.decode()
      return [image.naturalWidth, image.naturalHeight]
    })
    expect(size).toEqual([16, 16])
    expect(seen.responses.filter((response) => response.status >= 400)).toEqual([])
    expect(seen.errors).toEqual([])
  })
})
