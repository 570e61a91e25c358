import { request as httpRequest, type ClientRequest } from 'node:http'

/**
 * A credentials call whose body is only half sent: the mock has opened its tenant (authentication
 * and the tenant come before a form body, which is read after them, unlike a JSON one,
 * docs/behaviour.md §1.3), so the call is in flight until `finish` sends the rest. No timing
 * involved: the test decides when the call ends.
 */
export function heldCall(url: string, auth: { Authorization: string }): { finish(): Promise<number> } {
  const body = 'providerId=fcm&credentials[deviceTokens][]=held-token'
  const req: ClientRequest = httpRequest(`${url}/v1/subscribers/demo-subscriber-1/credentials`, {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  })
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
  })
  req.write(body.slice(0, 10))
  return {
    finish() {
      req.end(body.slice(10))
      return status
    },
  }
}
