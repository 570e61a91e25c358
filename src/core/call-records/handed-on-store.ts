import type { KeyedWrite, Store, TenantTransaction, TenantView } from '../../store/store.ts'
import type { FaultsChange, TenantFaults } from '../../store/tenant-parts/tenant-faults.ts'

/**
 * A store that hands every member on to `store`: the base of the stores a call's handler sees
 * (a capturing one, a checked one), which change only how it reads or changes records. A class of
 * one shape per kind rather than an object made by Object.create(store) per call: that was a
 * call's largest cost of its own in the profile, and it kept each call's objects past the
 * collector's young generation (docs/decisions.md, 2026-11-28).
 */
export class HandedOnStore implements Store {
  constructor(protected readonly store: Store) {}

  read<T>(tenant: string, work: (view: TenantView) => T): Promise<T> {
    return this.store.read(tenant, work)
  }

  transact<T>(tenant: string, work: (tx: TenantTransaction) => T, recordOf?: (result: T) => KeyedWrite): Promise<T> {
    return this.store.transact(tenant, work, recordOf)
  }

  open(tenant: string) {
    return this.store.open(tenant)
  }

  memory() {
    return this.store.memory()
  }

  makeRoom(tenant: string, bytes: number, what: string) {
    this.store.makeRoom(tenant, bytes, what)
  }

  exportState(tenant: string) {
    return this.store.exportState(tenant)
  }

  importState(...args: Parameters<Store['importState']>) {
    return this.store.importState(...args)
  }

  createTenant(...args: Parameters<Store['createTenant']>) {
    return this.store.createTenant(...args)
  }

  reset(tenant: string) {
    return this.store.reset(tenant)
  }

  resetAll() {
    return this.store.resetAll()
  }

  tenants() {
    return this.store.tenants()
  }

  released() {
    return this.store.released()
  }

  saveSnapshot(tenant: string, name: string, at: Date) {
    return this.store.saveSnapshot(tenant, name, at)
  }

  listSnapshots(tenant: string) {
    return this.store.listSnapshots(tenant)
  }

  restoreSnapshot(tenant: string, name: string) {
    return this.store.restoreSnapshot(tenant, name)
  }

  deleteSnapshot(tenant: string, name: string) {
    return this.store.deleteSnapshot(tenant, name)
  }

  keepKeyRecord(...args: Parameters<Store['keepKeyRecord']>) {
    return this.store.keepKeyRecord(...args)
  }

  keyRecordOf(...args: Parameters<Store['keyRecordOf']>) {
    return this.store.keyRecordOf(...args)
  }

  heldKeyRecord(...args: Parameters<Store['heldKeyRecord']>) {
    return this.store.heldKeyRecord(...args)
  }

  restampKeyRecords(...args: Parameters<Store['restampKeyRecords']>) {
    return this.store.restampKeyRecords(...args)
  }

  keepClock(...args: Parameters<Store['keepClock']>) {
    return this.store.keepClock(...args)
  }

  clockOf(...args: Parameters<Store['clockOf']>) {
    return this.store.clockOf(...args)
  }

  clearClocks() {
    return this.store.clearClocks()
  }

  heldClocks() {
    return this.store.heldClocks()
  }

  faultRulesOf(...args: Parameters<Store['faultRulesOf']>) {
    return this.store.faultRulesOf(...args)
  }

  changeFaultRules<T>(tenant: string, change: (faults: TenantFaults | undefined) => FaultsChange<T>) {
    return this.store.changeFaultRules(tenant, change)
  }

  health() {
    return this.store.health()
  }

  close() {
    return this.store.close()
  }
}
