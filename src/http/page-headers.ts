import type { ServerResponse } from 'node:http'

/**
 * Headers of the browser pages the mock serves (the API reference, the state inspector). The
 * policy lets a page load and call nothing but this server, so a page can never reach out of the
 * machine, and no one else's page can frame it.
 */
export function setPageHeaders(res: ServerResponse, policy: { inlineStyles?: boolean } = {}): void {
  const styles = policy.inlineStyles ? "'self' 'unsafe-inline'" : "'self'"
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'self'; img-src 'self' data:; style-src ${styles}; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
  )
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'no-referrer')
  // Pages and their scripts change with the installed version; never serve a stale one.
  res.setHeader('Cache-Control', 'no-cache')
}
