import type { StoreBackend } from '../store-backend.ts'

const HOUR_MS = 60 * 60 * 1000

export interface ExpiryOptions {
  backend: StoreBackend | undefined
  /** `--tenant-ttl`; 0: stored tenants are kept for ever. */
  ttlMs: number
  /** Lets go of a tenant the backend has just deleted. */
  release: (tenant: string) => void
  /** Told of a sweep that failed (the backend unreachable): the next one tries again. */
  onError?: (error: unknown) => void
}

/**
 * `--tenant-ttl` over a backend that stores call times (docs/behaviour.md §3): each call of a
 * tenant is stored as its latest, at most ten times per TTL (and at least hourly), so a busy
 * tenant costs no write per call; a sweep, at the start and then every TTL (at most hourly),
 * deletes the tenants not called since a TTL ago.
 */
export function tenantExpiry({ backend, ttlMs, release, onError }: ExpiryOptions) {
  /** When each tenant's call was last stored, by this process. */
  const calledAt = new Map<string, number>()
  const expire = ttlMs > 0 ? backend?.expire?.bind(backend) : undefined
  const touchEvery = Math.min(ttlMs / 10, HOUR_MS)

  const touch = (tenant: string): void => {
    if (!expire || !backend) return
    const now = Date.now()
    const last = calledAt.get(tenant)
    if (last !== undefined && now - last < touchEvery) return
    calledAt.set(tenant, now)
    // A call time not stored is stored at the next call: the call itself never waits for it.
    backend.write([{ type: 'touch', tenant, at: now }]).catch(() => calledAt.delete(tenant))
  }

  const sweep = async (): Promise<void> => {
    if (!expire) return
    try {
      for (const tenant of await expire(Date.now() - ttlMs)) {
        calledAt.delete(tenant)
        release(tenant)
      }
    } catch (error) {
      onError?.(error)
    }
  }

  void sweep()
  const sweeping = expire ? setInterval(() => void sweep(), Math.min(ttlMs, HOUR_MS)).unref() : undefined
  return { touch, calledAt, sweeping }
}
