import { KEY_RECORDS_KEPT, type KeyRecord } from '../../store.ts'
import { KeyRecords, type ByteCount } from './key-records.ts'

/** One tenant's finished records, and the bytes they hold. */
interface Held {
  records: KeyRecords
  count: ByteCount
}

/**
 * The tenants' finished idempotency records (docs/behaviour.md §4), part of each tenant's value as
 * its records and clock are (TenantMemory): changed only by the store's changes (`keyRecord`,
 * `restampKeyRecords`, `forgetKeyRecords`), gone with the tenant's release. A call's in-flight
 * marker is not here: it is per call, beside the value (policies/idempotency).
 */
export class TenantKeyRecords {
  private readonly tenants = new Map<string, Held>()
  /** Bytes held over every tenant's records: the memory budget counts them (docs/behaviour.md §3). */
  bytes = 0

  /** The tenant's record of `key`, expired or not: whether it has expired is the tenant's clock's to say. */
  find(tenant: string, key: string): KeyRecord | undefined {
    const held = this.tenants.get(tenant)
    const id = held?.records.find(key) ?? 0
    return id === 0 ? undefined : held!.records.recordOf(id)
  }

  /** Keeps a finished record, replacing one of its key; the tenant keeps its newest `keep`. */
  keep(tenant: string, { key, method, path, print, status, answer, expiresAt }: KeyRecord, keep: number): void {
    let held = this.tenants.get(tenant)
    if (!held) {
      const count: ByteCount = { bytes: 0 }
      this.tenants.set(tenant, (held = { records: new KeyRecords(Math.max(1, keep), count), count }))
    }
    const { records, count } = held
    const before = count.bytes
    const existing = records.find(key)
    if (existing !== 0) records.remove(existing)
    records.answered(records.open(key, method, path, print, expiresAt), status, answer)
    this.bytes += count.bytes - before
  }

  /** Every record of the tenant now expires at `expiresAt` (its clock went back, docs/behaviour.md §8). */
  restamp(tenant: string, expiresAt: number): void {
    this.tenants.get(tenant)?.records.restamp(expiresAt)
  }

  /** The tenant's records, oldest first, as a store holds them (reload). */
  reload(tenant: string, records: readonly KeyRecord[] | undefined, keep = KEY_RECORDS_KEPT): void {
    this.forget(tenant)
    for (const record of records ?? []) this.keep(tenant, record, keep)
  }

  forget(tenant: string): void {
    const held = this.tenants.get(tenant)
    if (!held) return
    this.bytes -= held.count.bytes
    this.tenants.delete(tenant)
  }

  /** What the tenant's records hold. */
  bytesOf(tenant: string): number {
    return this.tenants.get(tenant)?.count.bytes ?? 0
  }
}
