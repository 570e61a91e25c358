import express, { type Router } from 'express'
import { setPageHeaders } from '../http/page-headers.ts'
import { packagePath } from '../lib/package-path.ts'

/** Not compiled: served from the sources' folder, also when the code runs from dist/. */
const UI_DIR = packagePath('src/admin/ui/')
const PREFIX = '/__admin/ui'

/**
 * The state inspector: static files, no build step. Mounted on the guarded admin router, so it is
 * hidden wherever the rest of the control plane is. Unknown files fall through to the 404.
 */
export function mountInspector(router: Router): void {
  const files = express.static(UI_DIR, { index: false, redirect: false, setHeaders: (res) => setPageHeaders(res) })
  router.get(PREFIX, (_req, res) => {
    setPageHeaders(res)
    res.sendFile('index.html', { root: UI_DIR })
  })
  router.use(PREFIX, files)
}
