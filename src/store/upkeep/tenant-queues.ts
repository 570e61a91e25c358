import type { Serialized } from '../memory/tenant-source.ts'

/** Each tenant's changes, one after another: a tenant with none under way is `idle`. */
export function tenantQueues() {
  const queues = new Map<string, Promise<unknown>>()

  /** Runs `task` after every earlier task of this tenant has settled; once they all have, the tenant's turn is free (`idle`). */
  const serialized: Serialized = <T>(tenant: string, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(tenant) ?? Promise.resolve()).then(task)
    const turn: Promise<void> = run.then(free, free)
    function free(): void {
      if (queues.get(tenant) === turn) queues.delete(tenant)
    }
    queues.set(tenant, turn)
    return run
  }

  return {
    serialized,
    idle: (tenant: string): boolean => !queues.has(tenant),
    /** The tenant is let go of: a change still under way no longer holds its turn. */
    forget: (tenant: string): void => void queues.delete(tenant),
    /** Once every change under way has settled. */
    settled: async (): Promise<void> => void (await Promise.all([...queues.values()])),
  }
}
