/** Tenants whose last seen version is kept at most; the one seen first goes first. */
const MAX_SEEN = 10_000

/**
 * The version of each tenant's fault rules (the `v` field of its rules' hash in Redis, '' when it
 * has none) as the rate limit's script last read it, in the same round trip that takes the call's
 * token. Every call takes its token before its fault rules are checked (the order of checks, docs/behaviour.md §1.3),
 * so when a call reaches the check, the version seen is the one Redis held at its own take or
 * later: if the rules this instance holds are of that version and none matches the call, there
 * is nothing to count, and the check needs no trip of its own.
 */
export class SeenVersions {
  private readonly seen = new Map<string, string>()

  note(tenant: string, version: string): void {
    // Set again without delete: the tenant calling again and again is not moved.
    if (!this.seen.has(tenant) && this.seen.size >= MAX_SEEN) this.seen.delete(this.seen.keys().next().value!)
    this.seen.set(tenant, version)
  }

  get(tenant: string): string | undefined {
    return this.seen.get(tenant)
  }

  forget(tenant: string): void {
    this.seen.delete(tenant)
  }
}
