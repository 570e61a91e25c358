import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { launchChromium, newPage, screenshot, SCREENSHOTS, skipBrowserSuite, watch, type PageWatch } from '../helpers/browser.ts'
import { expectQuiet, openInspector, pickTenant, rowOf, SHOWN_MS } from '../helpers/inspector-page.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

const M1 = adaMessage(1)
const MAILGUN = INTEGRATIONS.mailgun
const MARK_PATH = `/v1/subscribers/${ADA}/messages/mark-as`
const CREDENTIALS_PATH = `/v1/subscribers/${ADA}/credentials`

let server: MockServer
let browser: Browser
beforeAll(async () => {
  if (skipBrowserSuite) return
  ;[server, browser] = await Promise.all([startTestServer(), launchChromium()])
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (!skipBrowserSuite) console.log(`inspector screenshots: ${SCREENSHOTS}`)
})

let page: Page
let seen: PageWatch
let auth: Auth
let key: string
beforeEach(async (context) => {
  if (skipBrowserSuite) return
  page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] })
  seen = watch(page)
  auth = freshTenant()
  key = auth.Authorization.slice('ApiKey '.length)
  context.onTestFinished(() => page.context().close())
})

const api = () => request(server.url)
const markAs = (a: Auth, messageId: string, markAs: string) => api().post(MARK_PATH).set(a).send({ messageId, markAs }).expect(201)
const addDeviceToken = (a: Auth, token: string) => api().patch(CREDENTIALS_PATH).set(a).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } }).expect(200)
const getSubscriber = (a: Auth, status = 200) => api().get(`/v2/subscribers/${ADA}`).set(a).expect(status)
const text = (selector: string) => page.locator(selector).innerText()
const visibleCalls = () => page.locator('#calls li:visible').count()

