import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/create-app.ts'
import { launchChromium, newPage, screenshot, skipBrowserSuite, watch } from '../helpers/browser.ts'
import { expectQuiet, openInspector, pickTenant, SHOWN_MS } from '../helpers/inspector-page.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

const TOKEN = `token-${crypto.randomUUID()}`

/** An app told it is bound beyond loopback (as in Docker), listening on loopback for the test. */
async function publicApp(adminToken: string | undefined): Promise<{ url: string; server: Server }> {
  const app = await createApp({ host: '0.0.0.0', adminToken, logLevel: 'silent' })
  const server = createServer(app).listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

let browser: Browser
beforeAll(async () => {
  if (!skipBrowserSuite) browser = await launchChromium()
})
afterAll(() => browser?.close())

describe.skipIf(skipBrowserSuite)('/__admin/ui: 5. guarded, bound beyond loopback with --admin-token', () => {
  let guarded: { url: string; server: Server }
  beforeAll(async () => {
    guarded = await publicApp(TOKEN)
  })
  afterAll(() => new Promise<void>((resolve) => guarded.server.close(() => resolve())))

  it('loads without the token, asks for it before the key, sends it on every data call; the data routes refuse calls without it', async () => {
    const auth = freshTenant()
    const key = auth.Authorization.slice('ApiKey '.length)
    await request(guarded.url).get(`/v2/subscribers/${ADA}`).set(auth).expect(200)
    for (const path of ['/__admin/tenants', '/__admin/state', '/__admin/requests', '/__admin/events', '/__admin/channel-connections']) {
      expect((await request(guarded.url).get(path).set(auth)).status, path).toBe(404)
    }

    const page = await newPage(browser)
    const seen = watch(page)
    try {
      await openInspector(page, guarded.url)
      await page.waitForSelector('#token-form:not([hidden])', { timeout: SHOWN_MS })
      expect(await page.locator('label[for=admin-token]').innerText()).toBe('Admin token')
      const order = await page.evaluate(() => {
        const token = document.getElementById('admin-token')!
        const keyField = document.querySelector('input[type=password]')!
        return { tokenFirst: Boolean(token.compareDocumentPosition(keyField) & Node.DOCUMENT_POSITION_FOLLOWING), keyId: keyField.id }
      })
      expect(order).toEqual({ tokenFirst: true, keyId: 'api-key' })
      expect(await page.locator('#tenants li[data-key]').count()).toBe(0)
      await screenshot(page, '5-guarded-asks')

      await page.getByLabel('Admin token').fill(TOKEN)
      await page.click('#token-form button[type=submit]')
      await page.waitForSelector('#token-form', { state: 'hidden', timeout: SHOWN_MS })
      await pickTenant(page, key)
      await screenshot(page, '5-guarded-shown')

      const dataCalls = seen.requests.filter((r) => new URL(r.url).pathname.startsWith('/__admin/') && !/^\/__admin\/(ui|health)\b/.test(new URL(r.url).pathname))
      expect(dataCalls.map((r) => new URL(r.url).pathname)).toEqual(expect.arrayContaining(['/__admin/tenants', '/__admin/state', '/__admin/events']))
      for (const call of dataCalls) expect(call.headers['x-admin-token'], call.url).toBe(TOKEN)
      expect(seen.requests.filter((r) => r.url.includes(TOKEN) || r.url.includes(key))).toEqual([])
      expectQuiet(seen)
    } finally {
      await page.context().close()
    }
  })

  it.each([
    ['the API key field', '#api-key'],
    ['the Admin token field', '#admin-token'],
  ])('takes a filled Admin token when Enter is pressed in %s, then shows the API key typed', async (_field, pressedIn) => {
    const auth = freshTenant()
    const key = auth.Authorization.slice('ApiKey '.length)
    await request(guarded.url).get(`/v2/subscribers/${ADA}`).set(auth).expect(200)
    const page = await newPage(browser)
    const seen = watch(page)
    try {
      await openInspector(page, guarded.url)
      await page.waitForSelector('#token-form:not([hidden])', { timeout: SHOWN_MS })
      await page.getByLabel('Admin token').fill(TOKEN)
      await page.getByLabel('API key').fill(key)
      await page.press(pressedIn, 'Enter')
      await page.waitForSelector('#token-form', { state: 'hidden', timeout: SHOWN_MS })
      await page.waitForSelector('#status.live', { timeout: SHOWN_MS })
      await page.waitForSelector('#subscribers tbody tr', { timeout: SHOWN_MS })
      expect(await page.locator('#status').innerText()).not.toContain('admin token')
      expect(await page.locator('#tenants li[aria-current=true]').getAttribute('data-key')).toBe(key)
      expectQuiet(seen)
    } finally {
      await page.context().close()
    }
  })
})

describe.skipIf(skipBrowserSuite)('/__admin/ui: 5. where no token is needed or none is set', () => {
  it('asks for no token on loopback', async () => {
    const loopback = await startTestServer()
    const page = await newPage(browser)
    const seen = watch(page)
    try {
      await openInspector(page, loopback.url)
      expect(await page.locator('#token-form').isHidden()).toBe(true)
      expect(await page.locator('#status').innerText()).toContain('Pick a tenant')
      expectQuiet(seen)
    } finally {
      await page.context().close()
      await loopback.close()
    }
  })

  it('says the control plane is closed beyond loopback without a token, and makes no data call', async () => {
    const closed = await publicApp(undefined)
    const page = await newPage(browser)
    const seen = watch(page)
    try {
      await openInspector(page, closed.url)
      expect(await page.locator('#status').innerText()).toContain('control plane is closed')
      expect(await page.locator('#token-form').isHidden()).toBe(true)
      expect(seen.requests.map((r) => new URL(r.url).pathname).filter((path) => !path.startsWith('/__admin/ui'))).toEqual(['/__admin/health'])
      expectQuiet(seen)
    } finally {
      await page.context().close()
      await new Promise<void>((resolve) => closed.server.close(() => resolve()))
    }
  })
})
