import type { Browser, Page } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-app.ts'
import { launchChromium, newPage, screenshot, skipBrowserSuite, watch, type PageWatch } from '../helpers/browser.ts'
import { expectQuiet, openInspector, pickTenant, SHOWN_MS } from '../helpers/inspector-page.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

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

const shownClock = async () => (await page.locator('#clock-now').innerText()).split(' · ')

describe.skipIf(skipBrowserSuite)('/__admin/ui: the Control tab’s time', () => {
  it('shows the tenant’s time, freezes it, advances it, and puts it back on real time', async () => {
    const auth = freshTenant()
    const key = auth.Authorization.slice('ApiKey '.length)
    await request(server.url).get('/v2/subscribers/demo-subscriber-1').set(auth).expect(200)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    await page.click('#tabs [data-tab=control]')
    await page.waitForSelector('#clock-now[data-frozen="false"]', { timeout: SHOWN_MS })

    await page.click('#clock-freeze')
    await page.waitForSelector('#clock-now[data-frozen="true"]', { timeout: SHOWN_MS })
    const [frozenAt, state] = await shownClock()
    expect(state).toBe('frozen')
    expect((await request(server.url).get('/__admin/clock').set(auth)).body).toEqual({ now: frozenAt, frozen: true })

    await page.selectOption('#clock-advance', '90000000')
    await page.click('#clock-form button[type=submit]')
    const later = new Date(Date.parse(frozenAt!) + 25 * 60 * 60 * 1000).toISOString()
    await page.waitForFunction((text) => document.getElementById('clock-now')?.textContent?.startsWith(text), later, { timeout: SHOWN_MS })
    const written = await request(server.url).patch('/v1/subscribers/demo-subscriber-1/credentials').set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t'] } })
    expect(written.body.updatedAt).toBe(later)
    await screenshot(page, '4-control-clock')

    await page.click('#clock-real')
    await page.waitForSelector('#clock-now[data-frozen="false"]', { timeout: SHOWN_MS })
    expect((await request(server.url).get('/__admin/clock').set(auth)).body.frozen).toBe(false)
    expectQuiet(seen)
  })
})