describe.skipIf(skipBrowserSuite)('/__admin/ui: 1. tenants', () => {
  it('lists every tenant the server holds with its full key, and shows one picked with a click', async () => {
    await getSubscriber(auth)
    const created = `made-${crypto.randomUUID()}`
    await api().post('/__admin/tenants').set(freshTenant()).send({ apiKey: created }).expect(201)
    await openInspector(page, server.url)
    expect(await text(`#tenants li[data-key="${key}"] .key`)).toBe(key)
    expect(await text(`#tenants li[data-key="${created}"]`)).toContain('created')
    await pickTenant(page, key)
    expect(await page.locator(`#tenants li[data-key="${key}"]`).getAttribute('aria-current')).toBe('true')
    expect(await text('#tabs [data-tab=messages] .count')).toBe('(253)')
    await screenshot(page, '1-tenants')
    expectQuiet(seen)
  })

  it('shows a tenant’s workflows in their tab', async () => {
    const state = (await api().get('/__admin/state').set(auth).expect(200)).body
    await api().put('/__admin/state').set(auth).send({ ...state, workflows: [{ workflowId: 'welcome', name: 'Welcome', active: true }] }).expect(200)
    await getSubscriber(auth)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    expect(await text('#tabs [data-tab=workflows] .count')).toBe('(1)')
    await page.click('#tabs [data-tab=workflows]')
    expect(await text('#workflows table')).toContain('welcome')
    expectQuiet(seen)
  })

  it('says why the records pane is blank before a tenant is picked, and what kept and droppable mean', async () => {
    await getSubscriber(auth)
    await openInspector(page, server.url)
    const hint = page.locator('#records .pick-tenant')
    expect(await hint.isVisible()).toBe(true)
    expect(await hint.innerText()).toMatch(/No tenant picked yet: the records of one show here once you pick it/)
    const legend = await text('#tenants .legend')
    expect(legend).toMatch(/kept\s+has state of its own \(written to, created through the admin API, or holding snapshots\)/)
    expect(legend).toMatch(/droppable\s+only read so far: released at the bound, it comes back identical from its seed/)
    await pickTenant(page, key)
    expect(await hint.isVisible()).toBe(false)
    expectQuiet(seen)
  })

  it('shows message ids of different subscribers apart, the whole id on hover', async () => {
    await getSubscriber(auth)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    await page.click('#tabs [data-tab=messages]')
    const [ada, grace] = [M1, '64f300000000000000000001']
    await page.fill('#search', '00000000000001')
    const idCell = (id: string) => page.locator(`${rowOf('messages', id)} td.id span`)
    await idCell(grace).waitFor({ timeout: SHOWN_MS })
    const shown = [await idCell(ada).innerText(), await idCell(grace).innerText()]
    expect(shown[0]).not.toBe(shown[1])
    expect([await idCell(ada).getAttribute('title'), await idCell(grace).getAttribute('title')]).toEqual([ada, grace])
    expectQuiet(seen)
  })

  it('takes a typed key with Enter, flags one with no calls, keeps it out of URLs and storage, and looking keeps no tenant', async () => {
    const bounded = await startTestServer({ maxTenants: 2 })
    try {
      await openInspector(page, bounded.url)
      await page.locator('input[type=password]').first().fill(key)
      await page.keyboard.press('Enter')
      await page.waitForSelector('#status.fresh', { timeout: SHOWN_MS })
      expect(await text('#status')).toContain('no calls yet with this key: a fresh tenant from the seed')
      await page.waitForFunction(() => document.querySelector('#tabs [data-tab=messages] .count')?.textContent === '(253)', undefined, { timeout: SHOWN_MS })
      await screenshot(page, '1-fresh-key')

      // Two writers fill the bound of 2: the looked-at tenant took no place, and is not listed.
      const [writerA, writerB] = [freshTenant(), freshTenant()]
      await addDeviceToken(writerA, 'a')
      await addDeviceToken(writerB, 'b')
      const held = (await request(bounded.url).get('/__admin/tenants').expect(200)).body.tenants.map((t: { apiKey: string }) => t.apiKey)
      expect(held).not.toContain(key)
      expect(await page.locator('#status').getAttribute('class')).toBe('fresh')

      expect(page.url()).not.toContain(key)
      expect(seen.requests.filter((r) => r.url.includes(key))).toEqual([])
      const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]))
      expect(stored).toBe('[{},{},""]')
      expectQuiet(seen)
    } finally {
      await bounded.close()
    }
  })

  it('turns live once the typed key makes its first call', async () => {
    await openInspector(page, server.url)
    await page.fill('#api-key', key)
    await page.click('#key-form button[type=submit]')
    await page.waitForSelector('#status.fresh', { timeout: SHOWN_MS })
    await getSubscriber(auth)
    await page.waitForSelector('#status.live', { timeout: SHOWN_MS })
    await page.waitForSelector(`#tenants li[data-key="${key}"][aria-current=true]`, { timeout: SHOWN_MS })
    expectQuiet(seen)
  })
})

