/**
 * Values by tenant in the order their tenants were last active, least recent first: the order in
 * which a buffer bounded in bytes over all tenants drops them. Moving the most recent tenant to
 * the end again is skipped, so the common case (one client calling again and again) costs a lookup.
 */
export class RecencyMap<V> extends Map<string, V> {
  /** The last key in the map's order, when known. */
  private latest: string | undefined

  /** The tenant's value (made when absent), moved to the most recent end. */
  touch(tenant: string, make: () => V): V {
    const value = this.get(tenant)
    if (value === undefined) {
      const made = make()
      this.set(tenant, made)
      return made
    }
    if (tenant !== this.latest) {
      this.delete(tenant)
      this.set(tenant, value)
    }
    return value
  }

  override set(tenant: string, value: V): this {
    // A new key goes last; setting a key already present leaves it where it is.
    if (!this.has(tenant)) this.latest = tenant
    return super.set(tenant, value)
  }

  override delete(tenant: string): boolean {
    if (tenant === this.latest) this.latest = undefined
    return super.delete(tenant)
  }

  override clear(): void {
    this.latest = undefined
    super.clear()
  }
}
