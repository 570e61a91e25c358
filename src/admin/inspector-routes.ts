import express, { type Express } from 'express'
import { setPageHeaders } from '../http/page-headers.ts'
import { packagePath } from '../lib/package-path.ts'

/** Not compiled: served from the sources' folder, also when the code runs from dist/. */
const UI_DIR = packagePath('src/admin/ui/')
const PREFIX = '/__admin/ui'

/**
 * The state inspector: static files, no build step. They hold no data, so they are open on every
 * host (behaviour.md §6); the page reads everything through the guarded admin routes, with the
 * admin token where the server asks for one. Unknown files fall through to the 404.
 */
export function mountInspector(app: Express): void {
  const files = express.static(UI_DIR, { index: false, redirect: false, setHeaders: (res) => setPageHeaders(res) })
  app.get(PREFIX, (_req, res) => {
    setPageHeaders(res)
    res.sendFile('index.html', { root: UI_DIR })
  })
  app.use(PREFIX, files)
}
