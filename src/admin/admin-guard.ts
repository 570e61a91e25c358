import { timingSafeEqual } from 'node:crypto'
import type { RequestHandler } from 'express'
import { isLoopbackBind } from '../http/host-check.ts'

/** How the guarded `/__admin` routes answer: to anyone, to the admin token only, or to no one. */
export type AdminAccess = 'open' | 'token' | 'closed'

export function adminAccessOf(host: string, adminToken: string | undefined): AdminAccess {
  if (isLoopbackBind(host)) return 'open'
  return adminToken === undefined ? 'closed' : 'token'
}

/**
 * On a non-loopback host, `/__admin` (but health and the inspector's page) answers only to the
 * `x-admin-token`; anyone else gets the 404 of an unknown route, so the control plane's data is
 * not even revealed.
 */
export function adminGuard(host: string, adminToken: string | undefined): RequestHandler {
  const open = adminAccessOf(host, adminToken) === 'open'
  const expected = adminToken === undefined ? undefined : Buffer.from(adminToken)
  return (req, _res, next) => {
    if (open) return next()
    const sent = req.headers['x-admin-token']
    if (expected && typeof sent === 'string' && sameSecret(Buffer.from(sent), expected)) return next()
    next('router')
  }
}

function sameSecret(sent: Buffer, expected: Buffer): boolean {
  return sent.length === expected.length && timingSafeEqual(sent, expected)
}
