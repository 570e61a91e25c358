import type { Express, Request, Response } from 'express'
import { setPageHeaders } from '../http/page-headers.ts'
import { mountFavicon } from './favicon-route.ts'

/** Where a newcomer goes from `/`: the mock's own pages and documents, no key needed for any. */
const LINKS = [
  { rel: 'docs', href: '/docs', title: 'API reference', about: 'every operation, with "Try it out" against this mock' },
  { rel: 'inspector', href: '/__admin/ui', title: 'State inspector', about: "a tenant's records, live as its calls arrive" },
  { rel: 'openapi', href: '/openapi.json', title: 'OpenAPI document', about: 'the contract every request and answer is checked against (also /openapi.yaml)' },
  { rel: 'health', href: '/__admin/health', title: 'Health', about: 'answers once the API does' },
] as const

const AUTHORIZATION = 'ApiKey <any key>'

/**
 * `GET /`: a small landing page for a browser, the same links as JSON for any other client (curl
 * accepts any type, and gets JSON), and beside it `/favicon.ico`, which every page asks for.
 * docs/behaviour.md §1.3 counts both among the known routes.
 */
export function mountLanding(app: Express, version: string): void {
  mountFavicon(app)
  const html = landingPage(version)
  const json = JSON.stringify({
    name: 'novu-mock',
    version,
    description: 'A stateful mock and contract-testing server for five Novu API operations',
    authorization: AUTHORIZATION,
    links: Object.fromEntries(LINKS.map(({ rel, href }) => [rel, href])),
  })
  app.get('/', (req: Request, res: Response) => {
    res.setHeader('Vary', 'Accept')
    if (req.accepts(['json', 'html']) === 'html') {
      setPageHeaders(res, { inlineStyles: true })
      res.type('html').end(html)
    } else {
      res.type('json').end(json)
    }
  })
}

function landingPage(version: string): string {
  const items = LINKS.map(({ href, title, about }) => `    <li><a href="${href}">${title}</a> <code>${href}</code>: ${about}</li>`).join('\n')
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>novu-mock</title>
  <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; } code { font-size: 0.9em; }</style>
</head>
<body>
  <h1>novu-mock ${version}</h1>
  <p>A stateful mock and contract-testing server for five Novu API operations.
  Every API call needs <code>Authorization: ${AUTHORIZATION.replace('<', '&lt;').replace('>', '&gt;')}</code>; each key is its own tenant.</p>
  <ul>
${items}
  </ul>
</body>
</html>
`
}