describe.skipIf(skipBrowserSuite)('/__admin/ui: 2. records', () => {
  it('opens a row’s full JSON (device tokens), marks primaries, highlights a change, and narrows by search', async () => {
    await addDeviceToken(auth, 'fcm-token-from-the-test')
    await openInspector(page, server.url)
    await pickTenant(page, key)

    await page.click(rowOf('subscribers', ADA))
    expect(await text('#detail h3')).toBe(`Subscriber ${ADA}`)
    expect(await text('#detail pre')).toContain('"fcm-token-from-the-test"')
    expect(await text(`${rowOf('subscribers', ADA)} td.number`)).toBe('2')

    await page.fill('#search', 'fcm-token-from-the-test')
    expect(await page.locator('#subscribers tbody tr').count()).toBe(1)
    await page.fill('#search', '')
    expect(await page.locator('#subscribers tbody tr').count()).toBe(50)

    await page.click('#tabs [data-tab=integrations]')
    const primaries = () => page.locator('#integrations tr[data-primary="true"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))
    expect(await primaries()).toEqual([INTEGRATIONS.sendgrid, INTEGRATIONS.twilio])
    expect(await text(rowOf('integrations', INTEGRATIONS.sendgrid))).toContain('★ primary')
    await api().post(`/v1/integrations/${MAILGUN}/set-primary`).set(auth).expect(200)
    await page.waitForSelector(`${rowOf('integrations', MAILGUN)}[data-primary="true"]`, { timeout: SHOWN_MS })
    expect(await primaries()).toEqual([MAILGUN, INTEGRATIONS.twilio])

    await page.click('#tabs [data-tab=messages]')
    expect(await text(`${rowOf('messages', M1)} td.read`)).toBe('no')
    await markAs(auth, M1, 'read')
    await page.waitForSelector(`${rowOf('messages', M1)}[data-read="true"]`, { timeout: SHOWN_MS })
    expect(await page.locator(`${rowOf('messages', M1)} td.read`).getAttribute('class')).toContain('changed')
    expect(await page.locator(`${rowOf('messages', M1)} td.seen`).getAttribute('class')).toContain('changed')
    expect(await page.locator(`${rowOf('messages', M1)} td.id`).getAttribute('class')).not.toContain('changed')
    await page.click(rowOf('messages', M1))
    expect(JSON.parse(await text('#detail pre'))).toMatchObject({ _id: M1, read: true, seen: true })
    await screenshot(page, '2-records')
    expectQuiet(seen)
  })

  it('pages the channel connections with the API’s own filters', async () => {
    await getSubscriber(auth)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    await page.click('#tabs [data-tab=connections]')
    expect(await page.locator('#connections tbody tr').count()).toBe(25)
    expect(await text('#connections .pager span')).toBe('25 shown of 120')
    const first = await page.locator('#connections tbody tr').first().getAttribute('data-id')
    await page.click('#connections .pager button.next')
    await page.waitForFunction((id) => document.querySelector('#connections tbody tr')?.getAttribute('data-id') !== id, first, { timeout: SHOWN_MS })

    await page.selectOption('#connection-filters select[name=channel]', 'push')
    await page.click('#connection-filters button[type=submit]')
    const push = await api().get('/v1/channel-connections?channel=push&limit=100').set(freshTenant()).expect(200)
    await page.waitForFunction((n) => document.querySelector('#connections .pager span')?.textContent === `${Math.min(n, 25)} shown of ${n}`, push.body.totalCount, { timeout: SHOWN_MS })
    const channels = await page.locator('#connections tbody tr td:nth-child(2)').allInnerTexts()
    expect(new Set(channels)).toEqual(new Set(['push']))
    expect(await page.locator('#connections tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))).toEqual(
      push.body.data.slice(0, 25).map((c: { identifier: string }) => c.identifier),
    )
    await screenshot(page, '2-connections')
    expectQuiet(seen)
  })
})

describe.skipIf(skipBrowserSuite)('/__admin/ui: 3. calls', () => {
  it('lists the calls newest first and live, opens one to its request and answer, filters them, and copies one as curl', async () => {
    await getSubscriber(auth)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    await page.waitForSelector('#calls li', { timeout: SHOWN_MS })
    await markAs(auth, M1, 'seen')
    await api().get('/v1/channel-connections?limit=0').set(auth).expect(422)
    await page.waitForSelector('#calls li:nth-child(3)', { timeout: SHOWN_MS })
    expect(await page.locator('#calls li').evaluateAll((items) => items.map((item) => item.getAttribute('data-status')))).toEqual(['422', '201', '200'])

    await page.click('#calls li[data-status="422"] summary')
    await page.waitForSelector('#calls li[data-status="422"] .call h4', { timeout: SHOWN_MS })
    const opened = await text('#calls li[data-status="422"] .call')
    expect(opened).toContain('GET /v1/channel-connections')
    expect(opened).toMatch(/authorization\s+\[redacted\]/)
    expect(opened).not.toContain(key)
    expect(await text('#calls li[data-status="422"] pre.errors')).toContain('limit must not be less than 1')

    await page.selectOption('#call-status', '4')
    expect(await visibleCalls()).toBe(1)
    await page.selectOption('#call-status', '')
    await page.selectOption('#call-operation', 'markMessagesAs')
    expect(await visibleCalls()).toBe(1)
    await page.selectOption('#call-operation', '')
    expect(await visibleCalls()).toBe(3)

    await page.click('#calls li[data-status="201"] summary')
    await page.click('#calls li[data-status="201"] button.copy')
    await page.waitForSelector('#calls li[data-status="201"] pre.curl[data-copied="true"]', { timeout: SHOWN_MS })
    const curl = await page.evaluate(() => navigator.clipboard.readText())
    expect(curl).toContain(`curl -X POST '${server.url}${MARK_PATH}'`)
    expect(curl).toContain(`-H 'Authorization: ApiKey ${key}'`)
    expect(curl).toContain(`--data-raw '{"messageId":"${M1}","markAs":"seen"}'`)
    // Run as a shell would (asynchronously: the server answering it runs in this process).
    if (existsSync('/usr/bin/curl')) expect((await promisify(execFile)('sh', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`])).stdout).toBe('201')
    await screenshot(page, '3-calls')

    // The page's own reads left nothing in the journal: only the test's calls (and curl's) are there.
    const journal = (await api().get('/__admin/requests').set(auth).expect(200)).body.requests
    expect(journal.map((e: { operationId: string }) => e.operationId).slice(0, 3)).toEqual(['getSubscriber', 'markMessagesAs', 'listChannelConnections'])
    expectQuiet(seen)
  })
})

describe.skipIf(skipBrowserSuite)('/__admin/ui: 4. control', () => {
  async function openControl() {
    await getSubscriber(auth)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    await page.click('#tabs [data-tab=control]')
  }
  /** Looks at the Messages tab, as a user checks what an action did, and comes back. */
  async function messageRead(read: boolean) {
    await page.click('#tabs [data-tab=messages]')
    await page.waitForSelector(`${rowOf('messages', M1)}[data-read="${read}"]`, { timeout: SHOWN_MS })
    await page.click('#tabs [data-tab=control]')
  }

  it('resets, takes, restores and deletes a snapshot, adds and removes a fault rule, and verifies', async () => {
    await openControl()
    await markAs(auth, M1, 'read')
    await messageRead(true)
    await page.fill('#snapshot-name', 'after-read')
    await page.click('#snapshot-form button[type=submit]')
    await page.waitForSelector('#snapshots li[data-name="after-read"]', { timeout: SHOWN_MS })
    await page.click('#reset')
    await messageRead(false)
    await page.click('#snapshots li[data-name="after-read"] button.restore')
    await messageRead(true)
    // The reset emptied the journal too: the call verified below is made after it.
    expect((await api().get('/__admin/requests?operationId=markMessagesAs').set(auth).expect(200)).body.requests).toEqual([])
    await markAs(auth, M1, 'read')

    await page.selectOption('#fault-preset', 'unavailable')
    await page.selectOption('#fault-operation', 'getSubscriber')
    await page.click('#fault-form button[type=submit]')
    await page.waitForSelector('#faults li', { timeout: SHOWN_MS })
    await getSubscriber(auth, 503)
    await page.waitForFunction(() => document.querySelector('#faults li')?.textContent?.includes('1 applied'), undefined, { timeout: SHOWN_MS })

    await page.selectOption('#verify-operation', 'markMessagesAs')
    await page.fill('#verify-count', '1')
    await page.click('#verify-form button[type=submit]')
    await page.waitForSelector('#verify-answer.held', { timeout: SHOWN_MS })
    expect(await text('#verify-answer')).toContain('200: the expectation holds')
    expect(await text('#verify-answer')).toContain('"matched": 1')
    await screenshot(page, '4-control')

    await page.click('#faults li button.delete')
    await page.waitForSelector('#faults li', { state: 'detached', timeout: SHOWN_MS })
    await getSubscriber(auth, 200)
    await page.click('#snapshots li[data-name="after-read"] button.delete')
    await page.waitForSelector('#snapshots li', { state: 'detached', timeout: SHOWN_MS })
    expect((await api().get('/__admin/snapshots').set(auth).expect(200)).body.snapshots).toEqual([])
    expectQuiet(seen)
  })

  it('shows a verification that fails as the server answers it, 417 and what was seen', async () => {
    await openControl()
    await page.selectOption('#verify-operation', 'getSubscriber')
    await page.selectOption('#verify-mode', 'count')
    await page.fill('#verify-count', '5')
    await page.click('#verify-form button[type=submit]')
    await page.waitForSelector('#verify-answer.failed', { timeout: SHOWN_MS })
    expect(await text('#verify-answer')).toContain('417: Expected exactly 5 call(s) of getSubscriber, matched 1')
    expect(await text('#verify-answer')).toContain('"seen"')
    // The one 4xx the page may meet: the answer it was asked to show.
    expectQuiet(seen, (response) => response.status === 417 && response.url.endsWith('/__admin/requests/verify'))
  })
  it('shows the tenant’s time, freezes it, advances it, and puts it back on real time', async () => {
    await openControl()
    await page.waitForSelector('#clock-now[data-frozen="false"]', { timeout: SHOWN_MS })
    await page.click('#clock-freeze')
    await page.waitForSelector('#clock-now[data-frozen="true"]', { timeout: SHOWN_MS })
    const [frozenAt, state] = (await text('#clock-now')).split(' · ')
    expect(state).toBe('frozen')
    expect((await api().get('/__admin/clock').set(auth)).body).toEqual({ now: frozenAt, frozen: true })
    await page.selectOption('#clock-advance', '90000000')
    await page.click('#clock-form button[type=submit]')
    const later = new Date(Date.parse(frozenAt!) + 25 * 60 * 60 * 1000).toISOString()
    await page.waitForFunction((shown) => document.getElementById('clock-now')?.textContent?.startsWith(shown), later, { timeout: SHOWN_MS })
    expect((await addDeviceToken(auth, 'after-advance')).body.updatedAt).toBe(later)
    await screenshot(page, '4-control-clock')
    await page.click('#clock-real')
    await page.waitForSelector('#clock-now[data-frozen="false"]', { timeout: SHOWN_MS })
    expect((await api().get('/__admin/clock').set(auth)).body.frozen).toBe(false)
    expectQuiet(seen)
  })
})

describe.skipIf(skipBrowserSuite)('/__admin/ui: 7. look', () => {
  it.each(['light', 'dark'] as const)('fits 1280×800 in the %s scheme, with nothing loaded from elsewhere', async (colorScheme) => {
    await page.context().close()
    page = await newPage(browser, { colorScheme })
    seen = watch(page)
    await getSubscriber(auth)
    await openInspector(page, server.url)
    await pickTenant(page, key)
    await page.click(rowOf('subscribers', GRACE))
    const sideways: number[] = []
    for (const tab of ['subscribers', 'integrations', 'connections', 'messages']) {
      await page.click(`#tabs [data-tab=${tab}]`)
      await page.waitForSelector(`#${tab} tbody tr`, { timeout: SHOWN_MS })
      // Every column of every table is in view, with no sideways scrolling.
      sideways.push(await page.$eval(`#${tab} .scroll`, (scroll) => scroll.scrollWidth - scroll.clientWidth))
    }
    expect(sideways).toEqual([0, 0, 0, 0])
    await page.click('#tabs [data-tab=subscribers]')
    const layout = await page.evaluate(() => {
      const box = (id: string) => document.getElementById(id)!.getBoundingClientRect().toJSON() as DOMRect
      return {
        scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
        columns: ['tenants', 'records', 'calls'].map(box),
        background: getComputedStyle(document.body).backgroundColor,
        font: getComputedStyle(document.body).fontFamily,
      }
    })
    expect(layout.scroll).toEqual([1280, 800])
    for (const column of layout.columns) {
      expect(column.width).toBeGreaterThanOrEqual(200)
      expect(column.right).toBeLessThanOrEqual(1280)
      expect(column.bottom).toBeLessThanOrEqual(800)
    }
    expect(layout.background).toBe(colorScheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(23, 23, 27)')
    expect(layout.font).toContain('system-ui')
    await screenshot(page, `7-look-${colorScheme}`)
    expectQuiet(seen)
  })
})
